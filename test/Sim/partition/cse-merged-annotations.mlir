// Upstream cse merges two equal constants that carry different result
// annotations; the merged value then has two result annotations.  The
// verifier accepts that, as upstream's does, and partition gives each
// annotation's users their layout (a splat is rebuilt in each layout, with
// no communication).
// RUN: mesh-opt --pass-pipeline='builtin.module(func.func(cse),sharding-propagation,mesh-partition)' %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 3 | FileCheck %s
// CHECK: result 0: max error 0
// CHECK-NEXT: result 1: max error 0
// CHECK-NEXT: match
// IR: %[[C0:.*]] = arith.constant dense<3.000000e+00> : tensor<2x8xf32>
// IR-NEXT: %[[C1:.*]] = arith.constant dense<3.000000e+00> : tensor<4x4xf32>
// IR-NEXT: arith.mulf %[[C0]], %arg0 : tensor<2x8xf32>
// IR-NEXT: arith.addf %[[C1]], %arg1 : tensor<4x4xf32>

mesh.mesh @mesh(shape = 2)
func.func @f(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %t = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %c1 = arith.constant dense<3.0> : tensor<4x8xf32>
  %c1s = mesh.shard %c1 to %s : tensor<4x8xf32>
  %c2 = arith.constant dense<3.0> : tensor<4x8xf32>
  %c2s = mesh.shard %c2 to %t : tensor<4x8xf32>
  %x = arith.mulf %c1s, %a : tensor<4x8xf32>
  %y = arith.addf %c2s, %b : tensor<4x8xf32>
  return %x, %y : tensor<4x8xf32>, tensor<4x8xf32>
}
