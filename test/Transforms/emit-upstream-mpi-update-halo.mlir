// update_halo exchanges upstream's --convert-shard-to-mpi cannot lower: it
// finds the neighbours along one mesh axis per dimension on a static mesh,
// so a dimension split over two mesh axes, or a mesh with a `?` size, is
// "failed to legalize" (and mlir-opt still exits 0); MPI-to-LLVM has no
// datatype for f16 or i1 and aborts. --emit=upstream-mpi refuses each at
// the op.
// RUN: not mesh-opt --split-input-file --emit=upstream-mpi %s -o %t 2>&1 | FileCheck %s
// RUN: not test -e %t

mesh.mesh @mesh(shape = 2x2)
func.func @two_axes(%x: tensor<12xf32>) -> tensor<12xf32> {
  // CHECK: emit-upstream-mpi-update-halo.mlir:[[@LINE+1]]:8: error: cannot emit upstream's shard dialect: upstream's MPI conversion leaves mesh.update_halo unlowered when a dimension is split over more than one mesh axis: dimension 0 over mesh axes [0, 1]
  %0 = mesh.update_halo %x into %x on @mesh split_axes = [[0, 1]] source_halo_sizes = [1, 1]
      destination_halo_sizes = [1, 1] : tensor<12xf32> -> tensor<12xf32>
  return %0 : tensor<12xf32>
}

// -----

mesh.mesh @mesh(shape = 2x2)
func.func @two_axes_second_dim(%x: tensor<1x12xi32>) -> tensor<1x12xi32> {
  // CHECK: emit-upstream-mpi-update-halo.mlir:[[@LINE+1]]:8: error: {{.*}} split over more than one mesh axis: dimension 1 over mesh axes [1, 0]
  %0 = mesh.update_halo %x into %x on @mesh split_axes = [[], [1, 0]] source_halo_sizes = [0, 0]
      destination_halo_sizes = [0, 0] : tensor<1x12xi32> -> tensor<1x12xi32>
  return %0 : tensor<1x12xi32>
}

// -----

mesh.mesh @mesh(shape = 2x?)
func.func @dynamic_mesh(%x: tensor<9xf32>) -> tensor<9xf32> {
  // CHECK: emit-upstream-mpi-update-halo.mlir:[[@LINE+1]]:8: error: cannot emit upstream's shard dialect: upstream's MPI conversion leaves mesh.update_halo on a mesh with a dynamic size unlowered
  %0 = mesh.update_halo %x into %x on @mesh split_axes = [[0]] source_halo_sizes = [1, 1]
      destination_halo_sizes = [1, 1] : tensor<9xf32> -> tensor<9xf32>
  return %0 : tensor<9xf32>
}

// -----

mesh.mesh @mesh(shape = 4)
func.func @half(%x: tensor<9xf16>) -> tensor<9xf16> {
  // CHECK: emit-upstream-mpi-update-halo.mlir:[[@LINE+1]]:8: error: cannot emit upstream's shard dialect: upstream's MPI lowering aborts on an update_halo of elements other than f32, f64 and 8-, 16-, 32- and 64-bit integers: f16
  %0 = mesh.update_halo %x into %x on @mesh split_axes = [[0]] source_halo_sizes = [1, 1]
      destination_halo_sizes = [1, 1] : tensor<9xf16> -> tensor<9xf16>
  return %0 : tensor<9xf16>
}

// -----

mesh.mesh @mesh(shape = 4)
func.func @bool(%x: tensor<9xi1>) -> tensor<9xi1> {
  // CHECK: emit-upstream-mpi-update-halo.mlir:[[@LINE+1]]:8: error: {{.*}} update_halo of elements other than {{.*}}: i1
  %0 = mesh.update_halo %x into %x on @mesh split_axes = [[0]] source_halo_sizes = [1, 1]
      destination_halo_sizes = [1, 1] : tensor<9xi1> -> tensor<9xi1>
  return %0 : tensor<9xi1>
}
