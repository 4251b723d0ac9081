// all_reduces of element types MPI-to-LLVM has no MPI datatype for (it
// takes f32, f64 and 8-, 16-, 32- and 64-bit integers): lowering upstream's
// MPI program to LLVM aborts on an assertion. --emit=upstream-mpi refuses
// each at the op.
// RUN: not mesh-opt --split-input-file --emit=upstream-mpi %s -o %t 2>&1 | FileCheck %s
// RUN: not test -e %t

mesh.mesh @mesh(shape = 2)
func.func @half(%x: tensor<4xf16>) -> tensor<4xf16> {
  // CHECK: emit-upstream-mpi-element-types.mlir:[[@LINE+1]]:8: error: cannot emit upstream's shard dialect: upstream's MPI lowering aborts on an all_reduce of elements other than f32, f64 and 8-, 16-, 32- and 64-bit integers: f16
  %0 = mesh.all_reduce %x on @mesh mesh_axes = [0] : tensor<4xf16> -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

mesh.mesh @mesh(shape = 2)
func.func @brain(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  // CHECK: emit-upstream-mpi-element-types.mlir:[[@LINE+1]]:8: error: {{.*}} all_reduce of elements other than {{.*}}: bf16
  %0 = mesh.all_reduce %x on @mesh mesh_axes = [0] : tensor<4xbf16> -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

mesh.mesh @mesh(shape = 2)
func.func @complex(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // CHECK: emit-upstream-mpi-element-types.mlir:[[@LINE+1]]:8: error: {{.*}} all_reduce of elements other than {{.*}}: complex<f32>
  %0 = mesh.all_reduce %x on @mesh mesh_axes = [0] : tensor<4xcomplex<f32>> -> tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

mesh.mesh @mesh(shape = 2)
func.func @bool(%x: tensor<4xi1>) -> tensor<4xi1> {
  // CHECK: emit-upstream-mpi-element-types.mlir:[[@LINE+1]]:8: error: {{.*}} all_reduce of elements other than {{.*}}: i1
  %0 = mesh.all_reduce %x on @mesh mesh_axes = [0] reduction = <bitwise_or> : tensor<4xi1> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

mesh.mesh @mesh(shape = 2)
func.func @index(%x: tensor<4xindex>) -> tensor<4xindex> {
  // CHECK: emit-upstream-mpi-element-types.mlir:[[@LINE+1]]:8: error: {{.*}} all_reduce of elements other than {{.*}}: index
  %0 = mesh.all_reduce %x on @mesh mesh_axes = [0] : tensor<4xindex> -> tensor<4xindex>
  return %0 : tensor<4xindex>
}

// -----

// The buffer MPI reduces has the result's element type: converting to f16
// is refused too.
mesh.mesh @mesh(shape = 2)
func.func @to_half(%x: tensor<4xf32>) -> tensor<4xf16> {
  // CHECK: emit-upstream-mpi-element-types.mlir:[[@LINE+1]]:8: error: {{.*}} all_reduce of elements other than {{.*}}: f16
  %0 = mesh.all_reduce %x on @mesh mesh_axes = [0] : tensor<4xf32> -> tensor<4xf16>
  return %0 : tensor<4xf16>
}
