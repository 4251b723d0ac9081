// tosa.conv2d with "same" padding, its output rows split over 4 devices: the
// pieces align (8 input rows, 8 output rows), so the halo is one row each
// side; the devices at the edges pad with the input zero point where the
// global op pads, and the local op has no padding on the split dimension.
// A strided, dilated one splits its columns too; a depthwise one splits
// rows and channels.
// RUN: mesh-opt --sharding-propagation %s | FileCheck %s --check-prefix=PROP
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: mesh-run %t.mlir -f same --compare-with %s --seed 1 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f same --compare-with %s --seed 7 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f strided --compare-with %s --seed 2 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f depthwise --compare-with %s --seed 3 -q | FileCheck %s --check-prefix=SIM
// PROP: mesh.sharding @mesh split_axes = {{\[\[}}], [0]] halo_sizes = [1, 1]
// CHECK-LABEL: func.func @same
// CHECK: mesh.update_halo {{.*}} destination_halo_sizes = [1, 1] : tensor<1x2x8x3xf32> -> tensor<1x4x8x3xf32>
// CHECK: tensor.insert_slice
// CHECK: tosa.conv2d {{.*}} pad = array<i64: 0, 0, 1, 1>{{.*}} -> tensor<1x2x8x4xf32>
// CHECK-LABEL: func.func @strided
// CHECK: mesh.update_halo {{.*}} destination_halo_sizes = [2, 1, 2, 1] : tensor<1x8x8x3xf32> -> tensor<1x11x11x3xf32>
// CHECK: tosa.conv2d {{.*}} pad = array<i64: 0, 0, 0, 0>{{.*}} -> tensor<1x4x4x4xf32>
// CHECK-LABEL: func.func @depthwise
// CHECK: tosa.depthwise_conv2d {{.*}} -> tensor<1x4x8x4xf32>
// SIM: match

mesh.mesh @mesh(shape = 4)
mesh.mesh @mesh2(shape = 2x2)

func.func @same(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x8x8x4xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<1x8x8x3xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %c = tosa.conv2d %xs, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x4xf32>
  %cs = mesh.shard %c to %s : tensor<1x8x8x4xf32>
  return %cs : tensor<1x8x8x4xf32>
}

// 16x16 input, kernel 3, dilation 2, stride 2, pad 2 on each side: 8x8 outputs.
func.func @strided(%x: tensor<1x16x16x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x8x8x4xf32> {
  %s = mesh.sharding @mesh2 split_axes = [[], [0], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<1x16x16x3xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %c = tosa.conv2d %xs, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 2, 2>, pad = array<i64: 2, 1, 2, 1>, stride = array<i64: 2, 2>}
      : (tensor<1x16x16x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x4xf32>
  %cs = mesh.shard %c to %s : tensor<1x8x8x4xf32>
  return %cs : tensor<1x8x8x4xf32>
}

func.func @depthwise(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x2xf32>, %b: tensor<8xf32>) -> tensor<1x8x8x8xf32> {
  %s = mesh.sharding @mesh2 split_axes = [[], [0], [], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<1x8x8x4xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %c = tosa.depthwise_conv2d %xs, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : (tensor<1x8x8x4xf32>, tensor<3x3x4x2xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x8xf32>
  %cs = mesh.shard %c to %s : tensor<1x8x8x8xf32>
  return %cs : tensor<1x8x8x8xf32>
}
