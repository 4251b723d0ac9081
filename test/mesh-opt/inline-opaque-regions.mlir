// Upstream's inline pass aborts the process on an op of an unregistered
// dialect that has regions (it cannot tell which symbols the op uses);
// mesh-opt stops before it with an error at that op, exit 1, no abort.
// RUN: not mesh-opt --inline %s 2>&1 | FileCheck %s
// RUN: not mesh-opt --pass-pipeline='builtin.module(canonicalize, inline)' %s 2>&1 | FileCheck %s
// RUN: mesh-opt --inline %S/../Sim/partition-mlp.mlir | FileCheck %s --check-prefix=PLAIN

// CHECK: inline-opaque-regions.mlir:[[@LINE+4]]:8: error: upstream's inline pass cannot run on 'stablehlo.reduce'
// PLAIN: func.func @mlp
func.func @sum(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %zero = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %s = "stablehlo.reduce"(%x, %zero) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%t) : (tensor<f32>) -> ()
  }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}
