// What --emit=upstream-mpi still writes: collectives upstream's
// --convert-shard-to-mpi lowers all the way to LLVM. The f32, i32 and i64
// kinds also run on MPICH in test/python/test_lowering.py, every rank
// printing what the simulator computes.
// RUN: mesh-opt --split-input-file --emit=upstream-mpi %s | FileCheck %s
// and upstream lowers all of it to LLVM (MPICH's ABI) without a word:
// RUN: mesh-opt --split-input-file --emit=upstream-mpi %s -o %t.shard.mlir
// RUN: sed 's/^module {/module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "MPICH">} {/' %t.shard.mlir > %t.mpich.mlir
// RUN: mlir-opt --split-input-file --convert-shard-to-mpi --one-shot-bufferize=bufferize-function-boundaries \
// RUN:   --convert-linalg-to-loops --expand-strided-metadata --lower-affine --finalize-memref-to-llvm \
// RUN:   --convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts %t.mpich.mlir 2>&1 | FileCheck %s --check-prefix=LLVM
// LLVM-NOT: error
// LLVM: llvm.func @kinds(
// LLVM-COUNT-6: llvm.call @MPI_Allreduce
// LLVM: llvm.func @converting(
// LLVM-COUNT-5: llvm.call @MPI_Allreduce
// LLVM: llvm.func @other(
// LLVM: llvm.call @MPI_Allreduce
// LLVM: llvm.call @MPI_Send
// LLVM-NOT: {{error|shard\.[a-z_]+ %|mpi\.[a-z_]+}}

mesh.mesh @mesh(shape = 2x2)
func.func @kinds(%i: tensor<4xi32>, %u: tensor<4xui8>, %s: tensor<4xsi64>, %h: tensor<4xi16>, %f: tensor<4xf32>,
                 %d: tensor<4xf64>) -> (tensor<4xi32>, tensor<4xui8>, tensor<4xsi64>, tensor<4xi16>, tensor<4xf32>, tensor<4xf64>) {
  // CHECK: shard.all_reduce %arg0 on @mesh grid_axes = [0] reduction = max : tensor<4xi32> -> tensor<4xi32>
  %0 = mesh.all_reduce %i on @mesh mesh_axes = [0] reduction = <max> : tensor<4xi32> -> tensor<4xi32>
  // CHECK: shard.all_reduce %arg1 on @mesh grid_axes = [1] reduction = min : tensor<4xui8> -> tensor<4xui8>
  %1 = mesh.all_reduce %u on @mesh mesh_axes = [1] reduction = <min> : tensor<4xui8> -> tensor<4xui8>
  // CHECK: shard.all_reduce %arg2 on @mesh grid_axes = [0, 1] : tensor<4xsi64> -> tensor<4xsi64>
  %2 = mesh.all_reduce %s on @mesh mesh_axes = [0, 1] : tensor<4xsi64> -> tensor<4xsi64>
  // CHECK: shard.all_reduce %arg3 on @mesh grid_axes = [1] reduction = bitwise_xor : tensor<4xi16> -> tensor<4xi16>
  %3 = mesh.all_reduce %h on @mesh mesh_axes = [1] reduction = <bitwise_xor> : tensor<4xi16> -> tensor<4xi16>
  // CHECK: shard.all_reduce %arg4 on @mesh grid_axes = [1, 0] : tensor<4xf32> -> tensor<4xf32>
  %4 = mesh.all_reduce %f on @mesh mesh_axes = [1, 0] : tensor<4xf32> -> tensor<4xf32>
  // CHECK: shard.all_reduce %arg5 on @mesh grid_axes = [0] reduction = product : tensor<4xf64> -> tensor<4xf64>
  %5 = mesh.all_reduce %d on @mesh mesh_axes = [0] reduction = <product> : tensor<4xf64> -> tensor<4xf64>
  return %0, %1, %2, %3, %4, %5 : tensor<4xi32>, tensor<4xui8>, tensor<4xsi64>, tensor<4xi16>, tensor<4xf32>, tensor<4xf64>
}

// -----

// Converting all_reduces whose signless casts upstream's linalg.copy makes,
// and a float-to-integer max (an integer max after the cast).
mesh.mesh @mesh(shape = 2)
func.func @converting(%a: tensor<4xi8>, %b: tensor<4xf16>, %c: tensor<4xbf16>, %d: tensor<4xindex>, %e: tensor<4xf32>)
    -> (tensor<4xi32>, tensor<4xf32>, tensor<4xf64>, tensor<4xi64>, tensor<4xi32>) {
  // CHECK: shard.all_reduce %arg0 on @mesh grid_axes = [0] : tensor<4xi8> -> tensor<4xi32>
  %0 = mesh.all_reduce %a on @mesh mesh_axes = [0] : tensor<4xi8> -> tensor<4xi32>
  // CHECK: shard.all_reduce %arg1 on @mesh grid_axes = [0] : tensor<4xf16> -> tensor<4xf32>
  %1 = mesh.all_reduce %b on @mesh mesh_axes = [0] : tensor<4xf16> -> tensor<4xf32>
  // CHECK: shard.all_reduce %arg2 on @mesh grid_axes = [0] : tensor<4xbf16> -> tensor<4xf64>
  %2 = mesh.all_reduce %c on @mesh mesh_axes = [0] : tensor<4xbf16> -> tensor<4xf64>
  // CHECK: shard.all_reduce %arg3 on @mesh grid_axes = [0] : tensor<4xindex> -> tensor<4xi64>
  %3 = mesh.all_reduce %d on @mesh mesh_axes = [0] : tensor<4xindex> -> tensor<4xi64>
  // CHECK: shard.all_reduce %arg4 on @mesh grid_axes = [0] reduction = max : tensor<4xf32> -> tensor<4xi32>
  %4 = mesh.all_reduce %e on @mesh mesh_axes = [0] reduction = <max> : tensor<4xf32> -> tensor<4xi32>
  return %0, %1, %2, %3, %4 : tensor<4xi32>, tensor<4xf32>, tensor<4xf64>, tensor<4xi64>, tensor<4xi32>
}

// -----

// A 0-d all_reduce, and halo exchanges of one element per row on one mesh
// axis per dimension, in integer types MPI has a datatype for.
mesh.mesh @mesh(shape = 4)
func.func @other(%s: tensor<f32>, %x: tensor<9xui8>, %y: tensor<2x6xi64>) -> (tensor<f32>, tensor<9xui8>, tensor<2x6xi64>) {
  // CHECK: shard.all_reduce %arg0 on @mesh grid_axes = [0] : tensor<f32> -> tensor<f32>
  %0 = mesh.all_reduce %s on @mesh mesh_axes = [0] : tensor<f32> -> tensor<f32>
  // CHECK: shard.update_halo %arg1 on @mesh split_axes = {{\[\[}}0]] halo_sizes = [1, 1] : tensor<9xui8>
  %1 = mesh.update_halo %x into %x on @mesh split_axes = [[0]] source_halo_sizes = [1, 1]
      destination_halo_sizes = [1, 1] : tensor<9xui8> -> tensor<9xui8>
  // CHECK: shard.update_halo %arg2 on @mesh split_axes = {{\[\[}}], [0]] halo_sizes = [1, 1] : tensor<2x6xi64>
  %2 = mesh.update_halo %y into %y on @mesh split_axes = [[], [0]] source_halo_sizes = [1, 1]
      destination_halo_sizes = [1, 1] : tensor<2x6xi64> -> tensor<2x6xi64>
  return %0, %1, %2 : tensor<f32>, tensor<9xui8>, tensor<2x6xi64>
}
