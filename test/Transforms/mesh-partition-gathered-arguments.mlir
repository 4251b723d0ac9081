// Gathering a function argument that arrives split (usually a weight) whole
// on every device is warned about at the annotation that asks for it, with
// the bytes each device receives; a split argument kept split, or an argument
// that arrives whole (full-arguments), is not.
// RUN: mesh-opt --split-input-file --verify-diagnostics --mesh-partition %s
// RUN: mesh-opt --split-input-file --pass-pipeline='builtin.module(mesh-partition{full-arguments=true})' %s 2>&1 >/dev/null | FileCheck %s --check-prefix=FULL --allow-empty
// FULL-NOT: warning

mesh.mesh @mesh(shape = 4)
func.func @weight(%x: tensor<8x64xf32>, %w: tensor<64x32xf32>) -> tensor<8x32xf32> {
  %sw = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %r = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %w0 = mesh.shard %w to %sw : tensor<64x32xf32>
  // expected-warning@+1 {{function argument 1 (tensor<64x32xf32>, split_axes = [[0]]) is gathered whole on every device here: 6144 bytes received per device}}
  %w1 = mesh.shard %w0 to %r annotate_for_users : tensor<64x32xf32>
  %z = tensor.empty() : tensor<8x32xf32>
  %m = linalg.matmul ins(%x, %w1 : tensor<8x64xf32>, tensor<64x32xf32>) outs(%z : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %m : tensor<8x32xf32>
}

// -----

mesh.mesh @mesh(shape = 4)
func.func @kept_split(%w: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %sw = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %sc = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %w0 = mesh.shard %w to %sw : tensor<64x32xf32>
  %w1 = mesh.shard %w0 to %sc annotate_for_users : tensor<64x32xf32>
  %d = arith.addf %w1, %w1 : tensor<64x32xf32>
  %d0 = mesh.shard %d to %sc : tensor<64x32xf32>
  return %d0 : tensor<64x32xf32>
}
