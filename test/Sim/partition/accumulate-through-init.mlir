// Two contraction-split matmuls accumulate into one result through the
// second one's init (a gradient accumulated over two micro-batches): the
// first product's partial terms become the second's init as they are, and
// the sum is reduced once, at the end, instead of an all_reduce of the first
// product, that total kept on one device, and a second all_reduce.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=SIM
// SIM: match
// CHECK-LABEL: func.func @accumulate
// CHECK: %[[P:.*]] = linalg.matmul ins(%arg0, %arg1
// CHECK-NOT: mesh.
// CHECK: %[[Q:.*]] = linalg.matmul ins(%arg2, %arg3 : tensor<8x8xf32>, tensor<8x16xf32>) outs(%[[P]] : tensor<8x16xf32>)
// CHECK-NEXT: mesh.all_reduce %[[Q]] on @mesh mesh_axes = [0]
// CHECK-NOT: mesh.

mesh.mesh @mesh(shape = 4)
func.func @accumulate(%x: tensor<8x32xf32>, %w: tensor<32x16xf32>, %x2: tensor<8x32xf32>, %w2: tensor<32x16xf32>) -> tensor<8x16xf32> {
  %k = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %zero = arith.constant 0.000000e+00 : f32
  %xs = mesh.shard %x to %k annotate_for_users : tensor<8x32xf32>
  %ws = mesh.shard %w to %rows annotate_for_users : tensor<32x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %p = linalg.matmul ins(%xs, %ws : tensor<8x32xf32>, tensor<32x16xf32>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
  %x2s = mesh.shard %x2 to %k annotate_for_users : tensor<8x32xf32>
  %w2s = mesh.shard %w2 to %rows annotate_for_users : tensor<32x16xf32>
  %q = linalg.matmul ins(%x2s, %w2s : tensor<8x32xf32>, tensor<32x16xf32>) outs(%p : tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = mesh.shard %q to %whole : tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
