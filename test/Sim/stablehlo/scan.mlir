// A prefix scan (`jnp.cumsum`, `cumprod`, `lax.cummax`: a reduce_window as
// long as the dimension, padded in front by all but one cell, its init the
// combiner's identity) keeps a split dimension split: each device scans
// its own piece, one all_gather brings every device's last row (its
// piece's total), and each device combines the totals of the pieces before
// its own (a slice of the gathered rows, reduced) into every row.  A suffix scan (`reverse=True`: padded behind)
// takes the first rows and the pieces after.  A device receives one row
// from each other device of the group, where gathering the dimension
// received the whole pieces.  Each function is run against the original.
// RUN: mesh-opt --allow-unregistered-dialect --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f cumsum_rows --compare-with %s --seed 1 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f reverse_cumsum_two_axes --compare-with %s --seed 2 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f cummax_i32 --compare-with %s --seed 3 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f mhlo_cumprod --compare-with %s --seed 4 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f not_identity --compare-with %s --seed 5 -q | FileCheck %s --check-prefix=SIM
// RUN: %python -c "import numpy as np; np.save('%t.x.npy', np.random.default_rng(6).integers(-9, 9, (5, 6)).astype(np.int32))"
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f dynamic_batch -i %t.x.npy --compare-with %s -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-opt --allow-unregistered-dialect --mesh-partition %s -o %t.alone.mlir
// RUN: FileCheck %s --input-file=%t.alone.mlir --check-prefix=ALONE
// RUN: mesh-run --allow-unregistered-dialect %t.alone.mlir -f uneven_columns --compare-with %s --seed 7 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.alone.mlir -f one_device_axis --compare-with %s --seed 8 -q | FileCheck %s --check-prefix=SIM
// SIM: match

mesh.mesh @m4(shape = 4)
mesh.mesh @m22(shape = 2x2)
mesh.mesh @m2(shape = 2)
mesh.mesh @m23(shape = 2x3)
mesh.mesh @m41(shape = 4x1)

