// A 5x9 tensor on a 2x2x2 mesh: 5 rows over 4 devices are pieces of 1, 1,
// 1, 2, over 2 devices of 2, 3; 9 columns over 2 are 4, 5.  Layouts change
// across all three mesh axes, through whole-piece permutations, all_to_alls
// and a reduce_scatter of a partial sum (a row sum split over the uneven
// columns).  Partitioned, then simulated against the original on random
// inputs.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: %python -c "import numpy as np; r = np.random.default_rng(4); np.save('%t.x.npy', r.standard_normal((5, 9)).astype(np.float32))"
// RUN: mesh-run %t.mlir -i %t.x.npy --compare-with %s -q | FileCheck %s
// RUN: mesh-opt --mesh-partition=full-arguments=true %s -o %t.full.mlir
// RUN: mesh-run %t.full.mlir -i %t.x.npy --compare-with %s -q | FileCheck %s
// With unroll-limit=0 every group's pieces are cut and joined by scf.for loops:
// RUN: mesh-opt --mesh-partition=unroll-limit=0 %s -o %t.loops.mlir
// RUN: FileCheck %s --check-prefix=LOOPS < %t.loops.mlir
// RUN: mesh-run %t.loops.mlir -i %t.x.npy --compare-with %s -q | FileCheck %s
// CHECK-COUNT-3: max error
// CHECK-NEXT: match
// LOOPS-NOT: tensor.concat
// LOOPS: scf.for
// LOOPS-NOT: tensor.concat

// IR-LABEL: func.func @f
// IR-SAME: tensor<?x?xf32> {mesh.sharding = #mesh.sharding<@m, {{\[\[0, 1\], \[2\]\]}}, sharded_dims_offsets = [0, 1, 2, 3, 5, 0, 4, 9]>}
// IR: mesh.send
// IR: mesh.reduce_scatter {{.*}} mesh_axes = [2] scatter_axis = 0 : tensor<4xf32> -> tensor<2xf32>

mesh.mesh @m(shape = 2x2x2)

func.func @f(%x: tensor<5x9xf32>) -> (tensor<5x9xf32>, tensor<5x9xf32>, tensor<5xf32>) {
  %a = mesh.sharding @m split_axes = [[0, 1], [2]] : !mesh.sharding
  %b = mesh.sharding @m split_axes = [[2], [1, 0]] : !mesh.sharding
  %c = mesh.sharding @m split_axes = [[0], [2]] : !mesh.sharding
  %0 = mesh.shard %x to %a : tensor<5x9xf32>
  %1 = arith.addf %0, %0 : tensor<5x9xf32>
  %2 = mesh.shard %1 to %a : tensor<5x9xf32>
  %3 = mesh.shard %2 to %b annotate_for_users : tensor<5x9xf32>
  %4 = math.tanh %3 : tensor<5x9xf32>
  %5 = mesh.shard %4 to %b : tensor<5x9xf32>
  %6 = mesh.shard %5 to %c annotate_for_users : tensor<5x9xf32>
  %7 = arith.mulf %6, %6 : tensor<5x9xf32>
  %8 = mesh.shard %7 to %c : tensor<5x9xf32>
  // row sums: the columns are split over axis 2, so partial over axis 2
  %e = tensor.empty() : tensor<5xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
  %rows = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %f0 = mesh.shard %f to %rows annotate_for_users : tensor<5xf32>
  %s = linalg.reduce ins(%8 : tensor<5x9xf32>) outs(%f0 : tensor<5xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %r = arith.addf %in, %acc : f32
      linalg.yield %r : f32
    }
  %partial = mesh.sharding @m split_axes = [[0]] partial = sum [2] : !mesh.sharding
  %s0 = mesh.shard %s to %partial : tensor<5xf32>
  // reduced and scattered: 5 rows in pieces of 1, 1, 1, 2
  %fine = mesh.sharding @m split_axes = [[0, 2]] : !mesh.sharding
  %s1 = mesh.shard %s0 to %fine annotate_for_users : tensor<5xf32>
  %s2 = math.exp %s1 : tensor<5xf32>
  %s3 = mesh.shard %s2 to %fine : tensor<5xf32>
  // 5 rows over all 8 devices: three of them hold none
  %finest = mesh.sharding @m split_axes = [[0, 2, 1]] : !mesh.sharding
  %s4 = mesh.shard %s3 to %finest annotate_for_users : tensor<5xf32>
  %s5 = arith.addf %s4, %s4 : tensor<5xf32>
  %s6 = mesh.shard %s5 to %finest : tensor<5xf32>
  return %5, %8, %s6 : tensor<5x9xf32>, tensor<5x9xf32>, tensor<5xf32>
}
