// A 2-layer MLP partitioned by hand on a 2x2 mesh: rows of x over mesh axis 0
// (data parallel), W1's columns and W2's rows over axis 1 (tensor parallel).
// The second matmul leaves partial sums over axis 1: one all_reduce.
// RUN: mesh-run %s --compare-with %S/Inputs/mlp-global.mlir -q | FileCheck %s
// RUN: mesh-run %s --compare-with %S/Inputs/mlp-global.mlir --seed 7 -q | FileCheck %s
// The same program as 4 processes under mpiexec:
// RUN: mesh-run %s --compare-with %S/Inputs/mlp-global.mlir --mpi 4 -q | FileCheck %s
// CHECK: result 0: max error {{[0-9.e-]+}}
// CHECK-NEXT: match

// Without the all_reduce the devices that should hold the same rows hold
// different partial sums: putting the result together fails.
// RUN: sed -e 's/mesh_axes = \[1\] :/mesh_axes = [] :/' %s > %t.noreduce.mlir
// RUN: not mesh-run %t.noreduce.mlir --compare-with %S/Inputs/mlp-global.mlir -q 2>&1 | FileCheck %s --check-prefix=REPLICAS
// REPLICAS: mesh-run: error: result 0 of @mlp: replicas [0, 0] and [0, 1] differ: max difference

// A result layout that claims partial sums over axis 1 after the all_reduce
// doubles every value: the comparison catches it.
// RUN: sed -e 's/\[\[0\]\]>})/[[0]], partial = sum [1]>})/' %s > %t.partial.mlir
// RUN: not mesh-run %t.partial.mlir --compare-with %S/Inputs/mlp-global.mlir -q | FileCheck %s --check-prefix=WRONG
// WRONG: result 0: differs from the reference at
// WRONG: MISMATCH

mesh.mesh @mesh(shape = 2x2)

func.func @mlp(
    %x: tensor<4x16xf32> {mesh.sharding = #mesh.sharding<@mesh, [[0]]>},
    %w1: tensor<16x16xf32> {mesh.sharding = #mesh.sharding<@mesh, [[], [1]]>},
    %w2: tensor<16x16xf32> {mesh.sharding = #mesh.sharding<@mesh, [[1]]>})
    -> (tensor<4x16xf32> {mesh.sharding = #mesh.sharding<@mesh, [[0]]>}) {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4x16xf32>
  %acc1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<4x16xf32>, tensor<16x16xf32>) outs(%acc1 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %relu = arith.maximumf %h, %acc1 : tensor<4x16xf32>
  %acc2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %partial = linalg.matmul ins(%relu, %w2 : tensor<4x16xf32>, tensor<16x16xf32>) outs(%acc2 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %y = mesh.all_reduce %partial on @mesh mesh_axes = [1] : tensor<4x16xf32> -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}
