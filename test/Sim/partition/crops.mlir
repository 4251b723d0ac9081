// Crops: a tensor.extract_slice taking a run of a split dimension (`x[:, :-1]`,
// `x[:, 1:]`, `x[2:62]`, `x[1::2]`) keeps it split: device p's outputs read
// a run of rows that starts where its piece of the outputs starts, so the
// operand arrives with the halos those runs need beyond each even piece
// (one update_halo of a row where the dimension was gathered or moved
// before), or, where a halo would be wider than a piece (`x[:8]` over 4)
// or the pieces are uneven, cut where each run starts; each device then
// slices its own rows, at an offset and to a size read from a table at
// its piece number.  Partition alone reshards a layout written by hand
// (an explicit cut of the result needing 9 rows of halo).  A tensor.pad of
// a split dimension reads its source shifted by the low padding, the rows
// beyond it padding: each device pads the run of rows it holds by its own
// share of the padding (RWKV's token shift, `pad(x[:, :-1], low 1)`, takes
// one update_halo of a column, where the dimension was moved away and back).
// RUN: mesh-opt --sharding-propagation %s | FileCheck %s --check-prefix=PROP
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: mesh-opt --mesh-partition %s -o %t.alone.mlir
// RUN: FileCheck %s --input-file=%t.alone.mlir --check-prefix=ALONE
// RUN: mesh-run %t.mlir -f shift_product --compare-with %s --seed 1 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.alone.mlir -f shift_product --compare-with %s --seed 11 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f both_ends --compare-with %s --seed 2 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.alone.mlir -f both_ends --compare-with %s --seed 12 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f strided --compare-with %s --seed 3 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.alone.mlir -f strided --compare-with %s --seed 13 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f far_head --compare-with %s --seed 4 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.alone.mlir -f far_head --compare-with %s --seed 14 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f odd_extent --compare-with %s --seed 5 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.alone.mlir -f odd_extent --compare-with %s --seed 15 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f two_dims --compare-with %s --seed 6 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.alone.mlir -f two_dims --compare-with %s --seed 16 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f rank_reduced --compare-with %s --seed 7 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.alone.mlir -f rank_reduced --compare-with %s --seed 17 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f hand_cut --compare-with %s --seed 8 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.alone.mlir -f hand_cut --compare-with %s --seed 18 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f token_shift --compare-with %s --seed 21 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.alone.mlir -f token_shift --compare-with %s --seed 31 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f pad_uneven --compare-with %s --seed 22 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.alone.mlir -f pad_uneven --compare-with %s --seed 32 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f pad_far --compare-with %s --seed 23 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.alone.mlir -f pad_far --compare-with %s --seed 33 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f pad_2x2 --compare-with %s --seed 24 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.alone.mlir -f pad_2x2 --compare-with %s --seed 34 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f pad_max --compare-with %s --seed 25 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.alone.mlir -f pad_max --compare-with %s --seed 35 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f pad_hand_cut --compare-with %s --seed 26 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.alone.mlir -f pad_hand_cut --compare-with %s --seed 36 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f halo_on_whole_dim --compare-with %s --seed 27 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.alone.mlir -f halo_on_whole_dim --compare-with %s --seed 37 -q | FileCheck %s --check-prefix=SIM
// SIM: match

mesh.mesh @m(shape = 4)
mesh.mesh @m2(shape = 2x2)
mesh.mesh @d(shape = ?)

