// Among plans that move as many bytes, the cost solver takes the one with
// fewer collectives: a batch matmul split on its contraction, whose result
// is wanted split on the batch, reduce-scatters its partial product (one
// collective, 6,144 bytes a device) rather than moving both operands to the
// batch split (two all_to_all, the same 6,144 bytes).
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-opt --mesh-analysis %t.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BYTES
// SIM: match
// BYTES: max     reduce_scatter 1         6,144
// CHECK: linalg.batch_matmul ins(%arg0, %arg1 : tensor<8x16x8xf32>, tensor<8x8x16xf32>)
// CHECK-NEXT: mesh.reduce_scatter %{{.*}} on @mesh mesh_axes = [0] scatter_axis = 0 : tensor<8x16x16xf32> -> tensor<2x16x16xf32>
// CHECK-NOT: mesh.all_to_all

mesh.mesh @mesh(shape = 4)
func.func @f(%a: tensor<8x16x32xf32>, %c: tensor<8x32x16xf32>) -> tensor<8x16x16xf32> {
  %k_a = mesh.sharding @mesh split_axes = [[], [], [0]] : !mesh.sharding
  %k_c = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %batch = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %zero = arith.constant 0.000000e+00 : f32
  %as = mesh.shard %a to %k_a annotate_for_users : tensor<8x16x32xf32>
  %cs = mesh.shard %c to %k_c annotate_for_users : tensor<8x32x16xf32>
  %e = tensor.empty() : tensor<8x16x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %p = linalg.batch_matmul ins(%as, %cs : tensor<8x16x32xf32>, tensor<8x32x16xf32>) outs(%f : tensor<8x16x16xf32>) -> tensor<8x16x16xf32>
  %r = mesh.shard %p to %batch : tensor<8x16x16xf32>
  return %r : tensor<8x16x16xf32>
}
