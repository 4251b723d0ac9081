// The simulator holds every op's result to the shape its type says, so a
// wrong program (here a reduce typed as 2 sums that makes 4) is named at
// the op that made the value, not where a later op or the comparison reads it.
// RUN: not mesh-run --allow-unregistered-dialect %s --function main 2>&1 | FileCheck %s
// CHECK: result-shape-check.mlir:[[@LINE+10]]:8: error: 'stablehlo.reduce' result 0 is [4] where its type says 2
// A body run on all elements at once is not held to its scalar types:
// RUN: mesh-run --allow-unregistered-dialect %s --function fine | FileCheck %s --check-prefix=FINE
// FINE: result 0: tensor<2xf32>

mesh.mesh @mesh(shape = 2)
func.func @main(%arg0: tensor<4x2xf32> {mesh.sharding = #mesh.sharding<@mesh, [[], [0]]>})
    -> (tensor<2xf32> {mesh.sharding = #mesh.sharding<@mesh, [[0]]>}) {
  %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  // sums over dimension 0 of a 4x1 piece would be 1 value; over 1, 4 values
  %1 = "stablehlo.reduce"(%arg0, %0) <{dimensions = array<i64: 1>}> ({
  ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
    %3 = "stablehlo.add"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%3) : (tensor<f32>) -> ()
  }) : (tensor<4x2xf32>, tensor<f32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}

func.func @fine(%arg0: tensor<4x2xf32>) -> tensor<2xf32> {
  %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %1 = "stablehlo.reduce"(%arg0, %0) <{dimensions = array<i64: 0>}> ({
  ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
    %3 = "stablehlo.add"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%3) : (tensor<f32>) -> ()
  }) : (tensor<4x2xf32>, tensor<f32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}
