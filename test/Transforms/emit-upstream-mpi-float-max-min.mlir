// Float max and min all_reduces: upstream's --convert-shard-to-mpi reduces
// them with MPI_MAX and MPI_MIN, which drop NaNs and order -0.0 and +0.0 by
// arrival, where the dialect's max and min propagate NaN and put -0.0 below
// +0.0 (as arith.maximumf/minimumf do). --emit=upstream-mpi refuses them at
// the op; integer max and min, and float sums, stay accepted.
// RUN: not mesh-opt --split-input-file --emit=upstream-mpi %s -o %t 2>&1 | FileCheck %s
// RUN: not test -e %t
// (emit-upstream-mpi-accepted.mlir holds what stays accepted.)

mesh.mesh @mesh(shape = 2x3)
func.func @max(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: emit-upstream-mpi-float-max-min.mlir:[[@LINE+1]]:8: error: cannot emit upstream's shard dialect: upstream's MPI conversion reduces float max and min with MPI_MAX and MPI_MIN, which drop NaNs and order -0.0 and +0.0 by arrival, unlike the dialect's: reduction <max> on f32
  %0 = mesh.all_reduce %x on @mesh mesh_axes = [0, 1] reduction = <max> : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

mesh.mesh @mesh(shape = 2x3)
func.func @min(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  // CHECK: emit-upstream-mpi-float-max-min.mlir:[[@LINE+1]]:8: error: {{.*}} unlike the dialect's: reduction <min> on f64
  %0 = mesh.all_reduce %x on @mesh mesh_axes = [1] reduction = <min> : tensor<2x3xf64> -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// Converting integers to floats and then taking the max is a float max too.
mesh.mesh @mesh(shape = 2)
func.func @converted(%x: tensor<4xi32>) -> tensor<4xf32> {
  // CHECK: emit-upstream-mpi-float-max-min.mlir:[[@LINE+1]]:8: error: {{.*}} unlike the dialect's: reduction <max> on f32
  %0 = mesh.all_reduce %x on @mesh mesh_axes = [0] reduction = <max> : tensor<4xi32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
