// A reversal of a split dimension (jnp.flip) partitions to a collective
// that gathers the dimension, the reversal, and one that splits it again.
// Device i's piece of the reversed tensor is the piece of device n - 1 - i,
// reversed: the optimizer reverses each piece where it is and trades it
// with the mirror device (a rotating mesh.shift on an axis of two devices,
// sends and receives otherwise; the middle device of an odd axis keeps its
// own).  jnp.flip of several dimensions, each split over its own axes,
// gathers each and splits each again: device i trades its reversed piece
// with the device at n - 1 - i in the row-major order over all those axes
// (the mirror along every group).  Every function is compared with the
// original.
// RUN: mesh-opt --allow-unregistered-dialect --sharding-propagation --mesh-partition %s -o %t.part.mlir
// RUN: mesh-opt --allow-unregistered-dialect --mesh-optimize-collectives %t.part.mlir -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir -f cols_over_4 --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir -f cols_over_3_i32 --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir -f rows_over_2 --compare-with %s -q --seed 3 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f hlo_2x4 --compare-with %s -q --seed 4 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir -f one_dim --compare-with %s -q --seed 5 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f hlo_rows_over_both_axes --compare-with %s -q --seed 6 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f hlo_rows_over_both_axes_minor_first --compare-with %s -q --seed 7 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f hlo_rows_and_cols --compare-with %s -q --seed 8 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f hlo_three_dims --compare-with %s -q --seed 9 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f hlo_rows_and_whole_cols --compare-with %s -q --seed 10 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f hlo_rows_and_whole_cols --compare-with %s -q --seed 11 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f hlo_rows_and_cols_through_all_to_alls --compare-with %s -q --seed 12 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f hlo_cols_over_both_axes_one_at_a_time --compare-with %s -q --seed 13 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f hlo_cols_over_both_axes_major_first --compare-with %s -q --seed 14 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f hlo_two_dims_each_over_an_axis --compare-with %s -q --seed 15 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(mesh-analysis)' %t.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BYTES
// RUN: mesh-opt --mesh-optimize-collectives=explain=true %t.part.mlir --allow-unregistered-dialect -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// MATCH: match
// REMARK: remark: a reversal between two all_to_alls became an exchange with the mirror device: 768 -> 512 bytes received per device

mesh.mesh @m4(shape = 4)
mesh.mesh @m3(shape = 3)
mesh.mesh @m2(shape = 2)
mesh.mesh @m24(shape = 2x4)
mesh.mesh @m222(shape = 2x2x2)

#flip64 = affine_map<(i, j) -> (i, 63 - j)>
#id = affine_map<(i, j) -> (i, j)>

