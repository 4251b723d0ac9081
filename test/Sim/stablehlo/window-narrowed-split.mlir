// An op that cannot run in the layout its operand arrives in, because one
// split dimension would be cut unevenly where the op needs even pieces,
// still runs split: the cost solver tries each refused layout with only the
// loops the op can split on their own, and with the other loops' mesh axes
// moved to a loop beside them (one all_to_all instead of a gather).
// Before, it ran whole, gathering every dimension.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir 2>/dev/null
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f pool -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f pool_columns -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f small_batch -q --seed 3 | FileCheck %s
// CHECK: match

mesh.mesh @mesh(shape = 2x4)

// Average pooling, 3x3 windows of stride 2 without padding: 16 rows make 7
// outputs, which 4 devices do not cut evenly.  The rows' axis 1 moves to
// the batch, beside axis 0 (one all_to_all: 6,144 bytes a device, where
// gathering the whole images took 57,344), and the outputs move back to
// the rows the result's annotation asks for.
// IR-LABEL: func.func @pool(
// IR: mesh.all_to_all %{{.*}} on @mesh mesh_axes = [1] split_axis = 0 concat_axis = 1 : tensor<4x4x16x8xf32> -> tensor<1x16x16x8xf32>
// IR-NOT: mesh.all_gather
// IR: }) : (tensor<1x16x16x8xf32>, tensor<f32>) -> tensor<1x7x7x8xf32>
// IR: mesh.all_to_all %{{.*}} on @mesh mesh_axes = [1] split_axis = 1 concat_axis = 0 : tensor<1x8x7x8xf32> -> tensor<4x2x7x8xf32>
// IR-NOT: mesh.all_gather
// IR: return %{{.*}} : tensor<4x?x7x8xf32>
func.func @pool(%x: tensor<8x16x16x8xf32>) -> tensor<8x7x7x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %x0 = mesh.shard %x to %s annotate_for_users : tensor<8x16x16x8xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %y = "stablehlo.reduce_window"(%x0, %zero) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%c) : (tensor<f32>) -> ()
  }) : (tensor<8x16x16x8xf32>, tensor<f32>) -> tensor<8x7x7x8xf32>
  %y0 = mesh.shard %y to %s annotate_for_users : tensor<8x7x7x8xf32>
  return %y0 : tensor<8x7x7x8xf32>
}

// Max pooling with the 9 columns over axis 1 (cut unevenly, 4 outputs) and
// the channels over axis 0: the columns' axis moves to the channels (one
// cell wide, they split as they are).
// IR-LABEL: func.func @pool_columns(
// IR: mesh.all_to_all %{{.*}} on @mesh mesh_axes = [1] split_axis = 3 concat_axis = 2 : tensor<2x9x3x4xf32> -> tensor<2x9x12x1xf32>
// IR-NOT: mesh.all_gather
// IR: }) : (tensor<2x9x9x1xf32>, tensor<f32>) -> tensor<2x4x4x1xf32>
// IR: return %{{.*}} : tensor<2x4x4x1xf32>
func.func @pool_columns(%x: tensor<2x9x9x8xf32>) -> tensor<2x4x4x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [], [1], [0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s annotate_for_users : tensor<2x9x9x8xf32>
  %low = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
  %y = "stablehlo.reduce_window"(%x0, %low) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%c) : (tensor<f32>) -> ()
  }) : (tensor<2x9x9x8xf32>, tensor<f32>) -> tensor<2x4x4x8xf32>
  return %y : tensor<2x4x4x8xf32>
}

// A batch of 2 and 3 channels take no more axes: the batch stays split over
// axis 0 and only the rows are gathered over axis 1.
// IR-LABEL: func.func @small_batch(
// IR: mesh.all_gather %{{.*}} on @mesh mesh_axes = [1] gather_axis = 1 : tensor<1x4x16x3xf32> -> tensor<1x16x16x3xf32>
// IR-NOT: mesh.all_gather
// IR: }) : (tensor<1x16x16x3xf32>, tensor<f32>) -> tensor<1x7x7x3xf32>
// IR: return %{{.*}} : tensor<1x7x7x3xf32>
func.func @small_batch(%x: tensor<2x16x16x3xf32>) -> tensor<2x7x7x3xf32> {
  %s = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %x0 = mesh.shard %x to %s annotate_for_users : tensor<2x16x16x3xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %y = "stablehlo.reduce_window"(%x0, %zero) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%c) : (tensor<f32>) -> ()
  }) : (tensor<2x16x16x3xf32>, tensor<f32>) -> tensor<2x7x7x3xf32>
  return %y : tensor<2x7x7x3xf32>
}