// 16 columns over 4, the rows over nothing: each device receives 3 of the
// others' last columns (8x1 each: 96 bytes, where gathering the 8x4
// pieces received 384).
// CHECK-LABEL: func.func @cumsum_rows(
// CHECK: %[[MINE:.*]] = "stablehlo.reduce_window"(%arg0, %{{.*}})
// CHECK: }) : (tensor<8x4xf32>, tensor<f32>) -> tensor<8x4xf32>
// CHECK: %[[ME:.*]] = mesh.process_multi_index on @m4 axes = [0] : index
// CHECK: %[[LAST:.*]] = tensor.extract_slice %[[MINE]][0, 3] [8, 1] [1, 1] : tensor<8x4xf32> to tensor<8x1xf32>
// CHECK: %[[TOTALS:.*]] = mesh.all_gather %[[LAST]] on @m4 mesh_axes = [0] gather_axis = 1 : tensor<8x1xf32> -> tensor<8x4xf32>
// CHECK: %[[BEFORE:.*]] = tensor.extract_slice %[[TOTALS]][0, 0] [8, %[[ME]]] [1, 1] : tensor<8x4xf32> to tensor<8x?xf32>
// CHECK: %[[SUM:.*]] = "stablehlo.reduce"(%[[BEFORE]], %{{.*}})
// CHECK: {dimensions = array<i64: 1>} : (tensor<8x?xf32>, tensor<f32>) -> tensor<8xf32>
// CHECK: %[[ROW:.*]] = "stablehlo.broadcast_in_dim"(%[[SUM]]) {broadcast_dimensions = array<i64: 0>} : (tensor<8xf32>) -> tensor<8x4xf32>
// CHECK: %[[DONE:.*]] = "stablehlo.add"(%[[MINE]], %[[ROW]]) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK: return %[[DONE]]
func.func @cumsum_rows(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = mesh.sharding @m4 split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<8x16xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %y = "stablehlo.reduce_window"(%xs, %zero) <{padding = dense<[[0, 0], [15, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 16>, window_strides = array<i64: 1, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%c) : (tensor<f32>) -> ()
  }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
  %ys = mesh.shard %y to %s : tensor<8x16xf32>
  return %ys : tensor<8x16xf32>
}

// A suffix scan of rows split over both axes of a 2x2 mesh: the first rows
// of the pieces after this device's.
// CHECK-LABEL: func.func @reverse_cumsum_two_axes(
// CHECK: %[[LAST:.*]] = tensor.extract_slice %{{.*}}[0, 0] [1, 6] [1, 1] : tensor<3x6xf32> to tensor<1x6xf32>
// CHECK: %[[TOTALS:.*]] = mesh.all_gather %[[LAST]] on @m22 mesh_axes = [0, 1] gather_axis = 0 : tensor<1x6xf32> -> tensor<4x6xf32>
// CHECK: tensor.extract_slice %[[TOTALS]][%{{.*}}, 0] [%{{.*}}, 6] [1, 1] : tensor<4x6xf32> to tensor<?x6xf32>
func.func @reverse_cumsum_two_axes(%x: tensor<12x6xf32>) -> tensor<12x6xf32> {
  %s = mesh.sharding @m22 split_axes = [[0, 1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<12x6xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %y = "stablehlo.reduce_window"(%xs, %zero) <{padding = dense<[[0, 11], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 12, 1>, window_strides = array<i64: 1, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%c) : (tensor<f32>) -> ()
  }) : (tensor<12x6xf32>, tensor<f32>) -> tensor<12x6xf32>
  %ys = mesh.shard %y to %s : tensor<12x6xf32>
  return %ys : tensor<12x6xf32>
}

// lax.cummax of i32 (its identity the least i32) along the sequence of a
// batch split over the other axis.
// CHECK-LABEL: func.func @cummax_i32(
// CHECK: mesh.all_gather %{{.*}} on @m22 mesh_axes = [1] gather_axis = 1 : tensor<2x1xi32> -> tensor<2x2xi32>
// CHECK: "stablehlo.maximum"(%{{.*}}, %{{.*}}) : (tensor<2x5xi32>, tensor<2x5xi32>) -> tensor<2x5xi32>
func.func @cummax_i32(%x: tensor<4x10xi32>) -> tensor<4x10xi32> {
  %s = mesh.sharding @m22 split_axes = [[0], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x10xi32>
  %least = "stablehlo.constant"() <{value = dense<-2147483648> : tensor<i32>}> : () -> tensor<i32>
  %y = "stablehlo.reduce_window"(%xs, %least) <{padding = dense<[[0, 0], [9, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 10>, window_strides = array<i64: 1, 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %c = "stablehlo.maximum"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%c) : (tensor<i32>) -> ()
  }) : (tensor<4x10xi32>, tensor<i32>) -> tensor<4x10xi32>
  %ys = mesh.shard %y to %s : tensor<4x10xi32>
  return %ys : tensor<4x10xi32>
}

// mhlo's reduce_window, its attributes dense elements: a cumprod.
// CHECK-LABEL: func.func @mhlo_cumprod(
// CHECK: mesh.all_gather
// CHECK: "mhlo.reduce"
// CHECK: {dimensions = dense<0> : tensor<1xi64>}
// CHECK: "mhlo.broadcast_in_dim"(%{{.*}}) {broadcast_dimensions = dense<> : tensor<0xi64>} : (tensor<f32>) -> tensor<2xf32>
// CHECK: "mhlo.multiply"
func.func @mhlo_cumprod(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @m4 split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<8xf32>
  %one = "mhlo.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %y = "mhlo.reduce_window"(%xs, %one) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = "mhlo.multiply"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "mhlo.return"(%c) : (tensor<f32>) -> ()
  }) {padding = dense<[[7, 0]]> : tensor<1x2xi64>, window_dimensions = dense<8> : tensor<1xi64>, window_strides = dense<1> : tensor<1xi64>} : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %ys = mesh.shard %y to %s : tensor<8xf32>
  return %ys : tensor<8xf32>
}

// An init other than the identity is folded in once per window: not a
// scan of the pieces (the window reads the dimension whole, as before).
// CHECK-LABEL: func.func @not_identity(
// CHECK-NOT: stablehlo.reduce"
// CHECK: return
func.func @not_identity(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @m4 split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<8xf32>
  %two = "stablehlo.constant"() <{value = dense<2.0> : tensor<f32>}> : () -> tensor<f32>
  %y = "stablehlo.reduce_window"(%xs, %two) <{padding = dense<[[7, 0]]> : tensor<1x2xi64>, window_dimensions = array<i64: 8>, window_strides = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%c) : (tensor<f32>) -> ()
  }) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %ys = mesh.shard %y to %s : tensor<8xf32>
  return %ys : tensor<8xf32>
}

