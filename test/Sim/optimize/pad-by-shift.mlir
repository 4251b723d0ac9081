// A pad of a split dimension partitions to a collective that gathers the
// dimension, the pad, and one that splits it again: hlo pads (jnp.pad of a
// sequence split over devices), and tensor.pads as partition wrote them
// before they split their padded dimensions (Inputs/: now each device pads
// the rows it holds, after one update_halo, CROP below; hlo pads do the
// same since they split too).  Each device's piece of the padded tensor is a
// window over its own piece and its neighbours': the optimizer brings the
// neighbours' pieces in with non-rotating mesh.shifts, puts the padding
// value where a device has no such neighbour, and cuts the window at an
// offset that depends on the device's index (tensor, stablehlo and mhlo
// pads), where that receives fewer bytes.  Every function is compared with
// the original.
// RUN: mesh-opt --allow-unregistered-dialect --sharding-propagation --mesh-partition %s -o %t.part.mlir
// RUN: mesh-opt --allow-unregistered-dialect --mesh-optimize-collectives %t.part.mlir -o %t.mlir
// RUN: FileCheck %s --check-prefix=CROP < %t.mlir
// RUN: mesh-opt --allow-unregistered-dialect --mesh-optimize-collectives %S/Inputs/pad-by-shift-partitioned.mlir -o %t.tensor.mlir
// RUN: FileCheck %s --check-prefix=SHIFT < %t.tensor.mlir
// RUN: mesh-run %t.tensor.mlir -f rows_high16 --compare-with %s -q --seed 11 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.tensor.mlir -f both_sides_1d --compare-with %s -q --seed 12 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.tensor.mlir -f cols_low16_i32 --compare-with %s -q --seed 13 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.tensor.mlir -f two_dims --compare-with %s -q --seed 14 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run --allow-unregistered-dialect %t.tensor.mlir -f hlo_rows_high16 --compare-with %s -q --seed 15 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run --allow-unregistered-dialect %t.tensor.mlir -f mhlo_low8_i32 --compare-with %s -q --seed 16 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run --allow-unregistered-dialect %t.tensor.mlir -f mhlo_dearer --compare-with %s -q --seed 17 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir -f rows_high16 --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir -f both_sides_1d --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir -f cols_low16_i32 --compare-with %s -q --seed 3 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir -f two_dims --compare-with %s -q --seed 4 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f hlo_rows_high16 --compare-with %s -q --seed 5 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f mhlo_low8_i32 --compare-with %s -q --seed 6 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f mhlo_dearer --compare-with %s -q --seed 7 | FileCheck %s --check-prefix=MATCH
// MATCH: match

// Split tensor.pads: each device pads the rows it holds by its share of
// the padding, one update_halo bringing in the rows it lacks (at most 12
// of 16 rows, 1 and 3 cells, 12 of 16 columns).
// CROP-LABEL: func.func @rows_high16(
// CROP: mesh.update_halo %arg0 into %{{.*}} destination_halo_sizes = [0, 0, 0, 12] : tensor<2x12x16xf32> -> tensor<2x24x16xf32>
// CROP: tensor.pad
// CROP-LABEL: func.func @both_sides_1d(
// CROP: mesh.update_halo %arg0 into %{{.*}} destination_halo_sizes = [1, 3] : tensor<10xf32> -> tensor<14xf32>
// CROP: tensor.pad
// CROP-LABEL: func.func @cols_low16_i32(
// CROP: mesh.update_halo %arg0 into %{{.*}} destination_halo_sizes = [12, 0] : tensor<8x16xi32> -> tensor<8x28xi32>
// CROP: tensor.pad
// CROP-LABEL: func.func @two_dims(
// CROP: mesh.update_halo %arg0 into %{{.*}} destination_halo_sizes = [12, 0] : tensor<8x16xf32> -> tensor<8x28xf32>
// CROP: tensor.pad

