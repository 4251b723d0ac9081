// mesh-partition alone on select_and_scatter whose windows tile a
// dimension (pooling-gradient-tiles.mlir propagates): pieces cut by
// offsets, each device's windows covering its rows, run as they are;
// pieces that do not line up are gathered and the result sliced.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir 2>/dev/null
// RUN: FileCheck %s --check-prefix=ALONE < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f cut -q --seed 5 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f default_cuts -q --seed 6 | FileCheck %s
// CHECK: match

mesh.mesh @line(shape = 4)

// Pieces of 4, 4, 2 and 2 rows and of 2, 2, 1 and 1 windows, annotated:
// each device's windows cover its rows, so it runs on them as they are.
// ALONE-LABEL: func.func @cut(
// ALONE-NOT: mesh.all_
// ALONE: }) : (tensor<2x?x3xf32>, tensor<2x?x3xf32>, tensor<f32>) -> tensor<2x?x3xf32>
// ALONE-NOT: mesh.all_
func.func @cut(%x: tensor<2x12x3xf32>, %g: tensor<2x6x3xf32>) -> tensor<2x12x3xf32> {
  %s = mesh.sharding @line split_axes = [[], [0]] sharded_dims_offsets = [0, 4, 8, 10, 12] : !mesh.sharding
  %t = mesh.sharding @line split_axes = [[], [0]] sharded_dims_offsets = [0, 2, 4, 5, 6] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<2x12x3xf32>
  %g0 = mesh.shard %g to %t : tensor<2x6x3xf32>
  %x1 = mesh.shard %x0 to %s annotate_for_users : tensor<2x12x3xf32>
  %g1 = mesh.shard %g0 to %t annotate_for_users : tensor<2x6x3xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %y = "stablehlo.select_and_scatter"(%x1, %g1, %zero) <{padding = dense<0> : tensor<3x2xi64>, window_dimensions = array<i64: 1, 2, 1>, window_strides = array<i64: 1, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = "stablehlo.compare"(%a, %b) <{comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%p) : (tensor<f32>) -> ()
  }) : (tensor<2x12x3xf32>, tensor<2x6x3xf32>, tensor<f32>) -> tensor<2x12x3xf32>
  %y0 = mesh.shard %y to %s : tensor<2x12x3xf32>
  return %y0 : tensor<2x12x3xf32>
}

// 12 cells in pieces of 3 and 6 windows in pieces of 1, 1, 2 and 2 (each
// cut by default): a window would straddle two devices' cells.
// ALONE-LABEL: func.func @default_cuts(
// ALONE: mesh.all_gather %arg0 on @line mesh_axes = [0] gather_axis = 1 : tensor<2x3x3xf32> -> tensor<2x12x3xf32>
// ALONE: }) : (tensor<2x12x3xf32>, tensor<2x6x3xf32>, tensor<f32>) -> tensor<2x12x3xf32>
// ALONE: mesh.all_slice
func.func @default_cuts(%x: tensor<2x12x3xf32>, %g: tensor<2x6x3xf32>) -> tensor<2x12x3xf32> {
  %s = mesh.sharding @line split_axes = [[], [0]]  : !mesh.sharding
  %t = mesh.sharding @line split_axes = [[], [0]]  : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<2x12x3xf32>
  %g0 = mesh.shard %g to %t : tensor<2x6x3xf32>
  %x1 = mesh.shard %x0 to %s annotate_for_users : tensor<2x12x3xf32>
  %g1 = mesh.shard %g0 to %t annotate_for_users : tensor<2x6x3xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %y = "stablehlo.select_and_scatter"(%x1, %g1, %zero) <{padding = dense<0> : tensor<3x2xi64>, window_dimensions = array<i64: 1, 2, 1>, window_strides = array<i64: 1, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = "stablehlo.compare"(%a, %b) <{comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%p) : (tensor<f32>) -> ()
  }) : (tensor<2x12x3xf32>, tensor<2x6x3xf32>, tensor<f32>) -> tensor<2x12x3xf32>
  %y0 = mesh.shard %y to %s : tensor<2x12x3xf32>
  return %y0 : tensor<2x12x3xf32>
}