// A dimension of dynamic size beside the scanned one: the totals' row
// would take its size from the piece's type, so the loop is no scan (the
// window reads the dimension whole, as before).  Partition refused the
// split propagation chose.
// CHECK-LABEL: func.func @dynamic_batch(
// CHECK-NOT: stablehlo.reduce"
// CHECK: return
func.func @dynamic_batch(%x: tensor<?x6xi32>) -> tensor<?x6xi32> {
  %s = mesh.sharding @m2 split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<?x6xi32>
  %zero = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %y = "stablehlo.reduce_window"(%xs, %zero) <{padding = dense<[[0, 0], [5, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 6>, window_strides = array<i64: 1, 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %c = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%c) : (tensor<i32>) -> ()
  }) : (tensor<?x6xi32>, tensor<i32>) -> tensor<?x6xi32>
  %ys = mesh.shard %y to %s : tensor<?x6xi32>
  return %ys : tensor<?x6xi32>
}

// Partition alone, the result annotated by hand: the scanned rows split
// evenly over 2, the other dimension (4 columns over 3) into pieces of 2,
// 1 and 1, which only the gathered totals' type carries.
// ALONE-LABEL: func.func @uneven_columns(
// ALONE: mesh.all_gather %{{.*}} on @m23 mesh_axes = [0] gather_axis = 0 : tensor<1x?xi32> -> tensor<2x?xi32>
// ALONE: "stablehlo.add"(%{{.*}}, %{{.*}}) : (tensor<3x?xi32>, tensor<3x?xi32>) -> tensor<3x?xi32>
func.func @uneven_columns(%x: tensor<6x4xi32>) -> tensor<6x4xi32> {
  %r = mesh.sharding @m23 split_axes = [[]] : !mesh.sharding
  %s = mesh.sharding @m23 split_axes = [[0], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %r : tensor<6x4xi32>
  %zero = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %y = "stablehlo.reduce_window"(%xs, %zero) <{padding = dense<[[5, 0], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 6, 1>, window_strides = array<i64: 1, 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %c = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%c) : (tensor<i32>) -> ()
  }) : (tensor<6x4xi32>, tensor<i32>) -> tensor<6x4xi32>
  %ys = mesh.shard %y to %s : tensor<6x4xi32>
  return %ys : tensor<6x4xi32>
}

// The scanned dimension split over an axis of one device (one piece: the
// whole scan), the other over 4 unevenly: nothing to add.
// ALONE-LABEL: func.func @one_device_axis(
// ALONE-NOT: mesh.all_gather
// ALONE: return
func.func @one_device_axis(%x: tensor<2x9xi32>) -> tensor<2x9xi32> {
  %s = mesh.sharding @m41 split_axes = [[1], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<2x9xi32>
  %zero = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %y = "stablehlo.reduce_window"(%xs, %zero) <{padding = dense<[[1, 0], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 1, 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %c = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%c) : (tensor<i32>) -> ()
  }) : (tensor<2x9xi32>, tensor<i32>) -> tensor<2x9xi32>
  %ys = mesh.shard %y to %s : tensor<2x9xi32>
  return %ys : tensor<2x9xi32>
}