// jnp.flip of the split columns: 512 bytes where the two all_to_alls
// received 768 (XLA's collective-permute).
// CHECK-LABEL: func.func @cols_over_4(
// CHECK-NOT: mesh.all_to_all
// CHECK: %[[E:.*]] = tensor.empty() : tensor<8x16xf32>
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[$BACK16:.*]], #{{.*}}], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<8x16xf32>) outs(%[[E]] : tensor<8x16xf32>)
// CHECK: scf.if
// CHECK: mesh.send %[[R]] on @m4 mesh_axes = [0] destination = [%{{.*}}] : (tensor<8x16xf32>, index) -> tensor<8x16xf32>
// CHECK: mesh.recv %[[R]] on @m4 mesh_axes = [0] source = [%{{.*}}] : (tensor<8x16xf32>, index) -> tensor<8x16xf32>
// CHECK-NOT: mesh.all_to_all
// CHECK-NOT: tensor<2x64xf32>
// CHECK: return
func.func @cols_over_4(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %cols = mesh.sharding @m4 split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %cols : tensor<8x64xf32>
  %e = tensor.empty() : tensor<8x64xf32>
  %y = linalg.generic {indexing_maps = [#flip64, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xs : tensor<8x64xf32>) outs(%e : tensor<8x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<8x64xf32>
  %ys = mesh.shard %y to %cols : tensor<8x64xf32>
  return %ys : tensor<8x64xf32>
}

#flip6 = affine_map<(i, j) -> (i, 5 - j)>

// Three devices: the first and last trade, the middle one reverses its own.
// CHECK-LABEL: func.func @cols_over_3_i32(
// CHECK: linalg.generic
// CHECK-SAME: ins(%arg0 : tensor<6x2xi32>)
// CHECK: mesh.send
// CHECK: mesh.recv
// CHECK-NOT: mesh.all_to_all
// CHECK: return
func.func @cols_over_3_i32(%x: tensor<6x6xi32>) -> tensor<6x6xi32> {
  %cols = mesh.sharding @m3 split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %cols : tensor<6x6xi32>
  %e = tensor.empty() : tensor<6x6xi32>
  %y = linalg.generic {indexing_maps = [#flip6, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xs : tensor<6x6xi32>) outs(%e : tensor<6x6xi32>) {
  ^bb0(%a: i32, %o: i32):
    linalg.yield %a : i32
  } -> tensor<6x6xi32>
  %ys = mesh.shard %y to %cols : tensor<6x6xi32>
  return %ys : tensor<6x6xi32>
}

#flip8rows = affine_map<(i, j) -> (7 - i, j)>

// Two devices: one rotation instead of two all_to_alls (the same bytes).
// CHECK-LABEL: func.func @rows_over_2(
// CHECK: %[[R:.*]] = linalg.generic
// CHECK-SAME: ins(%arg0 : tensor<4x6xf32>)
// CHECK: mesh.shift %[[R]] on @m2 mesh_axes = [0] shift_axis = 0 offset = 1 rotate : tensor<4x6xf32> -> tensor<4x6xf32>
// CHECK-NOT: mesh.all_to_all
func.func @rows_over_2(%x: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %rows = mesh.sharding @m2 split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<8x6xf32>
  %e = tensor.empty() : tensor<8x6xf32>
  %y = linalg.generic {indexing_maps = [#flip8rows, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xs : tensor<8x6xf32>) outs(%e : tensor<8x6xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<8x6xf32>
  %ys = mesh.shard %y to %rows : tensor<8x6xf32>
  return %ys : tensor<8x6xf32>
}

// stablehlo's reverse (JAX's jnp.flip) on a 2x4 mesh, the columns over
// the axis of 4.
// CHECK-LABEL: func.func @hlo_2x4(
// CHECK: "stablehlo.reverse"(%arg0) <{dimensions = array<i64: 1>}> : (tensor<2x16xf32>) -> tensor<2x16xf32>
// CHECK: mesh.send
// CHECK-NOT: mesh.all_to_all
// CHECK: return
func.func @hlo_2x4(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %s = mesh.sharding @m24 split_axes = [[0], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x64xf32>
  %y = "stablehlo.reverse"(%xs) <{dimensions = array<i64: 1>}> : (tensor<4x64xf32>) -> tensor<4x64xf32>
  %ys = mesh.shard %y to %s : tensor<4x64xf32>
  return %ys : tensor<4x64xf32>
}

#flip1 = affine_map<(i) -> (15 - i)>
#id1 = affine_map<(i) -> (i)>

// A tensor of one dimension: an all_gather and an all_slice around the
// reversal (48 bytes gathered, 16 exchanged).
// CHECK-LABEL: func.func @one_dim(
// CHECK: linalg.generic
// CHECK-SAME: ins(%arg0 : tensor<4xf32>)
// CHECK: mesh.send
// CHECK-NOT: mesh.all_gather
// CHECK-NOT: mesh.all_slice
// CHECK: return
func.func @one_dim(%x: tensor<16xf32>) -> tensor<16xf32> {
  %s = mesh.sharding @m4 split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<16xf32>
  %e = tensor.empty() : tensor<16xf32>
  %y = linalg.generic {indexing_maps = [#flip1, #id1], iterator_types = ["parallel"]}
      ins(%xs : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<16xf32>
  %ys = mesh.shard %y to %s : tensor<16xf32>
  return %ys : tensor<16xf32>
}

// Rows split over both axes of the 2x4 mesh (an axis tuple), in either
// order: the mirror of group index i is 7 - i in that order, one block
// each (128 bytes, XLA's collective-permute), where two all_to_alls
// received 224.
// CHECK-LABEL: func.func @hlo_rows_over_both_axes(
// CHECK-NOT: mesh.all_to_all
// CHECK: "stablehlo.reverse"(%arg0)
// CHECK: mesh.send %{{.*}} on @m24 mesh_axes = [0, 1] destination = [%{{.*}}, %{{.*}}] : (tensor<1x32xf32>, index, index)
// CHECK: mesh.recv %{{.*}} on @m24 mesh_axes = [0, 1] source = [%{{.*}}, %{{.*}}] : (tensor<1x32xf32>, index, index)
// CHECK-NOT: mesh.all_to_all
// CHECK: return
func.func @hlo_rows_over_both_axes(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %rows = mesh.sharding @m24 split_axes = [[0, 1]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<8x32xf32>
  %y = "stablehlo.reverse"(%xs) <{dimensions = array<i64: 0>}> : (tensor<8x32xf32>) -> tensor<8x32xf32>
  %ys = mesh.shard %y to %rows : tensor<8x32xf32>
  return %ys : tensor<8x32xf32>
}

// CHECK-LABEL: func.func @hlo_rows_over_both_axes_minor_first(
// CHECK-NOT: mesh.all_to_all
// CHECK: mesh.send %{{.*}} on @m24 mesh_axes = [1, 0]
// CHECK-NOT: mesh.all_to_all
// CHECK: return
func.func @hlo_rows_over_both_axes_minor_first(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %rows = mesh.sharding @m24 split_axes = [[1, 0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<8x32xf32>
  %y = "stablehlo.reverse"(%xs) <{dimensions = array<i64: 0>}> : (tensor<8x32xf32>) -> tensor<8x32xf32>
  %ys = mesh.shard %y to %rows : tensor<8x32xf32>
  return %ys : tensor<8x32xf32>
}

// jnp.flip of an image split along its rows (axis 0) and columns (axis 1):
// one block each, 128 bytes, where the two all_gathers received 896.
// CHECK-LABEL: func.func @hlo_rows_and_cols(
// CHECK-NOT: mesh.all_
// CHECK: "stablehlo.reverse"(%arg0) <{dimensions = array<i64: 0, 1>}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: mesh.send %{{.*}} on @m24 mesh_axes = [0, 1] destination = [%{{.*}}, %{{.*}}] : (tensor<4x8xf32>, index, index)
// CHECK-NOT: mesh.all_
// CHECK: return
func.func @hlo_rows_and_cols(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %s = mesh.sharding @m24 split_axes = [[0], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<8x32xf32>
  %y = "stablehlo.reverse"(%xs) <{dimensions = array<i64: 0, 1>}> : (tensor<8x32xf32>) -> tensor<8x32xf32>
  %ys = mesh.shard %y to %s : tensor<8x32xf32>
  return %ys : tensor<8x32xf32>
}

// Three dimensions, the last split over two axes minor first, the first
// over the third: the order is the dimensions', each group's axes as listed.
// CHECK-LABEL: func.func @hlo_three_dims(
// CHECK-NOT: mesh.all_
// CHECK: mesh.send %{{.*}} on @m222 mesh_axes = [2, 1, 0] destination = [%{{.*}}, %{{.*}}, %{{.*}}] : (tensor<2x3x2xi32>, index, index, index)
// CHECK-NOT: mesh.all_
// CHECK: return
func.func @hlo_three_dims(%x: tensor<4x3x8xi32>) -> tensor<4x3x8xi32> {
  %s = mesh.sharding @m222 split_axes = [[2], [], [1, 0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x3x8xi32>
  %y = "stablehlo.reverse"(%xs) <{dimensions = array<i64: 0, 1, 2>}> : (tensor<4x3x8xi32>) -> tensor<4x3x8xi32>
  %ys = mesh.shard %y to %s : tensor<4x3x8xi32>
  return %ys : tensor<4x3x8xi32>
}

// jnp.flip(x) of a tensor split along its rows alone reverses the columns
// too: they reverse in place, beside the rows' exchange (128 bytes, as
// XLA's collective-permute; the all_gather received 384).
// CHECK-LABEL: func.func @hlo_rows_and_whole_cols(
// CHECK-NOT: mesh.all_
// CHECK: "stablehlo.reverse"(%arg0) <{dimensions = array<i64: 0, 1>}> : (tensor<2x16xf32>) -> tensor<2x16xf32>
// CHECK: mesh.send %{{.*}} on @m24 mesh_axes = [1] destination = [%{{.*}}] : (tensor<2x16xf32>, index)
// CHECK-NOT: mesh.all_
// CHECK: return
// BYTES-LABEL: @hlo_rows_and_whole_cols
// BYTES: max {{.*}} 128
func.func @hlo_rows_and_whole_cols(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = mesh.sharding @m24 split_axes = [[1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<8x16xf32>
  %y = "stablehlo.reverse"(%xs) <{dimensions = array<i64: 0, 1>}> : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %ys = mesh.shard %y to %s : tensor<8x16xf32>
  return %ys : tensor<8x16xf32>
}

// Rows split over the axis of 4 and reversed with the columns, the rows
// moved onto the last dimension and back by all_to_alls: the columns too
// reverse in each device's piece as it is (256 bytes, where the two
// all_to_alls received 384).
// CHECK-LABEL: func.func @hlo_rows_and_cols_through_all_to_alls(
// CHECK-NOT: mesh.all_
// CHECK: "stablehlo.reverse"(%arg0) <{dimensions = array<i64: 0, 1>}> : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
// CHECK: mesh.send %{{.*}} on @m24 mesh_axes = [1] destination = [%{{.*}}] : (tensor<2x4x8xf32>, index)
// CHECK-NOT: mesh.all_
// CHECK: return
// BYTES-LABEL: @hlo_rows_and_cols_through_all_to_alls
// BYTES: max {{.*}} 256
func.func @hlo_rows_and_cols_through_all_to_alls(%x: tensor<8x4x8xf32>) -> tensor<8x4x8xf32> {
  %s = mesh.sharding @m24 split_axes = [[1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<8x4x8xf32>
  %y = "stablehlo.reverse"(%xs) <{dimensions = array<i64: 0, 1>}> : (tensor<8x4x8xf32>) -> tensor<8x4x8xf32>
  %ys = mesh.shard %y to %s : tensor<8x4x8xf32>
  return %ys : tensor<8x4x8xf32>
}

// jnp.flip of columns split over the axes (1, 0) with 4 rows, which the 8
// devices do not divide: partition gathers axis 0 (an all_gather), trades
// the columns for the rows over axis 1 (an all_to_all), reverses, and
// undoes both.  One exchange with the mirror device in the order (1, 0)
// takes all four collectives (128 bytes, as XLA's collective-permute,
// where they received 512).
// CHECK-LABEL: func.func @hlo_cols_over_both_axes_one_at_a_time(
// CHECK-NOT: mesh.all_
// CHECK: "stablehlo.reverse"(%arg0) <{dimensions = array<i64: 1>}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: mesh.send %{{.*}} on @m24 mesh_axes = [1, 0] destination = [%{{.*}}, %{{.*}}] : (tensor<4x8xf32>, index, index)
// CHECK-NOT: mesh.all_
// CHECK: return
func.func @hlo_cols_over_both_axes_one_at_a_time(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %s = mesh.sharding @m24 split_axes = [[], [1, 0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x64xf32>
  %y = "stablehlo.reverse"(%xs) <{dimensions = array<i64: 1>}> : (tensor<4x64xf32>) -> tensor<4x64xf32>
  %ys = mesh.shard %y to %s : tensor<4x64xf32>
  return %ys : tensor<4x64xf32>
}

// The same over the axes (0, 1): propagation reverses rows split over
// axis 1 alone, which one all_to_all trades for the columns' inner axis
// (gathering all 8 pieces of the rows would need a permutation first),
// so partition trades over axis 1, gathers over axis 0, and undoes both:
// again one exchange, in the order (0, 1).
// CHECK-LABEL: func.func @hlo_cols_over_both_axes_major_first(
// CHECK-NOT: mesh.all_
// CHECK: "stablehlo.reverse"(%arg0) <{dimensions = array<i64: 1>}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: mesh.send %{{.*}} on @m24 mesh_axes = [0, 1] destination = [%{{.*}}, %{{.*}}] : (tensor<4x8xf32>, index, index)
// CHECK-NOT: mesh.all_
// CHECK: return
func.func @hlo_cols_over_both_axes_major_first(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %s = mesh.sharding @m24 split_axes = [[], [0, 1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x64xf32>
  %y = "stablehlo.reverse"(%xs) <{dimensions = array<i64: 1>}> : (tensor<4x64xf32>) -> tensor<4x64xf32>
  %ys = mesh.shard %y to %s : tensor<4x64xf32>
  return %ys : tensor<4x64xf32>
}

// Two reversed dimensions, each over one axis: their axes are no tuple, so
// propagation moves none of them alone to the other dimension; the two
// all_gathers go with one exchange (256 bytes; 640 when only axis 1 moved
// to the rows).
// CHECK-LABEL: func.func @hlo_two_dims_each_over_an_axis(
// CHECK-NOT: mesh.all_
// CHECK: mesh.send %{{.*}} on @m24 mesh_axes = [0, 1] destination = [%{{.*}}, %{{.*}}] : (tensor<4x4x4xf32>, index, index)
// CHECK-NOT: mesh.all_
// CHECK: return
func.func @hlo_two_dims_each_over_an_axis(%x: tensor<4x8x16xf32>) -> tensor<4x8x16xf32> {
  %s = mesh.sharding @m24 split_axes = [[], [0], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x8x16xf32>
  %y = "stablehlo.reverse"(%xs) <{dimensions = array<i64: 1, 2>}> : (tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %ys = mesh.shard %y to %s : tensor<4x8x16xf32>
  return %ys : tensor<4x8x16xf32>
}
