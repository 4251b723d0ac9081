// An all_reduce on a tensor with a `?` dimension: upstream's
// --convert-shard-to-mpi sizes its buffer with `memref.dim` of index
// kDynamic, so the MPI program reduces a buffer of the wrong shape.
// --emit=upstream-mpi refuses it at the op (mesh-partition makes such an
// all_reduce from a split contraction over a dynamic dimension: see
// emit-upstream-mpi-dynamic-matmul.mlir).
// RUN: not mesh-opt --split-input-file --emit=upstream-mpi %s -o %t 2>&1 | FileCheck %s
// RUN: not test -e %t
// --emit=upstream still writes it (upstream can spell it):
// RUN: mesh-opt --split-input-file --emit=upstream %s | FileCheck %s --check-prefix=SPELLED

mesh.mesh @mesh(shape = 2)
func.func @operand(%x: tensor<2x?xf32>) -> tensor<2x?xf32> {
  // CHECK: emit-upstream-mpi-dynamic-shape.mlir:[[@LINE+1]]:8: error: cannot emit upstream's shard dialect: upstream's MPI conversion sizes an all_reduce's buffer wrongly when its shape is dynamic: tensor<2x?xf32>
  %0 = mesh.all_reduce %x on @mesh mesh_axes = [0] : tensor<2x?xf32> -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}
// SPELLED: shard.all_reduce %arg0 on @mesh grid_axes = [0] : tensor<2x?xf32> -> tensor<2x?xf32>

// -----

mesh.mesh @mesh(shape = 2x2)
func.func @integers(%x: tensor<?xi32>) -> tensor<?xi64> {
  // CHECK: emit-upstream-mpi-dynamic-shape.mlir:[[@LINE+1]]:8: error: {{.*}} wrongly when its shape is dynamic: tensor<?xi32>
  %0 = mesh.all_reduce %x on @mesh mesh_axes = [1] reduction = <max> : tensor<?xi32> -> tensor<?xi64>
  return %0 : tensor<?xi64>
}