// x[:, :-1]'s devices 1-3 start a column before their pieces (63 outputs
// over 4: 15, 16, 16, 16); x[:, 1:]'s runs are each device's own piece.
// PROP-LABEL: func.func @shift_product
// PROP: %[[HALO:.*]] = mesh.sharding @m split_axes = {{\[\[\], \[0\]\]}} halo_sizes = [1, 0] : !mesh.sharding
// PROP: %[[A:.*]] = mesh.shard %arg0 to
// PROP: %[[B:.*]] = mesh.shard %arg1 to
// PROP: %[[AH:.*]] = mesh.shard %[[A]] to %[[HALO]] annotate_for_users
// PROP: tensor.extract_slice %[[AH]][0, 0] [8, 63] [1, 1] {mesh.sharding_option = #mesh.sharding<@m, {{\[\[\], \[0\]\]}}>}
// PROP: tensor.extract_slice %[[B]][0, 1] [8, 63] [1, 1] {mesh.sharding_option = #mesh.sharding<@m, {{\[\[\], \[0\]\]}}>}
// CHECK-LABEL: func.func @shift_product
// CHECK-SAME: -> (tensor<8x?xf32>
// CHECK: %[[H:.*]] = mesh.update_halo %arg0 into %{{.*}} on @m split_axes = {{\[\[\], \[0\]\]}} destination_halo_sizes = [1, 0] : tensor<8x16xf32> -> tensor<8x17xf32>
// CHECK: %[[I:.*]] = mesh.process_multi_index on @m axes = [0] : index
// CHECK: arith.constant dense<[15, 16, 16, 16]> : tensor<4xindex>
// CHECK: arith.constant dense<[1, 0, 0, 0]> : tensor<4xindex>
// CHECK: tensor.extract_slice %[[H]][0, %{{.*}}] [8, %{{.*}}] [1, 1] : tensor<8x17xf32> to tensor<8x?xf32>
// CHECK: tensor.extract_slice %arg1[0, %{{.*}}] [8, %{{.*}}] [1, 1] : tensor<8x16xf32> to tensor<8x?xf32>
// CHECK-NOT: mesh.all_gather
// CHECK: linalg.mul
func.func @shift_product(%a: tensor<8x64xf32>, %b: tensor<8x64xf32>) -> tensor<8x63xf32> {
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %as = mesh.shard %a to %s : tensor<8x64xf32>
  %bs = mesh.shard %b to %s : tensor<8x64xf32>
  %x = tensor.extract_slice %as[0, 0] [8, 63] [1, 1] : tensor<8x64xf32> to tensor<8x63xf32>
  %y = tensor.extract_slice %bs[0, 1] [8, 63] [1, 1] : tensor<8x64xf32> to tensor<8x63xf32>
  %e = tensor.empty() : tensor<8x63xf32>
  %m = linalg.mul ins(%x, %y : tensor<8x63xf32>, tensor<8x63xf32>) outs(%e : tensor<8x63xf32>) -> tensor<8x63xf32>
  %ms = mesh.shard %m to %s : tensor<8x63xf32>
  return %ms : tensor<8x63xf32>
}

// 60 rows from row 2, 15 per device: one row of halo each side, and each
// device starts 3, 2, 1, 0 rows into its 18.
// CHECK-LABEL: func.func @both_ends
// CHECK: mesh.update_halo %arg0 into %{{.*}} destination_halo_sizes = [1, 1] : tensor<16x4xf32> -> tensor<18x4xf32>
// CHECK: arith.constant dense<[3, 2, 1, 0]> : tensor<4xindex>
// CHECK: tensor.extract_slice %{{.*}}[%{{.*}}, 0] [15, 4] [1, 1] : tensor<18x4xf32> to tensor<15x4xf32>
func.func @both_ends(%a: tensor<64x4xf32>) -> tensor<60x4xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %as = mesh.shard %a to %s : tensor<64x4xf32>
  %x = tensor.extract_slice %as[2, 0] [60, 4] [1, 1] : tensor<64x4xf32> to tensor<60x4xf32>
  %e = tensor.empty() : tensor<60x4xf32>
  %n = linalg.negf ins(%x : tensor<60x4xf32>) outs(%e : tensor<60x4xf32>) -> tensor<60x4xf32>
  %ns = mesh.shard %n to %s : tensor<60x4xf32>
  return %ns : tensor<60x4xf32>
}

func.func @strided(%a: tensor<64xf32>) -> tensor<31xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %as = mesh.shard %a to %s : tensor<64xf32>
  %x = tensor.extract_slice %as[1] [31] [2] : tensor<64xf32> to tensor<31xf32>
  %e = tensor.empty() : tensor<31xf32>
  %n = linalg.negf ins(%x : tensor<31xf32>) outs(%e : tensor<31xf32>) -> tensor<31xf32>
  %ns = mesh.shard %n to %s : tensor<31xf32>
  return %ns : tensor<31xf32>
}

// The last device's two rows lie 42 rows before its piece: the operand is
// cut where each device's run starts instead.
// PROP-LABEL: func.func @far_head
// PROP: mesh.sharding @m split_axes = {{\[\[0\]\]}} sharded_dims_offsets = [0, 2, 4, 6, 64]
func.func @far_head(%a: tensor<64xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %as = mesh.shard %a to %s : tensor<64xf32>
  %x = tensor.extract_slice %as[0] [8] [1] : tensor<64xf32> to tensor<8xf32>
  %xs = mesh.shard %x to %s : tensor<8xf32>
  return %xs : tensor<8xf32>
}

func.func @odd_extent(%a: tensor<63xf32>) -> tensor<62xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %as = mesh.shard %a to %s : tensor<63xf32>
  %x = tensor.extract_slice %as[1] [62] [1] : tensor<63xf32> to tensor<62xf32>
  %xs = mesh.shard %x to %s : tensor<62xf32>
  return %xs : tensor<62xf32>
}

