// The four annotation forms the reference page calls undefined, which the
// verifier accepts (test/Dialect/Mesh/annotation-chains.mlir): a later
// annotation that differs is a change of layout.  Every pipeline must give a
// program that computes the original's results.
// RUN: mesh-opt --mesh-partition %s -o %t.p.mlir 2>/dev/null
// RUN: mesh-run %t.p.mlir --compare-with %s -q --seed 4 | FileCheck %s
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.sp.mlir 2>/dev/null
// RUN: mesh-run %t.sp.mlir --compare-with %s -q --seed 5 | FileCheck %s
// RUN: mesh-opt --pass-pipeline='builtin.module(sharding-propagation{traversal=forward},mesh-partition)' %s -o %t.f.mlir 2>/dev/null
// RUN: mesh-run %t.f.mlir --compare-with %s -q --seed 6 | FileCheck %s
// RUN: mesh-opt --pass-pipeline='builtin.module(func.func(cse,canonicalize),sharding-propagation,mesh-partition)' %s -o %t.c.mlir 2>/dev/null
// RUN: mesh-run %t.c.mlir --compare-with %s -q --seed 7 | FileCheck %s
// CHECK-COUNT-5: max error 0
// CHECK-NEXT: match

mesh.mesh @mesh0(shape = 2x2)
func.func @f(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %s0 = mesh.sharding @mesh0 split_axes = [[0]] : !mesh.sharding
  %s1 = mesh.sharding @mesh0 split_axes = [[1]] : !mesh.sharding
  %s2 = mesh.sharding @mesh0 split_axes = [[], [0, 1]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<4x8xf32>
  %1 = mesh.shard %0 to %s1 : tensor<4x8xf32>
  %2 = mesh.shard %arg0 to %s2 : tensor<4x8xf32>
  %3 = mesh.shard %arg1 to %s0 annotate_for_users : tensor<4x8xf32>
  %4 = mesh.shard %3 to %s1 annotate_for_users : tensor<4x8xf32>
  %5 = mesh.shard %3 to %s2 : tensor<4x8xf32>
  %a = arith.addf %0, %0 : tensor<4x8xf32>
  %b = arith.mulf %1, %1 : tensor<4x8xf32>
  %c = arith.subf %2, %0 : tensor<4x8xf32>
  %d = arith.addf %4, %3 : tensor<4x8xf32>
  %e = arith.mulf %5, %3 : tensor<4x8xf32>
  return %a, %b, %c, %d, %e : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}
