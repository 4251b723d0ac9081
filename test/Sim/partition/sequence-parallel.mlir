// Megatron's sequence parallelism on a 2x4 mesh: the activations arrive with
// their rows split over both axes, the MLP's weights over axis 1 (columns,
// then rows).  The plan gathers the rows over axis 1 only, runs both matmuls
// with rows over axis 0 and the hidden dimension over axis 1, and
// reduce-scatters the rows back: 3,072 bytes a device, where gathering the
// rows whole and running the MLP on all 16 rows everywhere moved 5,120.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=SIM
// RUN: mesh-opt --pass-pipeline='builtin.module(mesh-analysis{format=json})' %t.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BYTES
// SIM: match
// BYTES: "bytes_received": 3072
// CHECK-LABEL: func.func @sequence_parallel
// CHECK: mesh.all_gather %arg0 on @mesh mesh_axes = [1] gather_axis = 0 : tensor<2x64xf32> -> tensor<8x64xf32>
// CHECK: linalg.matmul {{.*}} -> tensor<8x32xf32>
// CHECK: linalg.matmul {{.*}} -> tensor<8x64xf32>
// CHECK: mesh.reduce_scatter %{{.*}} on @mesh mesh_axes = [1] scatter_axis = 0 : tensor<8x64xf32> -> tensor<2x64xf32>
// CHECK-NOT: mesh.all_gather

mesh.mesh @mesh(shape = 2x4)
func.func @sequence_parallel(%x: tensor<16x64xf32>, %w1: tensor<64x128xf32>, %w2: tensor<128x64xf32>) -> tensor<16x64xf32> {
  %seq = mesh.sharding @mesh split_axes = [[0, 1]] : !mesh.sharding
  %cols = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
  %rows = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
  %zero = arith.constant 0.000000e+00 : f32
  %xs = mesh.shard %x to %seq annotate_for_users : tensor<16x64xf32>
  %w1s = mesh.shard %w1 to %cols annotate_for_users : tensor<64x128xf32>
  %w2s = mesh.shard %w2 to %rows annotate_for_users : tensor<128x64xf32>
  %e1 = tensor.empty() : tensor<16x128xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x128xf32>) -> tensor<16x128xf32>
  %h = linalg.matmul ins(%xs, %w1s : tensor<16x64xf32>, tensor<64x128xf32>) outs(%f1 : tensor<16x128xf32>) -> tensor<16x128xf32>
  %e2 = tensor.empty() : tensor<16x64xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %y = linalg.matmul ins(%h, %w2s : tensor<16x128xf32>, tensor<128x64xf32>) outs(%f2 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %ys = mesh.shard %y to %seq : tensor<16x64xf32>
  return %ys : tensor<16x64xf32>
}
