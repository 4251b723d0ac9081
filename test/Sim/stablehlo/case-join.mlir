// A stablehlo.case after attention: the branches read the projection's
// partial sum from outside, one as it is, one scaled, and the case's result
// joins them. The solver's starting passes follow edges in program order;
// a branch op's carried value must come after its branches there, or the
// scaled branch's yield looks like a loop's back edge, is left out, and the
// plan settles on the batch split over the wrong mesh axis (a gather in
// front of the projection, a reduce_scatter in each branch, and all_to_alls
// after the case: 4768 bytes by the planner's count instead of 3104). Now
// the projection keeps its batch split over the data axis and its partial
// sum is reduced over the model axis, as XLA does.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f attention_cond --seed 0 -q | FileCheck %s --check-prefix=SAME
// RUN: mesh-run %t.mlir --compare-with %s -f attention_cond --seed 1 -q | FileCheck %s --check-prefix=SAME
// RUN: mesh-run %t.mlir --compare-with %s -f attention_cond --seed 2 -q | FileCheck %s --check-prefix=SAME
// SAME: match

// CHECK-LABEL: func.func @attention_cond(
// CHECK-NOT: mesh.all_gather
// CHECK: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0, 1] reduction = <max> : tensor<f32> -> tensor<f32>
// CHECK-NOT: mesh.all_reduce
// CHECK: "stablehlo.case"
// CHECK: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [1] : tensor<2x8x32xf32> -> tensor<2x8x32xf32>
// CHECK: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [1] : tensor<2x8x32xf32> -> tensor<2x8x32xf32>
// CHECK: }) : (tensor<i32>) -> tensor<2x8x32xf32>
// CHECK-NOT: mesh.{{all_gather|all_to_all|all_reduce|reduce_scatter}}
// CHECK: return

mesh.mesh @mesh(shape = 2x4)

func.func @attention_cond(%x: tensor<4x8x32xf32>, %wq: tensor<32x32xf32>, %wo: tensor<32x32xf32>) -> tensor<4x8x32xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %cols = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
  %inner = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<4x8x32xf32>
  %wqs = mesh.shard %wq to %cols : tensor<32x32xf32>
  %wos = mesh.shard %wo to %inner : tensor<32x32xf32>
  %q = "stablehlo.dot_general"(%xs, %wqs) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>}> : (tensor<4x8x32xf32>, tensor<32x32xf32>) -> tensor<4x8x32xf32>
  %q4 = "stablehlo.reshape"(%q) : (tensor<4x8x32xf32>) -> tensor<4x8x4x8xf32>
  %s = "stablehlo.dot_general"(%q4, %q4) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 2], rhs_batching_dimensions = [0, 2], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]>}> : (tensor<4x8x4x8xf32>, tensor<4x8x4x8xf32>) -> tensor<4x4x8x8xf32>
  %o4 = "stablehlo.dot_general"(%q4, %s) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 2], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [3]>}> : (tensor<4x8x4x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
  %t = "stablehlo.transpose"(%o4) <{permutation = array<i64: 0, 3, 1, 2>}> : (tensor<4x4x8x8xf32>) -> tensor<4x8x4x8xf32>
  %o = "stablehlo.reshape"(%t) : (tensor<4x8x4x8xf32>) -> tensor<4x8x32xf32>
  %y = "stablehlo.dot_general"(%o, %wos) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>}> : (tensor<4x8x32xf32>, tensor<32x32xf32>) -> tensor<4x8x32xf32>
  %low = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
  %m = "stablehlo.reduce"(%s, %low) <{dimensions = array<i64: 0, 1, 2, 3>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%r) : (tensor<f32>) -> ()
  }) : (tensor<4x4x8x8xf32>, tensor<f32>) -> tensor<f32>
  %three = "stablehlo.constant"() <{value = dense<3.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %p = "stablehlo.compare"(%m, %three) <{comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %k = "stablehlo.convert"(%p) : (tensor<i1>) -> tensor<i32>
  %c = "stablehlo.case"(%k) ({
    "stablehlo.return"(%y) : (tensor<4x8x32xf32>) -> ()
  }, {
    %c05 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %half = "stablehlo.broadcast_in_dim"(%c05) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8x32xf32>
    %h = "stablehlo.multiply"(%y, %half) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
    "stablehlo.return"(%h) : (tensor<4x8x32xf32>) -> ()
  }) : (tensor<i32>) -> tensor<4x8x32xf32>
  %sum = "stablehlo.add"(%xs, %c) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
  %out = mesh.shard %sum to %rows : tensor<4x8x32xf32>
  return %out : tensor<4x8x32xf32>
}
