// Explicit sharded_dims_offsets on a 1-D mesh of 4: rows in pieces of 1, 3,
// 2, 2.  Elementwise work runs on the pieces as they are; the annotations
// then move the value to the default cut of the rows (2 each), to the
// columns (10 over 4: 2, 2, 3, 3, the last pieces one longer, as upstream's
// shard_shape cuts), back to the given offsets, and a matmul contracts the
// uneven columns into a partial sum.  Partitioned, then simulated against
// the original on random inputs.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: %python -c "import numpy as np; r = np.random.default_rng(1); np.save('%t.x.npy', r.standard_normal((8, 10)).astype(np.float32)); np.save('%t.w.npy', r.standard_normal((10, 3)).astype(np.float32))"
// RUN: mesh-run %t.mlir -i %t.x.npy -i %t.w.npy --compare-with %s -q | FileCheck %s
// RUN: mesh-opt --mesh-partition=full-arguments=true %s -o %t.full.mlir
// RUN: mesh-run %t.full.mlir -i %t.x.npy -i %t.w.npy --compare-with %s -q | FileCheck %s
// With unroll-limit=0 every group's pieces are cut and joined by scf.for loops:
// RUN: mesh-opt --mesh-partition=unroll-limit=0 %s -o %t.loops.mlir
// RUN: FileCheck %s --check-prefix=LOOPS < %t.loops.mlir
// RUN: mesh-run %t.loops.mlir -i %t.x.npy -i %t.w.npy --compare-with %s -q | FileCheck %s
// CHECK-COUNT-3: max error
// CHECK-NEXT: match
// LOOPS-NOT: tensor.concat
// LOOPS: scf.for
// LOOPS-NOT: tensor.concat

// The signature spells the pieces out: a dynamic local type does not say
// how large the whole tensor is.
// IR-LABEL: func.func @f
// IR-SAME: tensor<?x10xf32> {mesh.sharding = #mesh.sharding<@m, {{\[\[0\]\]}}, sharded_dims_offsets = [0, 1, 4, 6, 8]>}
// The default cut of the rows takes one row to device 0 from device 1
// (a recut: the others hold their new pieces).  Every collective runs on
// pieces padded to the largest one (3 columns), and the valid parts are
// joined again.
// IR: mesh.send {{.*}} : (tensor<1x10xf32>, index) -> tensor<1x10xf32>
// IR: mesh.recv {{.*}} : (tensor<1x10xf32>, index) -> tensor<1x10xf32>
// IR: mesh.all_to_all {{.*}} : tensor<2x12xf32> -> tensor<8x3xf32>
// IR: tensor.concat dim(0) {{.*}} : (tensor<2x?xf32>, tensor<2x?xf32>, tensor<2x?xf32>, tensor<2x?xf32>) -> tensor<8x?xf32>
// IR: mesh.all_to_all {{.*}} : tensor<12x3xf32> -> tensor<3x12xf32>
// IR: mesh.reduce_scatter {{.*}} : tensor<12x3xf32> -> tensor<3x3xf32>

mesh.mesh @m(shape = 4)

func.func @f(%x: tensor<8x10xf32>, %w: tensor<10x3xf32>) -> (tensor<8x10xf32>, tensor<8x10xf32>, tensor<8x3xf32>) {
  %given = mesh.sharding @m split_axes = [[0]] sharded_dims_offsets = [0, 1, 4, 6, 8] : !mesh.sharding
  %rows = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %cols = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %0 = mesh.shard %x to %given : tensor<8x10xf32>
  %1 = arith.addf %0, %0 : tensor<8x10xf32>
  %2 = mesh.shard %1 to %given : tensor<8x10xf32>
  %3 = mesh.shard %2 to %rows annotate_for_users : tensor<8x10xf32>
  %4 = arith.mulf %3, %3 : tensor<8x10xf32>
  %5 = mesh.shard %4 to %rows : tensor<8x10xf32>
  %6 = mesh.shard %5 to %cols annotate_for_users : tensor<8x10xf32>
  %7 = math.tanh %6 : tensor<8x10xf32>
  %8 = mesh.shard %7 to %cols : tensor<8x10xf32>
  %9 = mesh.shard %8 to %given annotate_for_users : tensor<8x10xf32>
  %10 = arith.subf %9, %2 : tensor<8x10xf32>
  %11 = mesh.shard %10 to %given : tensor<8x10xf32>
  // the contraction is split as the columns are: a partial sum over the mesh
  %wk = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %w0 = mesh.shard %w to %wk annotate_for_users : tensor<10x3xf32>
  %e = tensor.empty() : tensor<8x3xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x3xf32>) -> tensor<8x3xf32>
  %p = linalg.matmul ins(%8, %w0 : tensor<8x10xf32>, tensor<10x3xf32>) outs(%f : tensor<8x3xf32>) -> tensor<8x3xf32>
  %partial = mesh.sharding @m split_axes = [[]] partial = sum [0] : !mesh.sharding
  %p0 = mesh.shard %p to %partial : tensor<8x3xf32>
  %p1 = mesh.shard %p0 to %given annotate_for_users : tensor<8x3xf32>
  return %11, %8, %p1 : tensor<8x10xf32>, tensor<8x10xf32>, tensor<8x3xf32>
}