func.func @two_dims(%a: tensor<8x8xf32>) -> tensor<7x6xf32> {
  %s = mesh.sharding @m2 split_axes = [[0], [1]] : !mesh.sharding
  %as = mesh.shard %a to %s : tensor<8x8xf32>
  %x = tensor.extract_slice %as[1, 0] [7, 6] [1, 1] : tensor<8x8xf32> to tensor<7x6xf32>
  %e = tensor.empty() : tensor<7x6xf32>
  %n = linalg.negf ins(%x : tensor<7x6xf32>) outs(%e : tensor<7x6xf32>) -> tensor<7x6xf32>
  %ns = mesh.shard %n to %s : tensor<7x6xf32>
  return %ns : tensor<7x6xf32>
}

func.func @rank_reduced(%a: tensor<8x64xf32>) -> tensor<62xf32> {
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %as = mesh.shard %a to %s : tensor<8x64xf32>
  %x = tensor.extract_slice %as[3, 1] [1, 62] [1, 1] : tensor<8x64xf32> to tensor<62xf32>
  %r = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %r : tensor<62xf32>
  return %xs : tensor<62xf32>
}

// ALONE-LABEL: func.func @hand_cut
// ALONE: mesh.update_halo %arg0 into %{{.*}} destination_halo_sizes = [0, 9] : tensor<16xf32> -> tensor<25xf32>
// ALONE: arith.constant dense<[20, 20, 10, 13]> : tensor<4xindex>
// ALONE: arith.constant dense<[1, 5, 9, 3]> : tensor<4xindex>
// ALONE: tensor.extract_slice %{{.*}}[%{{.*}}] [%{{.*}}] [1] : tensor<25xf32> to tensor<?xf32>
func.func @hand_cut(%a: tensor<64xf32>) -> tensor<63xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %as = mesh.shard %a to %s : tensor<64xf32>
  %c = mesh.sharding @m split_axes = [[0]] sharded_dims_offsets = [0, 20, 40, 50, 63] : !mesh.sharding
  %x = tensor.extract_slice %as[1] [63] [1] : tensor<64xf32> to tensor<63xf32>
  %xs = mesh.shard %x to %c : tensor<63xf32>
  return %xs : tensor<63xf32>
}

// The slice's devices 1-3 take a column of halo; the pad's first device
// pads its 15 columns by one, the others pad nothing.
// CHECK-LABEL: func.func @token_shift
// CHECK: mesh.update_halo %arg0 into %{{.*}} destination_halo_sizes = [1, 0] : tensor<8x16xf32> -> tensor<8x17xf32>
// CHECK-NOT: mesh.{{[a-z_]+}} %
// CHECK: arith.constant dense<[1, 0, 0, 0]> : tensor<4xindex>
// CHECK: tensor.pad %{{.*}} low[0, %{{.*}}] high[0, 0]
// CHECK: } : tensor<8x?xf32> to tensor<8x16xf32>
func.func @token_shift(%a: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %zero = arith.constant 0.0 : f32
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %as = mesh.shard %a to %s : tensor<8x64xf32>
  %x = tensor.extract_slice %as[0, 0] [8, 63] [1, 1] : tensor<8x64xf32> to tensor<8x63xf32>
  %p = tensor.pad %x low[0, 1] high[0, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<8x63xf32> to tensor<8x64xf32>
  %ps = mesh.shard %p to %s : tensor<8x64xf32>
  return %ps : tensor<8x64xf32>
}

func.func @pad_uneven(%a: tensor<64xf32>) -> tensor<69xf32> {
  %c = arith.constant 2.5 : f32
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %as = mesh.shard %a to %s : tensor<64xf32>
  %p = tensor.pad %as low[2] high[3] {
  ^bb0(%i: index):
    tensor.yield %c : f32
  } : tensor<64xf32> to tensor<69xf32>
  %e = tensor.empty() : tensor<69xf32>
  %n = linalg.negf ins(%p : tensor<69xf32>) outs(%e : tensor<69xf32>) -> tensor<69xf32>
  %ns = mesh.shard %n to %s : tensor<69xf32>
  return %ns : tensor<69xf32>
}

// 20 cells of padding before 8 over 4 (pieces of 7): the first two devices
// hold padding only, the last two read rows 0 and 1-7, far from their
// pieces: the source is cut where those runs start.
// PROP-LABEL: func.func @pad_far
// PROP: mesh.sharding @m split_axes = {{\[\[0\]\]}} sharded_dims_offsets = [0, 0, 0, 1, 8]
func.func @pad_far(%a: tensor<8xf32>) -> tensor<28xf32> {
  %c = arith.constant -1.0 : f32
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %as = mesh.shard %a to %s : tensor<8xf32>
  %p = tensor.pad %as low[20] high[0] {
  ^bb0(%i: index):
    tensor.yield %c : f32
  } : tensor<8xf32> to tensor<28xf32>
  %ps = mesh.shard %p to %s : tensor<28xf32>
  return %ps : tensor<28xf32>
}

func.func @pad_2x2(%a: tensor<8x8xf32>) -> tensor<9x10xf32> {
  %c = arith.constant 7.0 : f32
  %s = mesh.sharding @m2 split_axes = [[0], [1]] : !mesh.sharding
  %as = mesh.shard %a to %s : tensor<8x8xf32>
  %p = tensor.pad %as low[1, 0] high[0, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c : f32
  } : tensor<8x8xf32> to tensor<9x10xf32>
  %ps = mesh.shard %p to %s : tensor<9x10xf32>
  return %ps : tensor<9x10xf32>
}

func.func @pad_max(%a: tensor<4x30xf32>) -> tensor<4xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %as = mesh.shard %a to %s : tensor<4x30xf32>
  %p = tensor.pad %as low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %ninf : f32
  } : tensor<4x30xf32> to tensor<4x32xf32>
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.reduce ins(%p : tensor<4x32xf32>) outs(%f : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  return %r : tensor<4xf32>
}

