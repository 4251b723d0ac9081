// stablehlo.convolution split over its spatial dimensions: each output
// spatial loop reads its input dimension through a window, so a split image
// gets halo rows from its neighbours (one update_halo), rows past the edges
// are the padding's zeros, and the local convolution is left no padding on
// the split dimensions.  A depthwise convolution (one channel per group)
// splits over its channels, each device convolving its own channels with a
// feature_group_count of its channel count.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f same -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f strided_dilated -q --seed 2 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f causal -q --seed 3 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f depthwise -q --seed 4 | FileCheck %s --check-prefix=SIM
// SIM: match

mesh.mesh @mesh(shape = 2x2)
mesh.mesh @line(shape = 4)

// CHECK-LABEL: func.func @same(
// CHECK-SAME: %arg0: tensor<2x4x4x3xf32>
// CHECK: mesh.update_halo %arg0 into %{{.*}} on @mesh split_axes = {{\[\[}}], [0], [1]] destination_halo_sizes = [1, 1, 1, 1] : tensor<2x4x4x3xf32> -> tensor<2x6x6x3xf32>
// CHECK: "stablehlo.convolution"({{.*}}padding = dense<0> : tensor<2x2xi64>{{.*}} : (tensor<2x6x6x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x4x4x4xf32>
// CHECK-NOT: mesh.all_
func.func @same(%x: tensor<2x8x8x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<2x8x8x4xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [0], [1]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<2x8x8x3xf32>
  %y = "stablehlo.convolution"(%x0, %w) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}> : (tensor<2x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x8x8x4xf32>
  %y0 = mesh.shard %y to %s : tensor<2x8x8x4xf32>
  return %y0 : tensor<2x8x8x4xf32>
}

// NCHW, stride 2 over the rows and a dilated kernel over the columns.
// CHECK-LABEL: func.func @strided_dilated(
// CHECK: mesh.update_halo
// CHECK-NOT: mesh.all_
func.func @strided_dilated(%x: tensor<2x3x16x12xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<2x4x8x12xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [], [0], [1]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<2x3x16x12xf32>
  %y = "stablehlo.convolution"(%x0, %w) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<[[0, 1], [2, 2]]> : tensor<2x2xi64>, rhs_dilation = array<i64: 1, 2>, window_reversal = array<i1: false, false>, window_strides = array<i64: 2, 1>}> : (tensor<2x3x16x12xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x8x12xf32>
  %y0 = mesh.shard %y to %s : tensor<2x4x8x12xf32>
  return %y0 : tensor<2x4x8x12xf32>
}

// A causal 1-D convolution over a sequence split 4 ways: padding only
// before, so each device needs the 2 rows before its own.
// CHECK-LABEL: func.func @causal(
// CHECK: mesh.update_halo %arg0 into %{{.*}} on @line split_axes = {{\[\[}}], [0]] destination_halo_sizes = [2, 0] : tensor<2x4x8xf32> -> tensor<2x6x8xf32>
// CHECK-NOT: mesh.all_
func.func @causal(%x: tensor<2x16x8xf32>, %w: tensor<3x8x8xf32>) -> tensor<2x16x8xf32> {
  %s = mesh.sharding @line split_axes = [[], [0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<2x16x8xf32>
  %y = "stablehlo.convolution"(%x0, %w) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1>, padding = dense<[[2, 0]]> : tensor<1x2xi64>, rhs_dilation = array<i64: 1>, window_reversal = array<i1: false>, window_strides = array<i64: 1>}> : (tensor<2x16x8xf32>, tensor<3x8x8xf32>) -> tensor<2x16x8xf32>
  %y0 = mesh.shard %y to %s : tensor<2x16x8xf32>
  return %y0 : tensor<2x16x8xf32>
}

// CHECK-LABEL: func.func @depthwise(
// CHECK-NOT: mesh.all_
// CHECK: "stablehlo.convolution"({{.*}}feature_group_count = 4 : i64{{.*}} : (tensor<2x6x6x4xf32>, tensor<3x3x1x4xf32>) -> tensor<2x6x6x4xf32>
// CHECK-NOT: mesh.all_
func.func @depthwise(%x: tensor<4x6x6x8xf32>, %w: tensor<3x3x1x8xf32>) -> tensor<4x6x6x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0], [], [], [1]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<4x6x6x8xf32>
  %ws = mesh.sharding @mesh split_axes = [[], [], [], [1]] : !mesh.sharding
  %w0 = mesh.shard %w to %ws : tensor<3x3x1x8xf32>
  %y = "stablehlo.convolution"(%x0, %w0) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 8 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}> : (tensor<4x6x6x8xf32>, tensor<3x3x1x8xf32>) -> tensor<4x6x6x8xf32>
  %y0 = mesh.shard %y to %s : tensor<4x6x6x8xf32>
  return %y0 : tensor<4x6x6x8xf32>
}