// Split hlo pads become tensor.pads of each device's rows by its share of
// the padding, which the hlo pad's 0-d padding tensor gives (192 bytes for
// mhlo_low8_i32, where shifting whole pieces receives 320, and 128 for
// mhlo_dearer, where the two all_to_alls received 528).
// CROP-LABEL: func.func @hlo_rows_high16(
// CROP: %[[V:.*]] = "stablehlo.convert"
// CROP: mesh.update_halo %arg0 into %{{.*}} destination_halo_sizes = [0, 0, 0, 12] : tensor<2x12x16xf32> -> tensor<2x24x16xf32>
// CROP: %[[FILL:.*]] = tensor.extract %[[V]][] : tensor<f32>
// CROP: tensor.pad
// CROP: tensor.yield %[[FILL]] : f32
// CROP-NOT: stablehlo.pad
// CROP-LABEL: func.func @mhlo_low8_i32(
// CROP: mesh.update_halo %arg0 into %{{.*}} destination_halo_sizes = [6, 0] : tensor<10x8xi32> -> tensor<16x8xi32>
// CROP: %[[LOW:.*]] = tensor.extract %{{.*}} : tensor<4xindex>
// CROP: %[[FILL:.*]] = tensor.extract %arg1[] : tensor<i32>
// CROP: tensor.pad %{{.*}} low[%[[LOW]], 0] high[0, 0]
// CROP: tensor.yield %[[FILL]] : i32
// CROP-NOT: mhlo.pad
// CROP-LABEL: func.func @mhlo_dearer(
// CROP: mesh.update_halo %arg0 into %{{.*}} destination_halo_sizes = [3, 1] : tensor<10x8xi32> -> tensor<14x8xi32>
// CROP: tensor.pad
// CROP-NOT: mesh.all_to_all

mesh.mesh @m4(shape = 4)
mesh.mesh @m24(shape = 2x4)

// 48 rows in pieces of 12 padded to 64 in pieces of 16: device i reads its
// own piece and the next one's, from 4*i on (1,536 bytes where the two
// all_to_alls received 2,688); the last device reads padding only.
// SHIFT-LABEL: func.func @rows_high16(
// SHIFT-NOT: mesh.all_to_all
// SHIFT: %[[ME:.*]] = mesh.process_multi_index on @m24 axes = [1] : index
// SHIFT: %[[NEXT:.*]] = mesh.shift %arg0 on @m24 mesh_axes = [1] shift_axis = 1 offset = -1 : tensor<2x12x16xf32> -> tensor<2x12x16xf32>
// SHIFT: %[[C3:.*]] = arith.constant 3 : index
// SHIFT: %[[HELD:.*]] = arith.cmpi ult, %[[ME]], %[[C3]] : index
// SHIFT: %[[PAD12:.*]] = tensor.splat %cst : tensor<2x12x16xf32>
// SHIFT: %[[NEXT_OR_PAD:.*]] = arith.select %[[HELD]], %[[NEXT]], %[[PAD12]] : tensor<2x12x16xf32>
// SHIFT: %[[PAD4:.*]] = tensor.splat %cst : tensor<2x4x16xf32>
// SHIFT: %[[WINDOW:.*]] = tensor.concat dim(1) %arg0, %[[NEXT_OR_PAD]], %[[PAD4]] : (tensor<2x12x16xf32>, tensor<2x12x16xf32>, tensor<2x4x16xf32>) -> tensor<2x28x16xf32>
// SHIFT: %[[C4:.*]] = arith.constant 4 : index
// SHIFT: %[[AT:.*]] = arith.muli %[[ME]], %[[C4]] : index
// SHIFT: %[[Y:.*]] = tensor.extract_slice %[[WINDOW]][0, %[[AT]], 0] [2, 16, 16] [1, 1, 1] : tensor<2x28x16xf32> to tensor<2x16x16xf32>
// SHIFT-NOT: tensor.pad
// SHIFT: return %[[Y]]
func.func @rows_high16(%x: tensor<4x48x16xf32>) -> tensor<4x64x16xf32> {
  %s = mesh.sharding @m24 split_axes = [[0], [1]] : !mesh.sharding
  %zero = arith.constant 0.0 : f32
  %xs = mesh.shard %x to %s : tensor<4x48x16xf32>
  %y = tensor.pad %xs low[0, 0, 0] high[0, 16, 0] {
  ^bb0(%i: index, %j: index, %k: index):
    tensor.yield %zero : f32
  } : tensor<4x48x16xf32> to tensor<4x64x16xf32>
  %ys = mesh.shard %y to %s : tensor<4x64x16xf32>
  return %ys : tensor<4x64x16xf32>
}

