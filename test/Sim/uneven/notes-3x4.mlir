// The resharding notes' K=16, L=23 case on a 3x4 mesh: [[0], [1]] (rows in
// pieces of 5, 5, 6, columns of 5, 6, 6, 6) to [[1], [0]] (rows of 4,
// columns of 7, 8, 8), with the pieces of upstream's shard_shape, and again
// with the rounded-up pieces of GSPMD written as sharded_dims_offsets.  The
// planner's 3 steps are an all_to_all, a permutation of whole pieces and an
// all_to_all; each collective pads the pieces to the largest one.
// Partitioned, then simulated against the original on random inputs.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: %python -c "import numpy as np; r = np.random.default_rng(3); np.save('%t.x.npy', r.standard_normal((16, 23)).astype(np.float32)); np.save('%t.w.npy', r.standard_normal((23, 6)).astype(np.float32))"
// RUN: mesh-run %t.mlir -f f -i %t.x.npy -i %t.w.npy --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir -f ceil -i %t.x.npy --compare-with %s -q | FileCheck %s
// With unroll-limit=0 every group's pieces are cut and joined by scf.for loops:
// RUN: mesh-opt --mesh-partition=unroll-limit=0 %s -o %t.loops.mlir
// RUN: FileCheck %s --check-prefix=LOOPS < %t.loops.mlir
// RUN: mesh-run %t.loops.mlir -f f -i %t.x.npy -i %t.w.npy --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.loops.mlir -f ceil -i %t.x.npy --compare-with %s -q | FileCheck %s
// CHECK: max error
// CHECK-NEXT: match
// LOOPS-NOT: tensor.concat
// LOOPS: scf.for
// LOOPS-NOT: tensor.concat

// IR-LABEL: func.func @f
// IR: mesh.all_to_all {{.*}} mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<6x6xf32> -> tensor<18x2xf32>
// IR: tensor.concat dim(0) {{.*}} : (tensor<5x?xf32>, tensor<5x?xf32>, tensor<6x?xf32>) -> tensor<16x?xf32>
// IR: mesh.send
// IR: mesh.recv
// IR: mesh.all_to_all {{.*}} mesh_axes = [1] split_axis = 0 concat_axis = 1 : tensor<16x2xf32> -> tensor<4x8xf32>
// IR: linalg.matmul {{.*}} -> tensor<4x6xf32>
// IR-LABEL: func.func @ceil

mesh.mesh @m(shape = 3x4)

func.func @f(%x: tensor<16x23xf32>, %w: tensor<23x6xf32>) -> tensor<16x6xf32> {
  %s = mesh.sharding @m split_axes = [[0], [1]] : !mesh.sharding
  %t = mesh.sharding @m split_axes = [[1], [0]] : !mesh.sharding
  %0 = mesh.shard %x to %s : tensor<16x23xf32>
  %1 = math.tanh %0 : tensor<16x23xf32>
  %2 = mesh.shard %1 to %s : tensor<16x23xf32>
  %3 = mesh.shard %2 to %t annotate_for_users : tensor<16x23xf32>
  %4 = arith.mulf %3, %3 : tensor<16x23xf32>
  %5 = mesh.shard %4 to %t : tensor<16x23xf32>
  // rows over axis 1, the whole contraction: each device its rows
  %r = mesh.sharding @m split_axes = [[1]] : !mesh.sharding
  %6 = mesh.shard %5 to %r annotate_for_users : tensor<16x23xf32>
  %e = tensor.empty() : tensor<16x6xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x6xf32>) -> tensor<16x6xf32>
  %f0 = mesh.shard %f to %r annotate_for_users : tensor<16x6xf32>
  %7 = linalg.matmul ins(%6, %w : tensor<16x23xf32>, tensor<23x6xf32>) outs(%f0 : tensor<16x6xf32>) -> tensor<16x6xf32>
  %8 = mesh.shard %7 to %r : tensor<16x6xf32>
  return %8 : tensor<16x6xf32>
}

func.func @ceil(%x: tensor<16x23xf32>) -> tensor<16x23xf32> {
  %s = mesh.sharding @m split_axes = [[0], [1]] sharded_dims_offsets = [0, 6, 12, 16, 0, 6, 12, 18, 23] : !mesh.sharding
  %t = mesh.sharding @m split_axes = [[1], [0]] sharded_dims_offsets = [0, 4, 8, 12, 16, 0, 8, 16, 23] : !mesh.sharding
  %0 = mesh.shard %x to %s : tensor<16x23xf32>
  %1 = arith.addf %0, %0 : tensor<16x23xf32>
  %2 = mesh.shard %1 to %s : tensor<16x23xf32>
  %3 = mesh.shard %2 to %t annotate_for_users : tensor<16x23xf32>
  %4 = arith.mulf %3, %3 : tensor<16x23xf32>
  %5 = mesh.shard %4 to %t : tensor<16x23xf32>
  return %5 : tensor<16x23xf32>
}
