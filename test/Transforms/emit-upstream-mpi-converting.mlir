// Converting all_reduces (result element type other than the operand's):
// upstream's --convert-shard-to-mpi copies the operand into the result's
// type with a linalg.copy, whose casts (extsi, trunci, sitofp, fptosi,
// index_cast) take signless integers only and index only to integers, and
// whose loads of i1 abort the LLVM lowering. --emit=upstream-mpi refuses
// each at the op; emit-upstream-mpi-accepted.mlir holds the conversions
// that stay accepted.
// RUN: not mesh-opt --split-input-file --emit=upstream-mpi %s -o %t 2>&1 | FileCheck %s
// RUN: not test -e %t

mesh.mesh @mesh(shape = 2)
func.func @unsigned(%x: tensor<4xui8>) -> tensor<4xi32> {
  // CHECK: emit-upstream-mpi-converting.mlir:[[@LINE+1]]:8: error: cannot emit upstream's shard dialect: upstream's MPI conversion converts the elements of an all_reduce with signless casts only, between f16, bf16, f32, f64, i8, i16, i32 and i64 (and from index to those integers): ui8 to i32
  %0 = mesh.all_reduce %x on @mesh mesh_axes = [0] : tensor<4xui8> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

mesh.mesh @mesh(shape = 2)
func.func @signed(%x: tensor<4xsi8>) -> tensor<4xsi32> {
  // CHECK: emit-upstream-mpi-converting.mlir:[[@LINE+1]]:8: error: {{.*}} with signless casts only, {{.*}}: si8 to si32
  %0 = mesh.all_reduce %x on @mesh mesh_axes = [0] : tensor<4xsi8> -> tensor<4xsi32>
  return %0 : tensor<4xsi32>
}

// -----

mesh.mesh @mesh(shape = 2)
func.func @to_unsigned(%x: tensor<4xi8>) -> tensor<4xui32> {
  // CHECK: emit-upstream-mpi-converting.mlir:[[@LINE+1]]:8: error: {{.*}} with signless casts only, {{.*}}: i8 to ui32
  %0 = mesh.all_reduce %x on @mesh mesh_axes = [0] : tensor<4xi8> -> tensor<4xui32>
  return %0 : tensor<4xui32>
}

// -----

mesh.mesh @mesh(shape = 2)
func.func @float_to_unsigned(%x: tensor<4xf32>) -> tensor<4xui8> {
  // CHECK: emit-upstream-mpi-converting.mlir:[[@LINE+1]]:8: error: {{.*}} with signless casts only, {{.*}}: f32 to ui8
  %0 = mesh.all_reduce %x on @mesh mesh_axes = [0] : tensor<4xf32> -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

mesh.mesh @mesh(shape = 2)
func.func @bool(%x: tensor<4xi1>) -> tensor<4xi32> {
  // CHECK: emit-upstream-mpi-converting.mlir:[[@LINE+1]]:8: error: {{.*}} with signless casts only, {{.*}}: i1 to i32
  %0 = mesh.all_reduce %x on @mesh mesh_axes = [0] : tensor<4xi1> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

mesh.mesh @mesh(shape = 2)
func.func @index_to_float(%x: tensor<4xindex>) -> tensor<4xf32> {
  // CHECK: emit-upstream-mpi-converting.mlir:[[@LINE+1]]:8: error: {{.*}} with signless casts only, {{.*}}: index to f32
  %0 = mesh.all_reduce %x on @mesh mesh_axes = [0] : tensor<4xindex> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
