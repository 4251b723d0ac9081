// A dimension of dynamic size is split like a static one (cut at run time
// by the default rule, the last pieces the longer ones): a torch-style
// data-parallel matmul on a batch of dynamic size keeps its rows split and
// moves only the batch size (an all_reduce of one index, for the init's
// local size), where gathering the input moved all of it.  Simulated with
// 7 rows over 4 devices (pieces of 1, 2, 2 and 2) and with 12.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: %python -c "import numpy as np; r = np.random.default_rng(8); np.save('%t.x7.npy', r.standard_normal((7, 64)).astype(np.float32)); np.save('%t.x12.npy', r.standard_normal((12, 64)).astype(np.float32)); np.save('%t.w.npy', r.standard_normal((64, 128)).astype(np.float32))"
// RUN: mesh-run %t.mlir -i %t.x7.npy -i %t.w.npy --compare-with %s -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -i %t.x12.npy -i %t.w.npy --compare-with %s -q | FileCheck %s --check-prefix=SIM
// SIM: match
// CHECK-LABEL: func.func @dp(%arg0: tensor<?x64xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>}, %arg1: tensor<64x128xf32>
// CHECK-NOT: mesh.all_gather
// CHECK: mesh.all_reduce %{{.*}} : tensor<1xindex> -> tensor<1xindex>
// CHECK-NOT: mesh.all_gather
// CHECK: linalg.matmul ins(%arg0, %arg1 : tensor<?x64xf32>, tensor<64x128xf32>) outs(%{{.*}} : tensor<?x128xf32>)

mesh.mesh @mesh(shape = 4)
func.func @dp(%x: tensor<?x64xf32>, %w: tensor<64x128xf32>) -> tensor<?x128xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s annotate_for_users : tensor<?x64xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x64xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x128xf32>) -> tensor<?x128xf32>
  %y = linalg.matmul ins(%xs, %w : tensor<?x64xf32>, tensor<64x128xf32>) outs(%f : tensor<?x128xf32>) -> tensor<?x128xf32>
  %ys = mesh.shard %y to %s : tensor<?x128xf32>
  return %ys : tensor<?x128xf32>
}
