// A mesh with a dynamic size (2x?): pieces split over the dynamic axis have
// sizes only known at run time, which the partitioned program computes from
// mesh.mesh_shape (the default cut); collectives over that axis pad to the
// largest piece and join the parts in an scf.for over the group.  The
// simulator runs static meshes only, so both programs are then given 3, 4
// and 5 for the `?` (12 rows over 5 devices: 2, 2, 2, 3, 3) and simulated.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: %python -c "import numpy as np; r = np.random.default_rng(6); np.save('%t.x.npy', r.standard_normal((12, 10)).astype(np.float32)); np.save('%t.w.npy', r.standard_normal((10, 3)).astype(np.float32))"
// RUN: sed -e 's/shape = 2x?/shape = 2x3/' %t.mlir > %t.p3.mlir
// RUN: sed -e 's/shape = 2x?/shape = 2x3/' %s > %t.o3.mlir
// RUN: mesh-run %t.p3.mlir -i %t.x.npy -i %t.w.npy --compare-with %t.o3.mlir -q | FileCheck %s
// RUN: sed -e 's/shape = 2x?/shape = 2x4/' %t.mlir > %t.p4.mlir
// RUN: sed -e 's/shape = 2x?/shape = 2x4/' %s > %t.o4.mlir
// RUN: mesh-run %t.p4.mlir -i %t.x.npy -i %t.w.npy --compare-with %t.o4.mlir -q | FileCheck %s
// RUN: sed -e 's/shape = 2x?/shape = 2x5/' %t.mlir > %t.p5.mlir
// RUN: sed -e 's/shape = 2x?/shape = 2x5/' %s > %t.o5.mlir
// RUN: mesh-run %t.p5.mlir -i %t.x.npy -i %t.w.npy --compare-with %t.o5.mlir -q | FileCheck %s
// CHECK: max error
// CHECK: {{^}}match

// IR-LABEL: func.func @f
// IR-SAME: tensor<6x?xf32>
// IR: mesh.mesh_shape @m axes = [1] : index
// IR: scf.for
// IR: mesh.all_to_all {{.*}} : tensor<?x?xf32> -> tensor<?x?xf32>

mesh.mesh @m(shape = 2x?)

func.func @f(%x: tensor<12x10xf32>, %w: tensor<10x3xf32>) -> (tensor<12x10xf32>, tensor<12x3xf32>) {
  %s = mesh.sharding @m split_axes = [[0], [1]] : !mesh.sharding
  %t = mesh.sharding @m split_axes = [[1], [0]] : !mesh.sharding
  %0 = mesh.shard %x to %s : tensor<12x10xf32>
  %1 = arith.addf %0, %0 : tensor<12x10xf32>
  %2 = mesh.shard %1 to %s : tensor<12x10xf32>
  %3 = mesh.shard %2 to %t annotate_for_users : tensor<12x10xf32>
  %4 = arith.mulf %3, %3 : tensor<12x10xf32>
  %5 = mesh.shard %4 to %t : tensor<12x10xf32>
  // the rows over the dynamic axis, the contraction whole
  %r = mesh.sharding @m split_axes = [[1]] : !mesh.sharding
  %6 = mesh.shard %5 to %r annotate_for_users : tensor<12x10xf32>
  %e = tensor.empty() : tensor<12x3xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<12x3xf32>) -> tensor<12x3xf32>
  %f0 = mesh.shard %f to %r annotate_for_users : tensor<12x3xf32>
  %7 = linalg.matmul ins(%6, %w : tensor<12x10xf32>, tensor<10x3xf32>) outs(%f0 : tensor<12x3xf32>) -> tensor<12x3xf32>
  %8 = mesh.shard %7 to %r : tensor<12x3xf32>
  return %5, %8 : tensor<12x10xf32>, tensor<12x3xf32>
}
