// A 7x10 tensor on a 2x3 mesh, which divides neither size: rows in pieces
// of 3, 4 (or 2, 2, 3), columns of 3, 3, 4 (or 5, 5).  [[0], [1]] moves to
// [[1], [0]] with elementwise work on both sides, a matmul contracts the
// uneven columns into a partial sum that is then reduced and scattered, and
// a loop carries an uneven value.  Partitioned, then simulated against the
// original on random inputs, with and without sharding-propagation first.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: %python -c "import numpy as np; r = np.random.default_rng(2); np.save('%t.x.npy', r.standard_normal((7, 10)).astype(np.float32)); np.save('%t.w.npy', r.standard_normal((10, 5)).astype(np.float32))"
// RUN: mesh-run %t.mlir -i %t.x.npy -i %t.w.npy --compare-with %s -q | FileCheck %s
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.sp.mlir 2>/dev/null
// RUN: mesh-run %t.sp.mlir -i %t.x.npy -i %t.w.npy --compare-with %s -q | FileCheck %s
// With unroll-limit=0 every group's pieces are cut and joined by scf.for loops:
// RUN: mesh-opt --mesh-partition=unroll-limit=0 %s -o %t.loops.mlir
// RUN: FileCheck %s --check-prefix=LOOPS < %t.loops.mlir
// RUN: mesh-run %t.loops.mlir -i %t.x.npy -i %t.w.npy --compare-with %s -q | FileCheck %s
// CHECK-COUNT-3: max error
// CHECK-NEXT: match
// LOOPS-NOT: tensor.concat
// LOOPS: scf.for
// LOOPS-NOT: tensor.concat

// IR-LABEL: func.func @f
// IR-SAME: %arg0: tensor<?x?xf32>
// IR: mesh.all_gather {{.*}} mesh_axes = [0] gather_axis = 0 : tensor<4x?xf32> -> tensor<8x?xf32>
// IR: tensor.concat dim(0) {{.*}} : (tensor<3x?xf32>, tensor<4x?xf32>) -> tensor<7x?xf32>
// IR: mesh.all_to_all {{.*}} : tensor<9x4xf32> -> tensor<3x12xf32>
// IR: scf.for {{.*}} -> (tensor<?x5xf32>)

mesh.mesh @m(shape = 2x3)

func.func @f(%x: tensor<7x10xf32>, %w: tensor<10x5xf32>) -> (tensor<7x10xf32>, tensor<7x5xf32>, tensor<7x10xf32>) {
  %s = mesh.sharding @m split_axes = [[0], [1]] : !mesh.sharding
  %t = mesh.sharding @m split_axes = [[1], [0]] : !mesh.sharding
  %0 = mesh.shard %x to %s : tensor<7x10xf32>
  %1 = arith.addf %0, %0 : tensor<7x10xf32>
  %2 = mesh.shard %1 to %s : tensor<7x10xf32>
  %3 = mesh.shard %2 to %t annotate_for_users : tensor<7x10xf32>
  %4 = arith.mulf %3, %3 : tensor<7x10xf32>
  %5 = mesh.shard %4 to %t : tensor<7x10xf32>
  // rows over axis 0, the contraction over axis 1: partial over axis 1
  %a = mesh.shard %2 to %s annotate_for_users : tensor<7x10xf32>
  %wk = mesh.sharding @m split_axes = [[1]] : !mesh.sharding
  %w0 = mesh.shard %w to %wk annotate_for_users : tensor<10x5xf32>
  %e = tensor.empty() : tensor<7x5xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<7x5xf32>) -> tensor<7x5xf32>
  %rows = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %f0 = mesh.shard %f to %rows annotate_for_users : tensor<7x5xf32>
  %p = linalg.matmul ins(%a, %w0 : tensor<7x10xf32>, tensor<10x5xf32>) outs(%f0 : tensor<7x5xf32>) -> tensor<7x5xf32>
  %partial = mesh.sharding @m split_axes = [[0]] partial = sum [1] : !mesh.sharding
  %p0 = mesh.shard %p to %partial : tensor<7x5xf32>
  // reduced and scattered over the rows: 7 rows in 6 pieces
  %both = mesh.sharding @m split_axes = [[0, 1]] : !mesh.sharding
  %p1 = mesh.shard %p0 to %both annotate_for_users : tensor<7x5xf32>
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  %l = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %p1) -> (tensor<7x5xf32>) {
    %n = arith.addf %acc, %p1 : tensor<7x5xf32>
    %n0 = mesh.shard %n to %both : tensor<7x5xf32>
    scf.yield %n0 : tensor<7x5xf32>
  }
  %l0 = mesh.shard %l to %both : tensor<7x5xf32>
  %r = mesh.sharding @m split_axes = [[]] : !mesh.sharding
  %l1 = mesh.shard %l0 to %r annotate_for_users : tensor<7x5xf32>
  return %5, %l1, %2 : tensor<7x10xf32>, tensor<7x5xf32>, tensor<7x10xf32>
}
