// A convolution reads a window across pieces: its loops are not split (no
// halo exchange yet): every device computes the whole output and keeps its
// piece.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q | FileCheck %s
// CHECK: match

mesh.mesh @mesh(shape = 2)
func.func @conv(%x: tensor<10xf32>, %w: tensor<3xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %c = linalg.conv_1d ins(%x, %w : tensor<10xf32>, tensor<3xf32>) outs(%z : tensor<8xf32>) -> tensor<8xf32>
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %c0 = mesh.shard %c to %s : tensor<8xf32>
  return %c0 : tensor<8xf32>
}