// Padded on both sides (a tensor of one dimension: an all_gather and an
// all_slice): 40 cells in pieces of 10 become 48 in pieces of 12, and the
// devices between read both neighbours' pieces; one splat of the padding
// value serves both masks.
// SHIFT-LABEL: func.func @both_sides_1d(
// SHIFT-NOT: mesh.all_gather
// SHIFT: %[[ME:.*]] = mesh.process_multi_index on @m4 axes = [0] : index
// SHIFT: %[[PREV:.*]] = mesh.shift %arg0 on @m4 mesh_axes = [0] shift_axis = 0 offset = 1 : tensor<10xf32> -> tensor<10xf32>
// SHIFT: arith.cmpi uge, %[[ME]], %{{.*}} : index
// SHIFT: %[[PAD:.*]] = tensor.splat %cst : tensor<10xf32>
// SHIFT: %[[P:.*]] = arith.select %{{.*}}, %[[PREV]], %[[PAD]] : tensor<10xf32>
// SHIFT: %[[NEXT:.*]] = mesh.shift %arg0 on @m4 mesh_axes = [0] shift_axis = 0 offset = -1 : tensor<10xf32> -> tensor<10xf32>
// SHIFT: arith.cmpi ult, %[[ME]], %{{.*}} : index
// SHIFT: %[[N:.*]] = arith.select %{{.*}}, %[[NEXT]], %[[PAD]] : tensor<10xf32>
// SHIFT: %[[WINDOW:.*]] = tensor.concat dim(0) %[[P]], %arg0, %[[N]] : (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>) -> tensor<30xf32>
// SHIFT: %[[C2:.*]] = arith.constant 2 : index
// SHIFT: %[[MOVED:.*]] = arith.muli %[[ME]], %[[C2]] : index
// SHIFT: %[[C7:.*]] = arith.constant 7 : index
// SHIFT: %[[AT:.*]] = arith.addi %[[MOVED]], %[[C7]] : index
// SHIFT: tensor.extract_slice %[[WINDOW]][%[[AT]]] [12] [1] : tensor<30xf32> to tensor<12xf32>
// SHIFT-NOT: mesh.all_slice
func.func @both_sides_1d(%x: tensor<40xf32>) -> tensor<48xf32> {
  %s = mesh.sharding @m4 split_axes = [[0]] : !mesh.sharding
  %c = arith.constant 2.5 : f32
  %xs = mesh.shard %x to %s : tensor<40xf32>
  %y = tensor.pad %xs low[3] high[5] {
  ^bb0(%i: index):
    tensor.yield %c : f32
  } : tensor<40xf32> to tensor<48xf32>
  %ys = mesh.shard %y to %s : tensor<48xf32>
  return %ys : tensor<48xf32>
}

// Padded low with a constant made in the pad's body (copied out of it):
// each device reads the piece before its own, the first the padding value.
// SHIFT-LABEL: func.func @cols_low16_i32(
// SHIFT: %[[SEVEN:.*]] = arith.constant 7 : i32
// SHIFT: %[[PREV:.*]] = mesh.shift %arg0 on @m4 mesh_axes = [0] shift_axis = 0 offset = 1 : tensor<8x16xi32> -> tensor<8x16xi32>
// SHIFT: %[[PAD:.*]] = tensor.splat %[[SEVEN]] : tensor<8x16xi32>
// SHIFT: %[[P:.*]] = arith.select %{{.*}}, %[[PREV]], %[[PAD]] : tensor<8x16xi32>
// SHIFT: tensor.concat dim(1) %[[P]], %arg0 : (tensor<8x16xi32>, tensor<8x16xi32>) -> tensor<8x32xi32>
// SHIFT-NOT: mesh.all_to_all
func.func @cols_low16_i32(%x: tensor<8x64xi32>) -> tensor<8x80xi32> {
  %s = mesh.sharding @m4 split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<8x64xi32>
  %y = tensor.pad %xs low[0, 16] high[0, 0] {
  ^bb0(%i: index, %j: index):
    %seven = arith.constant 7 : i32
    tensor.yield %seven : i32
  } : tensor<8x64xi32> to tensor<8x80xi32>
  %ys = mesh.shard %y to %s : tensor<8x80xi32>
  return %ys : tensor<8x80xi32>
}

// A pad of another dimension too is left alone.
// SHIFT-LABEL: func.func @two_dims(
// SHIFT: mesh.all_gather
// SHIFT: tensor.pad
// SHIFT: mesh.all_slice
// SHIFT-NOT: mesh.shift
func.func @two_dims(%x: tensor<8x64xf32>) -> tensor<10x80xf32> {
  %s = mesh.sharding @m4 split_axes = [[], [0]] : !mesh.sharding
  %zero = arith.constant 0.0 : f32
  %xs = mesh.shard %x to %s : tensor<8x64xf32>
  %y = tensor.pad %xs low[1, 16] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<8x64xf32> to tensor<10x80xf32>
  %ys = mesh.shard %y to %s : tensor<10x80xf32>
  return %ys : tensor<10x80xf32>
}

