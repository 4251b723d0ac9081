// Sequence parallelism with a batch: activations of shape (batch, sequence,
// hidden) arrive with the batch split over axis 0 and the sequence over
// axis 1, the MLP's weights over axis 1 (columns, then rows).  The first
// matmul's operands clash on axis 1 (the sequence of one, the columns of the
// other); the plan keeps the batch split of the activations and the weight's
// columns, so only the sequence is gathered, over axis 1, and the second
// matmul's partial sum is reduce-scattered back onto the sequence: 6,144
// bytes a device.  Taking either request whole gathered the batch too and
// ran both matmuls on every row of it (10,240).
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=SIM
// RUN: mesh-opt --pass-pipeline='builtin.module(mesh-analysis{format=json})' %t.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BYTES
// SIM: match
// BYTES: "bytes_received": 6144
// CHECK-LABEL: func.func @sequence_parallel
// CHECK: %[[G:.*]] = mesh.all_gather %arg0 on @mesh mesh_axes = [1] gather_axis = 1 : tensor<2x2x64xf32> -> tensor<2x8x64xf32>
// CHECK: %[[H:.*]] = linalg.generic {{.*}} ins(%[[G]], %arg1 : tensor<2x8x64xf32>, tensor<64x32xf32>)
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%[[H]], %arg2 : tensor<2x8x32xf32>, tensor<32x64xf32>)
// CHECK: %[[R:.*]] = mesh.reduce_scatter %[[Y]] on @mesh mesh_axes = [1] scatter_axis = 1 : tensor<2x8x64xf32> -> tensor<2x2x64xf32>
// CHECK-NEXT: return %[[R]]
// CHECK-NOT: mesh.all_gather

mesh.mesh @mesh(shape = 2x4)
func.func @sequence_parallel(%x: tensor<4x8x64xf32>, %w1: tensor<64x128xf32>, %w2: tensor<128x64xf32>) -> tensor<4x8x64xf32> {
  %act = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %cols = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
  %rows = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
  %zero = arith.constant 0.000000e+00 : f32
  %xs = mesh.shard %x to %act annotate_for_users : tensor<4x8x64xf32>
  %w1s = mesh.shard %w1 to %cols annotate_for_users : tensor<64x128xf32>
  %w2s = mesh.shard %w2 to %rows annotate_for_users : tensor<128x64xf32>
  %e1 = tensor.empty() : tensor<4x8x128xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x8x128xf32>) -> tensor<4x8x128xf32>
  %h = linalg.generic {indexing_maps = [affine_map<(b, s, n, k) -> (b, s, k)>, affine_map<(b, s, n, k) -> (k, n)>, affine_map<(b, s, n, k) -> (b, s, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%xs, %w1s : tensor<4x8x64xf32>, tensor<64x128xf32>) outs(%z1 : tensor<4x8x128xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x8x128xf32>
  %e2 = tensor.empty() : tensor<4x8x64xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(b, s, n, k) -> (b, s, k)>, affine_map<(b, s, n, k) -> (k, n)>, affine_map<(b, s, n, k) -> (b, s, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%h, %w2s : tensor<4x8x128xf32>, tensor<128x64xf32>) outs(%z2 : tensor<4x8x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x8x64xf32>
  %ys = mesh.shard %y to %act : tensor<4x8x64xf32>
  return %ys : tensor<4x8x64xf32>
}
