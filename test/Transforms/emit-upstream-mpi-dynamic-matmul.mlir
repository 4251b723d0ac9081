// A contraction split over its reduced dimension, with a dynamic result
// dimension: mesh-partition sums the partial products with an all_reduce on
// tensor<2x?xf32>, which upstream's MPI conversion sizes wrongly. The
// refusal points at the annotation that asked for the replicated result.
// RUN: not mesh-opt --sharding-propagation --mesh-partition --emit=upstream-mpi %s -o %t 2>&1 | FileCheck %s
// RUN: not test -e %t
// The all_reduce mesh-partition makes:
// RUN: mesh-opt --sharding-propagation --mesh-partition %s | FileCheck %s --check-prefix=SPMD
// SPMD: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0] : tensor<2x?xf32> -> tensor<2x?xf32>

mesh.mesh @mesh(shape = 2)
func.func @f(%a: tensor<2x4xf32>, %b: tensor<4x?xf32>) -> tensor<2x?xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %s2 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %r = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %a1 = mesh.shard %a to %s : tensor<2x4xf32>
  %b1 = mesh.shard %b to %s2 : tensor<4x?xf32>
  %c1 = arith.constant 1 : index
  %n = tensor.dim %b, %c1 : tensor<4x?xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<2x?xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x?xf32>) -> tensor<2x?xf32>
  %m = linalg.matmul ins(%a1, %b1 : tensor<2x4xf32>, tensor<4x?xf32>) outs(%f : tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: emit-upstream-mpi-dynamic-matmul.mlir:[[@LINE+1]]:8: error: cannot emit upstream's shard dialect: upstream's MPI conversion sizes an all_reduce's buffer wrongly when its shape is dynamic: tensor<2x?xf32>
  %o = mesh.shard %m to %r : tensor<2x?xf32>
  return %o : tensor<2x?xf32>
}