// stablehlo's pad (JAX's jnp.pad), as partition wrote it before (Inputs/):
// its padding value is a 0-d tensor, read once for the splats; as JAX writes it, a converted constant, the same on
// every device.
// SHIFT-LABEL: func.func @hlo_rows_high16(
// SHIFT: %[[V:.*]] = "stablehlo.convert"
// SHIFT: %[[FILL:.*]] = tensor.extract %[[V]][] : tensor<f32>
// SHIFT: mesh.shift %arg0 on @m24 mesh_axes = [1] shift_axis = 1 offset = -1 : tensor<2x12x16xf32> -> tensor<2x12x16xf32>
// SHIFT: tensor.splat %[[FILL]] : tensor<2x12x16xf32>
// SHIFT: tensor.splat %[[FILL]] : tensor<2x4x16xf32>
// SHIFT-NOT: stablehlo.pad
// SHIFT-NOT: mesh.all_to_all
// SHIFT: return
func.func @hlo_rows_high16(%x: tensor<4x48x16xf32>) -> tensor<4x64x16xf32> {
  %s = mesh.sharding @m24 split_axes = [[0], [1]] : !mesh.sharding
  %k = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
  %v = "stablehlo.convert"(%k) : (tensor<i32>) -> tensor<f32>
  %xs = mesh.shard %x to %s : tensor<4x48x16xf32>
  %y = "stablehlo.pad"(%xs, %v) <{edge_padding_high = array<i64: 0, 16, 0>, edge_padding_low = array<i64: 0, 0, 0>, interior_padding = array<i64: 0, 0, 0>}> : (tensor<4x48x16xf32>, tensor<f32>) -> tensor<4x64x16xf32>
  %ys = mesh.shard %y to %s : tensor<4x64x16xf32>
  return %ys : tensor<4x64x16xf32>
}

// mhlo's pad, its sizes 32-bit, its padding value an argument: 40 rows in
// pieces of 10 padded low by 8 into pieces of 12, each device reading the
// piece before its own (320 bytes where the all_to_alls received 528).
// SHIFT-LABEL: func.func @mhlo_low8_i32(
// SHIFT: %[[FILL:.*]] = tensor.extract %arg1[] : tensor<i32>
// SHIFT: %[[PREV:.*]] = mesh.shift %arg0 on @m4 mesh_axes = [0] shift_axis = 0 offset = 1 : tensor<10x8xi32> -> tensor<10x8xi32>
// SHIFT: %[[PAD:.*]] = tensor.splat %[[FILL]] : tensor<10x8xi32>
// SHIFT: %[[P:.*]] = arith.select %{{.*}}, %[[PREV]], %[[PAD]] : tensor<10x8xi32>
// SHIFT: %[[W:.*]] = tensor.concat dim(0) %[[P]], %arg0 : (tensor<10x8xi32>, tensor<10x8xi32>) -> tensor<20x8xi32>
// SHIFT: tensor.extract_slice %[[W]][%{{.*}}, 0] [12, 8] [1, 1] : tensor<20x8xi32> to tensor<12x8xi32>
// SHIFT-NOT: mhlo.pad
func.func @mhlo_low8_i32(%x: tensor<40x8xi32>, %v: tensor<i32>) -> tensor<48x8xi32> {
  %s = mesh.sharding @m4 split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<40x8xi32>
  %y = "mhlo.pad"(%xs, %v) {edge_padding_high = dense<0> : tensor<2xi32>, edge_padding_low = dense<[8, 0]> : tensor<2xi32>, interior_padding = dense<0> : tensor<2xi32>} : (tensor<40x8xi32>, tensor<i32>) -> tensor<48x8xi32>
  %ys = mesh.shard %y to %s : tensor<48x8xi32>
  return %ys : tensor<48x8xi32>
}

// Padded by 5 and 3, the middle devices read both neighbours' pieces: two
// shifts of 320 bytes would receive more than the two all_to_alls (528), so
// the pad stays between them.
// SHIFT-LABEL: func.func @mhlo_dearer(
// SHIFT: mesh.all_to_all
// SHIFT: "mhlo.pad"
// SHIFT: mesh.all_to_all
// SHIFT-NOT: mesh.shift
// SHIFT: return
func.func @mhlo_dearer(%x: tensor<40x8xi32>, %v: tensor<i32>) -> tensor<48x8xi32> {
  %s = mesh.sharding @m4 split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<40x8xi32>
  %y = "mhlo.pad"(%xs, %v) {edge_padding_high = dense<[3, 0]> : tensor<2xi32>, edge_padding_low = dense<[5, 0]> : tensor<2xi32>, interior_padding = dense<0> : tensor<2xi32>} : (tensor<40x8xi32>, tensor<i32>) -> tensor<48x8xi32>
  %ys = mesh.shard %y to %s : tensor<48x8xi32>
  return %ys : tensor<48x8xi32>
}
