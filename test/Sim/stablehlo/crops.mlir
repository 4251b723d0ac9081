// stablehlo and mhlo slices of stride 1 and pads without interior padding
// keep a split dimension split, as tensor.extract_slice and tensor.pad do
// (test/Sim/partition/crops.mlir): each device's outputs read a run of the
// operand's rows, which it holds with a halo of its neighbours' rows (one
// update_halo), and the op is made again on each device as its tensor twin
// at an offset and size (and share of the padding) read from a table at
// the device's piece number.  JAX's next-token loss (logits[:, :-1]
// against targets[:, 1:]) moves one row of the logits and the sum, where
// it moved the split to the vocabulary and back (3,448 bytes in the JAX
// export, test_jax_end_to_end's seq_next_token).  Each function is run
// against the original after propagation and partition, and after
// partition alone (annotations only at the arguments and results: the ops
// between run whole).
// RUN: mesh-opt --allow-unregistered-dialect --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: mesh-opt --allow-unregistered-dialect --mesh-partition %s -o %t.alone.mlir
// RUN: FileCheck %s --input-file=%t.alone.mlir --check-prefix=ALONE
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f next_token --compare-with %s --seed 1 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.alone.mlir -f next_token --compare-with %s --seed 11 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f both_ends --compare-with %s --seed 2 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.alone.mlir -f both_ends --compare-with %s --seed 12 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f two_dims --compare-with %s --seed 3 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.alone.mlir -f two_dims --compare-with %s --seed 13 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f mhlo_slice_i32 --compare-with %s --seed 4 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.alone.mlir -f mhlo_slice_i32 --compare-with %s --seed 14 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f pad_both --compare-with %s --seed 5 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.alone.mlir -f pad_both --compare-with %s --seed 15 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f pad_negative --compare-with %s --seed 6 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.alone.mlir -f pad_negative --compare-with %s --seed 16 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f mhlo_pad_argument --compare-with %s --seed 7 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.alone.mlir -f mhlo_pad_argument --compare-with %s --seed 17 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f negative_whole_dim --compare-with %s --seed 8 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.alone.mlir -f negative_whole_dim --compare-with %s --seed 18 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f uneven_whole_dim --compare-with %s --seed 9 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.alone.mlir -f uneven_rows_alone --compare-with %s --seed 10 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f hlo_halo_on_whole_dim --compare-with %s --seed 21 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.alone.mlir -f hlo_halo_on_whole_dim --compare-with %s --seed 22 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f pad_cut_past_end --compare-with %s --seed 23 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.alone.mlir -f pad_cut_past_end --compare-with %s --seed 24 -q | FileCheck %s --check-prefix=SIM
// SIM: match

mesh.mesh @m4(shape = 4)
mesh.mesh @m24(shape = 2x4)
mesh.mesh @m3(shape = 3)
mesh.mesh @m2(shape = 2)

// 47 outputs over 4 are cut 11, 12, 12, 12: logits[:, :-1] reads a row of
// the previous piece on devices 1-3, targets[:, 1:] only its own rows
// (the first device one fewer).
// CHECK-LABEL: func.func @next_token(
// CHECK: mesh.update_halo %arg0 into %{{.*}} on @m24 split_axes = {{\[\[0\], \[1\]\]}} destination_halo_sizes = [0, 0, 1, 0] : tensor<2x12x16xf32> -> tensor<2x13x16xf32>
// CHECK: tensor.extract_slice %{{.*}} : tensor<2x13x16xf32> to tensor<2x?x16xf32>
// CHECK: tensor.extract_slice %arg1[0, %{{.*}}, 0] [2, %{{.*}}, 16] [1, 1, 1] : tensor<2x12x16xf32> to tensor<2x?x16xf32>
// CHECK: "stablehlo.multiply"(%{{.*}}, %{{.*}}) : (tensor<2x?x16xf32>, tensor<2x?x16xf32>) -> tensor<2x?x16xf32>
// CHECK: mesh.all_reduce %{{.*}} on @m24 mesh_axes = [0, 1] : tensor<f32> -> tensor<f32>
// CHECK-NOT: mesh.all_to_all
// CHECK-NOT: stablehlo.slice
// CHECK: return
func.func @next_token(%logits: tensor<4x48x16xf32>, %targets: tensor<4x48x16xf32>) -> tensor<f32> {
  %s = mesh.sharding @m24 split_axes = [[0], [1]] : !mesh.sharding
  %whole = mesh.sharding @m24 split_axes = [] : !mesh.sharding
  %l = mesh.shard %logits to %s : tensor<4x48x16xf32>
  %t = mesh.shard %targets to %s : tensor<4x48x16xf32>
  %a = "stablehlo.slice"(%l) <{limit_indices = array<i64: 4, 47, 16>, start_indices = array<i64: 0, 0, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<4x48x16xf32>) -> tensor<4x47x16xf32>
  %ninf = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
  %m = "stablehlo.reduce"(%a, %ninf) <{dimensions = array<i64: 2>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %r = "stablehlo.maximum"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%r) : (tensor<f32>) -> ()
  }) : (tensor<4x47x16xf32>, tensor<f32>) -> tensor<4x47xf32>
  %mb = "stablehlo.broadcast_in_dim"(%m) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<4x47xf32>) -> tensor<4x47x16xf32>
  %c = "stablehlo.subtract"(%a, %mb) : (tensor<4x47x16xf32>, tensor<4x47x16xf32>) -> tensor<4x47x16xf32>
  %b = "stablehlo.slice"(%t) <{limit_indices = array<i64: 4, 48, 16>, start_indices = array<i64: 0, 1, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<4x48x16xf32>) -> tensor<4x47x16xf32>
  %p = "stablehlo.multiply"(%c, %b) : (tensor<4x47x16xf32>, tensor<4x47x16xf32>) -> tensor<4x47x16xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %sum = "stablehlo.reduce"(%p, %zero) <{dimensions = array<i64: 0, 1, 2>}> ({
  ^bb0(%u: tensor<f32>, %v: tensor<f32>):
    %r = "stablehlo.add"(%u, %v) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%r) : (tensor<f32>) -> ()
  }) : (tensor<4x47x16xf32>, tensor<f32>) -> tensor<f32>
  %r = mesh.shard %sum to %whole : tensor<f32>
  return %r : tensor<f32>
}

