// An argmin-style reduce (two inputs, a general body) whose kept dimension,
// of size 2, is split over a mesh axis of 4: two devices hold an empty piece
// (2x0).  The simulator folds such a piece to an empty result instead of
// failing to reshape it.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 2 | FileCheck %s
// IR: "stablehlo.reduce"({{.*}}) <{dimensions = array<i64: 0>}>
// IR: : (tensor<2x?xf32>, tensor<2x?xi32>, tensor<f32>, tensor<i32>) -> (tensor<?xf32>, tensor<?xi32>)
// CHECK: result 0: max error 0
// CHECK: result 1: max error 0
// CHECK: match

mesh.mesh @mesh(shape = 4)
func.func @argmin(%x: tensor<2x2xf32>) -> (tensor<2xf32>, tensor<2xi32>) {
  %cols = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %cols annotate_for_users : tensor<2x2xf32>
  %iota = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<2x2xi32>
  %is = mesh.shard %iota to %cols annotate_for_users : tensor<2x2xi32>
  %inf = "stablehlo.constant"() <{value = dense<0x7F800000> : tensor<f32>}> : () -> tensor<f32>
  %zero = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %r:2 = "stablehlo.reduce"(%xs, %is, %inf, %zero) <{dimensions = array<i64: 0>}> ({
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %lt = "stablehlo.compare"(%a, %b) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = "stablehlo.select"(%lt, %a, %b) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %i = "stablehlo.select"(%lt, %ai, %bi) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%v, %i) : (tensor<f32>, tensor<i32>) -> ()
  }) : (tensor<2x2xf32>, tensor<2x2xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %v1 = mesh.shard %r#0 to %rows : tensor<2xf32>
  %i1 = mesh.shard %r#1 to %rows : tensor<2xi32>
  return %v1, %i1 : tensor<2xf32>, tensor<2xi32>
}
