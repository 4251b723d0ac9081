// Tensors of dynamic size.  A dimension of dynamic size that is not split
// stays dynamic in the local type and blocks nothing; a split one has
// pieces only known at run time (the default cut of its size, which the
// devices add up over their group), so the planner only gathers it whole or
// cuts it from whole.  tensor.dim of the whole value gives the whole size,
// and tensor.empty of it is made with this device's piece.  Partitioned,
// then simulated against the original for two sizes, 13 and 4 rows.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: %python -c "import numpy as np; r = np.random.default_rng(5); np.save('%t.x13.npy', r.standard_normal((13, 14)).astype(np.float32)); np.save('%t.x4.npy', r.standard_normal((4, 14)).astype(np.float32)); np.save('%t.w.npy', r.standard_normal((14, 4)).astype(np.float32))"
// RUN: mesh-run %t.mlir -f cols -i %t.x13.npy --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir -f rows -i %t.x13.npy -i %t.w.npy --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir -f rows -i %t.x4.npy -i %t.w.npy --compare-with %s -q | FileCheck %s
// CHECK: max error
// CHECK: {{^}}match

// tensor<?x14xf32> split on dimension 1 (the lead's case): the dynamic rows
// never block partition.
// IR-LABEL: func.func @cols
// IR-SAME: tensor<?x7xf32>
// IR: arith.addf {{.*}} : tensor<?x7xf32>
// IR: mesh.all_gather {{.*}} gather_axis = 1 : tensor<?x7xf32> -> tensor<?x14xf32>
// The rows of dynamic size cut over the six devices at run time.
// IR-LABEL: func.func @rows
// IR: tensor.extract_slice {{.*}} : tensor<?x14xf32> to tensor<?x14xf32>
// IR: mesh.all_reduce {{.*}} : tensor<1xindex> -> tensor<1xindex>

mesh.mesh @m(shape = 2x3)

func.func @cols(%x: tensor<?x14xf32>) -> tensor<?x14xf32> {
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %r = mesh.sharding @m split_axes = [[]] : !mesh.sharding
  %0 = mesh.shard %x to %s : tensor<?x14xf32>
  %1 = arith.addf %0, %0 : tensor<?x14xf32>
  %2 = mesh.shard %1 to %s : tensor<?x14xf32>
  %3 = mesh.shard %2 to %r annotate_for_users : tensor<?x14xf32>
  %4 = math.tanh %3 : tensor<?x14xf32>
  return %4 : tensor<?x14xf32>
}

func.func @rows(%x: tensor<?x14xf32>, %w: tensor<14x4xf32>) -> (tensor<?x4xf32>, tensor<?x14xf32>) {
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %t = mesh.sharding @m split_axes = [[1, 0]] : !mesh.sharding
  %u = mesh.sharding @m split_axes = [[0], [1]] : !mesh.sharding
  %0 = mesh.shard %x to %s : tensor<?x14xf32>
  %1 = arith.addf %0, %0 : tensor<?x14xf32>
  %2 = mesh.shard %1 to %s : tensor<?x14xf32>
  %3 = mesh.shard %2 to %t annotate_for_users : tensor<?x14xf32>
  %4 = arith.mulf %3, %3 : tensor<?x14xf32>
  %5 = mesh.shard %4 to %t : tensor<?x14xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x14xf32>
  %e = tensor.empty(%n) : tensor<?x4xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
  %f1 = mesh.shard %f to %t annotate_for_users : tensor<?x4xf32>
  %6 = linalg.matmul ins(%5, %w : tensor<?x14xf32>, tensor<14x4xf32>) outs(%f1 : tensor<?x4xf32>) -> tensor<?x4xf32>
  %7 = mesh.shard %6 to %t : tensor<?x4xf32>
  // the rows over axis 0 only, the columns over axis 1 (14 over 3: 4, 5, 5)
  %8 = mesh.shard %5 to %u annotate_for_users : tensor<?x14xf32>
  %9 = math.tanh %8 : tensor<?x14xf32>
  %10 = mesh.shard %9 to %u : tensor<?x14xf32>
  %11 = mesh.shard %7 to %s annotate_for_users : tensor<?x4xf32>
  return %11, %10 : tensor<?x4xf32>, tensor<?x14xf32>
}