// The result cut by hand (30, 10, 1, 25): the last device's run starts 8
// rows before its piece, the first's ends 13 after it; one update_halo.
// ALONE-LABEL: func.func @pad_hand_cut
// ALONE: mesh.update_halo %arg0 into %{{.*}} destination_halo_sizes = [8, 13] : tensor<16xf32> -> tensor<37xf32>
// ALONE-NOT: mesh.update_halo
// ALONE: tensor.pad
func.func @pad_hand_cut(%a: tensor<64xf32>) -> tensor<66xf32> {
  %zero = arith.constant 0.0 : f32
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %c = mesh.sharding @m split_axes = [[0]] sharded_dims_offsets = [0, 30, 40, 41, 66] : !mesh.sharding
  %as = mesh.shard %a to %s : tensor<64xf32>
  %p = tensor.pad %as low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %zero : f32
  } : tensor<64xf32> to tensor<66xf32>
  %ps = mesh.shard %p to %c : tensor<66xf32>
  return %ps : tensor<66xf32>
}

// On a mesh axis of dynamic size a crop never splits (where each device's
// rows start depends on the size): the operand is gathered, as before.
// ALONE-LABEL: func.func @dynamic_mesh
// ALONE: mesh.all_gather
// ALONE: tensor.extract_slice %{{.*}}[1] [63] [1] : tensor<64xf32> to tensor<63xf32>
// CHECK-LABEL: func.func @dynamic_mesh
// CHECK: mesh.all_gather
// CHECK: tensor.extract_slice %{{.*}}[1] [63] [1] : tensor<64xf32> to tensor<63xf32>
func.func @dynamic_mesh(%a: tensor<64xf32>) -> tensor<63xf32> {
  %s = mesh.sharding @d split_axes = [[0]] : !mesh.sharding
  %as = mesh.shard %a to %s : tensor<64xf32>
  %x = tensor.extract_slice %as[1] [63] [1] : tensor<64xf32> to tensor<63xf32>
  %xs = mesh.shard %x to %s : tensor<63xf32>
  return %xs : tensor<63xf32>
}

// The operand arrives (annotated for users) with a halo along the rows,
// which the slice takes whole; it crops the columns, not split.  Each
// device slices its own rows as the whole slice does: partition alone
// drops the halo first (it sliced the halo's rows).
// ALONE-LABEL: func.func @halo_on_whole_dim(
// ALONE: mesh.update_halo
// ALONE: tensor.extract_slice %{{.*}}[1, 0] [2, 8] [1, 1] : tensor<3x8xf32> to tensor<2x8xf32>
// ALONE: tensor.extract_slice %{{.*}}[0, 1] [2, 6] [1, 1] : tensor<2x8xf32> to tensor<2x6xf32>
func.func @halo_on_whole_dim(%x: tensor<8x8xf32>) -> tensor<8x6xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %h = mesh.sharding @m split_axes = [[0]] halo_sizes = [1, 0] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<8x8xf32>
  %xh = mesh.shard %xs to %h annotate_for_users : tensor<8x8xf32>
  %y = tensor.extract_slice %xh[0, 1] [8, 6] [1, 1] : tensor<8x8xf32> to tensor<8x6xf32>
  %ys = mesh.shard %y to %s : tensor<8x6xf32>
  return %ys : tensor<8x6xf32>
}
