// Layouts that differ only by a mesh axis of size 1 hold the same data, but
// each needs its own value to carry its name.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q | FileCheck %s
// CHECK: match

mesh.mesh @mesh(shape = 2x1)
func.func @x(%a: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %t = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %a0 = mesh.shard %a to %s : tensor<4x4xf32>
  %a1 = mesh.shard %a0 to %t annotate_for_users : tensor<4x4xf32>
  %b = arith.addf %a1, %a1 : tensor<4x4xf32>
  %c = arith.mulf %a0, %a0 : tensor<4x4xf32>
  return %b, %c : tensor<4x4xf32>, tensor<4x4xf32>
}
