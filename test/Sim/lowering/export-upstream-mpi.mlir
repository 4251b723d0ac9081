// From annotations to upstream's MPI dialect: propagate, partition, lower
// the all_slice and the process indices, export to upstream's `shard`
// spelling and convert with upstream's `mlir-opt --convert-shard-to-mpi`.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.spmd.mlir
// RUN: mesh-opt --mesh-lower-all-slice --mesh-lower-process-multi-index %t.spmd.mlir -o %t.lowered.mlir
// Each step computes what the annotated program computes:
// RUN: mesh-run %t.spmd.mlir --compare-with %s -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.lowered.mlir --compare-with %s -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.lowered.mlir --compare-with %s -q --seed 9 | FileCheck %s --check-prefix=SIM
// and as 4 MPI processes (mesh-run's own MPI backend):
// RUN: mesh-run %t.lowered.mlir --compare-with %s -q --mpi 4 | FileCheck %s --check-prefix=SIM
// SIM: match
//
// The export drops the layouts and renames; upstream converts every shard op.
// RUN: %python -m mesh_dialect.interop.upstream --mpi %t.lowered.mlir -o %t.upstream.mlir
// RUN: FileCheck %s --check-prefix=EXPORT < %t.upstream.mlir
// RUN: mlir-opt --convert-shard-to-mpi %t.upstream.mlir 2>&1 | FileCheck %s --check-prefix=MPI
// EXPORT: shard.grid @mesh(shape = 2x2)
// EXPORT: func.func @mlp(%arg0: tensor<8x16xf32>, %arg1: tensor<16x16xf32>, %arg2: tensor<16x16xf32>, %arg3: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<4x16xf32>)
// EXPORT: shard.all_reduce %{{.*}} on @mesh grid_axes = [1] : tensor<8x16xf32> -> tensor<8x16xf32>
// EXPORT: shard.process_linear_index on @mesh : index
// EXPORT: tensor.extract_slice %arg3[%{{.*}}, 0] [4, 16] [1, 1] : tensor<8x16xf32> to tensor<4x16xf32>
// EXPORT-NOT: mesh
// MPI-NOT: error
// MPI: mpi.comm_rank
// MPI: mpi.allreduce
// MPI-NOT: shard.{{[a-z_]+}} %
// MPI-NOT: error
//
// Before mesh-lower-all-slice, the export for MPI refuses the all_slice at
// its line (upstream would report it, exit 0 and leave it in):
// RUN: not %python -m mesh_dialect.interop.upstream --mpi %t.spmd.mlir 2>&1 | FileCheck %s --check-prefix=REFUSED
// REFUSED: spmd.mlir:{{[0-9]+}}:{{[0-9]+}}: error: cannot export to upstream's shard dialect: upstream's MPI conversion has no lowering for 'mesh.all_slice'; run mesh-lower-all-slice first
// RUN: %python -m mesh_dialect.interop.upstream %t.spmd.mlir -o %t.upstream-unlowered.mlir
// RUN: mlir-opt --convert-shard-to-mpi %t.upstream-unlowered.mlir 2>&1 | FileCheck %s --check-prefix=UNLOWERED
// UNLOWERED: error: failed to legalize operation 'shard.all_slice'
//
// mesh-opt --emit writes the same export, and refuses the same op at the
// same place:
// RUN: mesh-opt --mesh-lower-all-slice --mesh-lower-process-multi-index %t.spmd.mlir --emit=upstream-mpi -o %t.cli.mlir
// RUN: FileCheck %s --check-prefix=EXPORT < %t.cli.mlir
// RUN: not mesh-opt %t.spmd.mlir --emit=upstream-mpi -o %t.cli-refused.mlir 2>&1 | FileCheck %s --check-prefix=CLI-REFUSED
// RUN: not test -e %t.cli-refused.mlir
// CLI-REFUSED: spmd.mlir:{{[0-9]+}}:{{[0-9]+}}: error: cannot emit upstream's shard dialect: {{.*}}'mesh.all_slice'; run mesh-lower-all-slice first

mesh.mesh @mesh(shape = 2x2)
func.func @mlp(%x: tensor<8x16xf32>, %w1: tensor<16x32xf32>, %w2: tensor<32x16xf32>, %z: tensor<8x16xf32>)
    -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %s1 = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
  %s2 = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %r = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %xs = mesh.shard %x to %r : tensor<8x16xf32>
  %w1s = mesh.shard %w1 to %s1 : tensor<16x32xf32>
  %w2s = mesh.shard %w2 to %s2 : tensor<32x16xf32>
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<8x32xf32>
  %a1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %h = linalg.matmul ins(%xs, %w1s : tensor<8x16xf32>, tensor<16x32xf32>)
      outs(%a1 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %a2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = linalg.matmul ins(%h, %w2s : tensor<8x32xf32>, tensor<32x16xf32>)
      outs(%a2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %ys = mesh.shard %y to %r : tensor<8x16xf32>
  // A replicated argument whose result is split by rows: an all_slice.
  %zs = mesh.shard %z to %r : tensor<8x16xf32>
  %zr = mesh.shard %zs to %rows : tensor<8x16xf32>
  return %ys, %zr : tensor<8x16xf32>, tensor<8x16xf32>
}
