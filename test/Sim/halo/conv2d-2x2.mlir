// A 2-D convolution whose output rows and columns are split over a 2x2 mesh:
// each device computes its 4x4 tile of the 8x8 output from a 6x6 window of
// the 10x10 input.  Its input tile is 5x5, so the window reaches one row and
// column into a neighbour on one side (which side depends on the device):
// halos of 1 on both sides of both dimensions, one mesh.update_halo (corners
// included), then a slice whose offsets depend on the device.
// RUN: mesh-opt --sharding-propagation %s | FileCheck %s --check-prefix=PROP
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: mesh-run %t.mlir --compare-with %s --seed 1 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s --seed 2 -q | FileCheck %s --check-prefix=SIM
// PROP: mesh.sharding @mesh split_axes = {{\[\[}}], [0], [1]] halo_sizes = [1, 1, 1, 1]
// CHECK: mesh.update_halo %{{.*}} split_axes = {{\[\[}}], [0], [1]] destination_halo_sizes = [1, 1, 1, 1] : tensor<1x5x5x3xf32> -> tensor<1x7x7x3xf32>
// CHECK: tensor.extract_slice {{.*}} : tensor<1x7x7x3xf32> to tensor<1x6x6x3xf32>
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x6x6x3xf32>, tensor<3x3x3x4xf32>) outs(%{{.*}} : tensor<1x4x4x4xf32>)
// SIM: match

mesh.mesh @mesh(shape = 2x2)
func.func @conv(%x: tensor<1x10x10x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [0], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<1x10x10x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %c = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%xs, %w : tensor<1x10x10x3xf32>, tensor<3x3x3x4xf32>) outs(%z : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %cs = mesh.shard %c to %s : tensor<1x8x8x4xf32>
  return %cs : tensor<1x8x8x4xf32>
}
