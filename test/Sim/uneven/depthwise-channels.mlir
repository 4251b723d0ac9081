// A tosa.depthwise_conv2d whose channels are cut unevenly, partitioned
// alone (no propagation): the operands partition reshards itself take the
// channel loop's cut, scaled to their size (C*M output channels).  Needs
// the simulator's tosa convolutions to run on a dynamic channel count.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir
// RUN: mesh-run %t.mlir -f input_cut --compare-with %s -q --seed 0 | FileCheck %s
// RUN: mesh-run %t.mlir -f input_cut --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f result_cut --compare-with %s -q --seed 0 | FileCheck %s
// RUN: mesh-run %t.mlir -f result_cut --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f mesh_2x2 --compare-with %s -q --seed 0 | FileCheck %s
// RUN: mesh-run %t.mlir -f mesh_2x2 --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f both_axes --compare-with %s -q --seed 0 | FileCheck %s
// RUN: mesh-run %t.mlir -f both_axes --compare-with %s -q --seed 1 | FileCheck %s
// CHECK: match

mesh.mesh @m2(shape = 2)
mesh.mesh @m(shape = 2x2)

// 3 input channels arrive cut 1, 2; the 6 outputs are annotated 2, 4.
func.func @input_cut(%x: tensor<1x4x4x3xf32>, %w: tensor<3x3x3x2xf32>, %b: tensor<6xf32>) -> tensor<1x4x4x6xf32> {
  %s = mesh.sharding @m2 split_axes = [[], [], [], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<1x4x4x3xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %c = tosa.depthwise_conv2d %xs, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : (tensor<1x4x4x3xf32>, tensor<3x3x3x2xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x6xf32>
  %s2 = mesh.sharding @m2 split_axes = [[], [], [], [0]] sharded_dims_offsets = [0, 2, 6] : !mesh.sharding
  %cs = mesh.shard %c to %s2 : tensor<1x4x4x6xf32>
  return %cs : tensor<1x4x4x6xf32>
}

// Only the result is annotated, 4, 2: input and weights are cut 2, 1.
func.func @result_cut(%x: tensor<1x4x4x3xf32>, %w: tensor<3x3x3x2xf32>, %b: tensor<6xf32>) -> tensor<1x4x4x6xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %c = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : (tensor<1x4x4x3xf32>, tensor<3x3x3x2xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x6xf32>
  %s2 = mesh.sharding @m2 split_axes = [[], [], [], [0]] sharded_dims_offsets = [0, 4, 6] : !mesh.sharding
  %cs = mesh.shard %c to %s2 : tensor<1x4x4x6xf32>
  return %cs : tensor<1x4x4x6xf32>
}

// 2x2: the batch split evenly over axis 0, 5 channels by default over axis 1 (2, 3).
func.func @mesh_2x2(%x: tensor<2x5x5x5xf32>, %w: tensor<3x3x5x2xf32>, %b: tensor<10xf32>) -> tensor<2x5x5x10xf32> {
  %s = mesh.sharding @m split_axes = [[0], [], [], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<2x5x5x5xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %c = tosa.depthwise_conv2d %xs, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : (tensor<2x5x5x5xf32>, tensor<3x3x5x2xf32>, tensor<10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x5x5x10xf32>
  %s2 = mesh.sharding @m split_axes = [[0], [], [], [1]] sharded_dims_offsets = [0, 1, 2, 0, 4, 10] : !mesh.sharding
  %cs = mesh.shard %c to %s2 : tensor<2x5x5x10xf32>
  return %cs : tensor<2x5x5x10xf32>
}

// 2x2: the channels over both axes, 5 by default (1, 1, 1, 2), outputs 2, 2, 2, 4.
func.func @both_axes(%x: tensor<1x4x4x5xf32>, %w: tensor<3x3x5x2xf32>, %b: tensor<10xf32>) -> tensor<1x2x4x10xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %c = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 1, 1>, stride = array<i64: 1, 1>}
      : (tensor<1x4x4x5xf32>, tensor<3x3x5x2xf32>, tensor<10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x4x10xf32>
  %s2 = mesh.sharding @m split_axes = [[], [], [], [0, 1]] sharded_dims_offsets = [0, 2, 4, 6, 10] : !mesh.sharding
  %cs = mesh.shard %c to %s2 : tensor<1x2x4x10xf32>
  return %cs : tensor<1x2x4x10xf32>
}