// x[2:46] of 48 rows over 4: 11 rows each, device p's from row 2 + 11p
// (the first device reads a row of the second's piece, the last a row of
// the third's).
// CHECK-LABEL: func.func @both_ends(
// CHECK: mesh.update_halo %arg0 into %{{.*}} destination_halo_sizes = [1, 1] : tensor<12x8xf32> -> tensor<14x8xf32>
// CHECK: arith.constant dense<[3, 2, 1, 0]> : tensor<4xindex>
// CHECK: tensor.extract_slice %{{.*}}[%{{.*}}, 0] [11, 8] [1, 1] : tensor<14x8xf32> to tensor<11x8xf32>
// CHECK-NOT: stablehlo.slice
func.func @both_ends(%x: tensor<48x8xf32>) -> tensor<44x8xf32> {
  %s = mesh.sharding @m4 split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<48x8xf32>
  %y = "stablehlo.slice"(%xs) <{limit_indices = array<i64: 46, 8>, start_indices = array<i64: 2, 0>, strides = array<i64: 1, 1>}> : (tensor<48x8xf32>) -> tensor<44x8xf32>
  %ys = mesh.shard %y to %s : tensor<44x8xf32>
  return %ys : tensor<44x8xf32>
}

// Both dimensions of a 2x2 mesh: x[1:, :-2] of 16x16, each device a run of
// its rows and of its columns.
// CHECK-LABEL: func.func @two_dims(
// CHECK-NOT: mesh.all_to_all
// CHECK-NOT: mesh.all_gather
// CHECK: tensor.extract_slice
// CHECK-NOT: stablehlo.slice
func.func @two_dims(%x: tensor<16x16xf32>) -> tensor<15x14xf32> {
  %s = mesh.sharding @m24 split_axes = [[0], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<16x16xf32>
  %y = "stablehlo.slice"(%xs) <{limit_indices = array<i64: 16, 14>, start_indices = array<i64: 1, 0>, strides = array<i64: 1, 1>}> : (tensor<16x16xf32>) -> tensor<15x14xf32>
  %e = "stablehlo.exponential"(%y) : (tensor<15x14xf32>) -> tensor<15x14xf32>
  %es = mesh.shard %e to %s : tensor<15x14xf32>
  return %es : tensor<15x14xf32>
}

// mhlo's slice, its indices dense 64-bit elements, on i32.
// CHECK-LABEL: func.func @mhlo_slice_i32(
// CHECK: tensor.extract_slice
// CHECK-NOT: mhlo.slice
func.func @mhlo_slice_i32(%x: tensor<40x8xi32>) -> tensor<38x8xi32> {
  %s = mesh.sharding @m4 split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<40x8xi32>
  %y = "mhlo.slice"(%xs) {start_indices = dense<[1, 0]> : tensor<2xi64>, limit_indices = dense<[39, 8]> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} : (tensor<40x8xi32>) -> tensor<38x8xi32>
  %z = "mhlo.add"(%y, %y) : (tensor<38x8xi32>, tensor<38x8xi32>) -> tensor<38x8xi32>
  %zs = mesh.shard %z to %s : tensor<38x8xi32>
  return %zs : tensor<38x8xi32>
}

// 64 rows padded by 2 and 3 into 69 (pieces of 17, 17, 17, 18): the first
// device pads 2 rows in front, the last 3 behind.
// CHECK-LABEL: func.func @pad_both(
// CHECK: tensor.pad
// CHECK-NOT: stablehlo.pad
func.func @pad_both(%x: tensor<64x4xf32>) -> tensor<69x4xf32> {
  %s = mesh.sharding @m4 split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<64x4xf32>
  %v = "stablehlo.constant"() <{value = dense<-1.5> : tensor<f32>}> : () -> tensor<f32>
  %y = "stablehlo.pad"(%xs, %v) <{edge_padding_high = array<i64: 3, 0>, edge_padding_low = array<i64: 2, 0>, interior_padding = array<i64: 0, 0>}> : (tensor<64x4xf32>, tensor<f32>) -> tensor<69x4xf32>
  %ys = mesh.shard %y to %s : tensor<69x4xf32>
  return %ys : tensor<69x4xf32>
}

// A negative low padding cuts the first row off, the high one adds a row
// behind: row i reads row i + 1, the next device's first row for the last
// row of each piece.
// CHECK-LABEL: func.func @pad_negative(
// CHECK: mesh.update_halo %arg0 into %{{.*}} destination_halo_sizes = [0, 1] : tensor<12x4xf32> -> tensor<13x4xf32>
// CHECK: tensor.pad
// CHECK-NOT: stablehlo.pad
func.func @pad_negative(%x: tensor<48x4xf32>) -> tensor<48x4xf32> {
  %s = mesh.sharding @m4 split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<48x4xf32>
  %v = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %y = "stablehlo.pad"(%xs, %v) <{edge_padding_high = array<i64: 1, 0>, edge_padding_low = array<i64: -1, 0>, interior_padding = array<i64: 0, 0>}> : (tensor<48x4xf32>, tensor<f32>) -> tensor<48x4xf32>
  %ys = mesh.shard %y to %s : tensor<48x4xf32>
  return %ys : tensor<48x4xf32>
}

// mhlo's pad of i32 by an argument, 8 rows in front of 40 over 4 (pieces
// of 10 into pieces of 12).
// CHECK-LABEL: func.func @mhlo_pad_argument(
// CHECK: tensor.extract %arg1[] : tensor<i32>
// CHECK: tensor.pad
// CHECK-NOT: mhlo.pad
func.func @mhlo_pad_argument(%x: tensor<40x8xi32>, %v: tensor<i32>) -> tensor<48x8xi32> {
  %s = mesh.sharding @m4 split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<40x8xi32>
  %y = "mhlo.pad"(%xs, %v) {edge_padding_high = dense<0> : tensor<2xi64>, edge_padding_low = dense<[8, 0]> : tensor<2xi64>, interior_padding = dense<0> : tensor<2xi64>} : (tensor<40x8xi32>, tensor<i32>) -> tensor<48x8xi32>
  %ys = mesh.shard %y to %s : tensor<48x8xi32>
  return %ys : tensor<48x8xi32>
}

// The rows split, the columns padded by -1 and 2 left whole: each device
// cuts its first column off before padding (a tensor.pad cannot pad by a
// negative amount).
// CHECK-LABEL: func.func @negative_whole_dim(
// CHECK: tensor.extract_slice %{{.*}}[0, 1] [14, 7] [1, 1] : tensor<14x8xf32> to tensor<14x7xf32>
// CHECK: tensor.pad
// CHECK-NOT: stablehlo.pad
func.func @negative_whole_dim(%x: tensor<48x8xf32>) -> tensor<50x9xf32> {
  %s = mesh.sharding @m4 split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<48x8xf32>
  %v = "stablehlo.constant"() <{value = dense<2.0> : tensor<f32>}> : () -> tensor<f32>
  %y = "stablehlo.pad"(%xs, %v) <{edge_padding_high = array<i64: 0, 2>, edge_padding_low = array<i64: 2, -1>, interior_padding = array<i64: 0, 0>}> : (tensor<48x8xf32>, tensor<f32>) -> tensor<50x9xf32>
  %ys = mesh.shard %y to %s : tensor<50x9xf32>
  return %ys : tensor<50x9xf32>
}

// Two of 4 rows, over 3 devices: the solver splits the columns the slice
// takes whole, in pieces of 1, 1 and 2 (the rows would leave a device
// none).  Pieces of different sizes do not fit the hlo slice's limits:
// it becomes a tensor.extract_slice sized by a table.
// CHECK-LABEL: func.func @uneven_whole_dim(
// CHECK: tensor.extract_slice %{{.*}}[0, 0] [2, %{{.*}}] [1, 1] : tensor<4x?xf32> to tensor<2x?xf32>
// CHECK-NOT: stablehlo.slice
func.func @uneven_whole_dim(%x: tensor<4x4xf32>) -> tensor<2x4xf32> {
  %s = mesh.sharding @m3 split_axes = [[0], []] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x4xf32>
  %y = "stablehlo.slice"(%xs) <{start_indices = array<i64: 0, 0>, limit_indices = array<i64: 2, 4>, strides = array<i64: 1, 1>}> : (tensor<4x4xf32>) -> tensor<2x4xf32>
  %ys = mesh.shard %y to %s : tensor<2x4xf32>
  return %ys : tensor<2x4xf32>
}

// Partition alone, the rows (5 over 2: 3 and 2) annotated on the slice's
// operand and result: the slice of the middle columns runs on each
// device's rows, which partition refused as an hlo slice.
// ALONE-LABEL: func.func @uneven_rows_alone(
// ALONE: tensor.extract_slice %{{.*}}[0, 1] [%{{.*}}, 2] [1, 1] : tensor<?x4xf32> to tensor<?x2xf32>
// ALONE-NOT: stablehlo.slice
func.func @uneven_rows_alone(%arg0: tensor<5x4xf32>) -> tensor<5x2xf32> {
  %s = mesh.sharding @m2 split_axes = [[0]] : !mesh.sharding
  %x = mesh.shard %arg0 to %s : tensor<5x4xf32>
  %y = mesh.shard %x to %s annotate_for_users : tensor<5x4xf32>
  %0 = "stablehlo.slice"(%y) <{start_indices = array<i64: 0, 1>, limit_indices = array<i64: 5, 3>, strides = array<i64: 1, 1>}> : (tensor<5x4xf32>) -> tensor<5x2xf32>
  %1 = mesh.shard %0 to %s : tensor<5x2xf32>
  return %1 : tensor<5x2xf32>
}

// An hlo pad by -1 and -1 of the columns, not split, of rows that arrive
// with a halo: partition alone drops the halo before each device pads its
// own rows (it padded the halo's rows into a type one row short).
// ALONE-LABEL: func.func @hlo_halo_on_whole_dim(
// ALONE: mesh.update_halo
// ALONE: tensor.pad
func.func @hlo_halo_on_whole_dim(%x: tensor<6x8xf32>) -> tensor<6x6xf32> {
  %s = mesh.sharding @m2 split_axes = [[0]] : !mesh.sharding
  %h = mesh.sharding @m2 split_axes = [[0]] halo_sizes = [1, 0] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<6x8xf32>
  %xh = mesh.shard %xs to %h annotate_for_users : tensor<6x8xf32>
  %c = "stablehlo.constant"() <{value = dense<5.0> : tensor<f32>}> : () -> tensor<f32>
  %y = "stablehlo.pad"(%xh, %c) <{edge_padding_low = array<i64: 0, -1>, edge_padding_high = array<i64: 0, -1>, interior_padding = array<i64: 0, 0>}> : (tensor<6x8xf32>, tensor<f32>) -> tensor<6x6xf32>
  %ys = mesh.shard %y to %s : tensor<6x6xf32>
  return %ys : tensor<6x6xf32>
}

// A dimension left whole padded by 3 in front and cut by 2 behind, more
// than its one column: all padding, no column kept.  The rows are split
// and padded by one in front.
// CHECK-LABEL: func.func @pad_cut_past_end(
// CHECK: tensor.empty(%{{.*}}) : tensor<?x0xf32>
// CHECK: tensor.pad %{{.*}} low[%{{.*}}, 2] high[0, 0]
func.func @pad_cut_past_end(%x: tensor<4x1xf32>) -> tensor<5x2xf32> {
  %s = mesh.sharding @m2 split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x1xf32>
  %c = "stablehlo.constant"() <{value = dense<5.0> : tensor<f32>}> : () -> tensor<f32>
  %y = "stablehlo.pad"(%xs, %c) <{edge_padding_low = array<i64: 1, 3>, edge_padding_high = array<i64: 0, -2>, interior_padding = array<i64: 0, 0>}> : (tensor<4x1xf32>, tensor<f32>) -> tensor<5x2xf32>
  %ys = mesh.shard %y to %s : tensor<5x2xf32>
  return %ys : tensor<5x2xf32>
}
