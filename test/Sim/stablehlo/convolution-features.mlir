// Convolutions split over features (Megatron's split for convolutions): the
// first kernel's output features and the second's input features are split
// over the mesh, so each device computes its own 8 of the 16 feature maps,
// and the second convolution contracts them into a partial sum of 4
// features that one all_reduce adds (less than gathering the feature maps).
// Integers: the partitioned program gives the same bits.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f block -q --seed 5 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f batch_groups -q --seed 6 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f depthwise_multiplier -q --seed 7 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f one_output_per_group -q --seed 8 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f depthwise_kernel_gradient -q --seed 9 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f batch_groups_of_two -q --seed 10 | FileCheck %s --check-prefix=SIM
// SIM: match

mesh.mesh @mesh(shape = 2)

// CHECK-LABEL: func.func @block(
// CHECK-SAME: %arg1: tensor<3x3x4x8xi32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}], [], [], [0]]>}
// CHECK-SAME: %arg2: tensor<1x1x8x4xi32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}], [], [0]]>}
// CHECK-NOT: mesh.all_
// CHECK: %[[Y:.*]] = "stablehlo.convolution"(%arg0, %arg1) {{.*}} : (tensor<2x5x5x4xi32>, tensor<3x3x4x8xi32>) -> tensor<2x5x5x8xi32>
// CHECK: %[[Z:.*]] = "stablehlo.convolution"(%{{.*}}, %arg2) {{.*}} : (tensor<2x5x5x8xi32>, tensor<1x1x8x4xi32>) -> tensor<2x5x5x4xi32>
// CHECK: mesh.all_reduce %[[Z]] on @mesh mesh_axes = [0] : tensor<2x5x5x4xi32> -> tensor<2x5x5x4xi32>
// CHECK-NOT: mesh.all_
func.func @block(%x: tensor<2x5x5x4xi32>, %k1: tensor<3x3x4x16xi32>, %k2: tensor<1x1x16x4xi32>) -> tensor<2x5x5x4xi32> {
  %s0 = mesh.sharding @mesh split_axes = [] : !mesh.sharding
  %s1 = mesh.sharding @mesh split_axes = [[], [], [], [0]] : !mesh.sharding
  %s2 = mesh.sharding @mesh split_axes = [[], [], [0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s0 : tensor<2x5x5x4xi32>
  %k10 = mesh.shard %k1 to %s1 : tensor<3x3x4x16xi32>
  %k20 = mesh.shard %k2 to %s2 : tensor<1x1x16x4xi32>
  %y = "stablehlo.convolution"(%x0, %k10) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}> : (tensor<2x5x5x4xi32>, tensor<3x3x4x16xi32>) -> tensor<2x5x5x16xi32>
  %z = "stablehlo.convolution"(%y, %k20) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<0> : tensor<2x2xi64>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}> : (tensor<2x5x5x16xi32>, tensor<1x1x16x4xi32>) -> tensor<2x5x5x4xi32>
  %z0 = mesh.shard %z to %s0 : tensor<2x5x5x4xi32>
  return %z0 : tensor<2x5x5x4xi32>
}

// Batch groups (JAX's depthwise kernel gradient: the groups are the
// channels, the features it contracts the examples): every group sums over
// all the input features, so features split by data parallelism leave a
// partial sum that one all_reduce adds.
// CHECK-LABEL: func.func @batch_groups(
// CHECK: %[[G:.*]] = "stablehlo.convolution"({{.*}}batch_group_count = 2 : i64{{.*}} : (tensor<4x5x3xi32>, tensor<3x3x4xi32>) -> tensor<2x3x4xi32>
// CHECK: mesh.all_reduce %[[G]] on @mesh mesh_axes = [0] : tensor<2x3x4xi32> -> tensor<2x3x4xi32>
func.func @batch_groups(%x: tensor<4x5x6xi32>, %k: tensor<3x6x4xi32>) -> tensor<2x3x4xi32> {
  %s0 = mesh.sharding @mesh split_axes = [] : !mesh.sharding
  %s = mesh.sharding @mesh split_axes = [[], [], [0]] : !mesh.sharding
  %ks = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<4x5x6xi32>
  %k0 = mesh.shard %k to %ks : tensor<3x6x4xi32>
  %y = "stablehlo.convolution"(%x0, %k0) <{batch_group_count = 2 : i64, dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, window_strides = array<i64: 1>}> : (tensor<4x5x6xi32>, tensor<3x6x4xi32>) -> tensor<2x3x4xi32>
  %y0 = mesh.shard %y to %s0 : tensor<2x3x4xi32>
  return %y0 : tensor<2x3x4xi32>
}

// Groups of one input channel (a depthwise convolution with a channel
// multiplier of 2, MobileNet's depth_multiplier: 4 channels in, 8 out) or
// of one output channel (2 in, 1 out) split along the groups as the
// channels are: each device convolves its own 2 groups, with no collective
// (they were gathered whole).
// CHECK-LABEL: func.func @depthwise_multiplier(
// CHECK-NOT: mesh.all_
// CHECK: "stablehlo.convolution"({{.*}}feature_group_count = 2 : i64{{.*}} : (tensor<2x5x5x2xi32>, tensor<3x3x1x4xi32>) -> tensor<2x5x5x4xi32>
// CHECK-NOT: mesh.all_
// CHECK: return
func.func @depthwise_multiplier(%x: tensor<2x5x5x4xi32>, %k: tensor<3x3x1x8xi32>) -> tensor<2x5x5x8xi32> {
  %s = mesh.sharding @mesh split_axes = [[], [], [], [0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<2x5x5x4xi32>
  %k0 = mesh.shard %k to %s : tensor<3x3x1x8xi32>
  %y = "stablehlo.convolution"(%x0, %k0) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 4 : i64, padding = dense<1> : tensor<2x2xi64>, window_strides = array<i64: 1, 1>}> : (tensor<2x5x5x4xi32>, tensor<3x3x1x8xi32>) -> tensor<2x5x5x8xi32>
  %y0 = mesh.shard %y to %s : tensor<2x5x5x8xi32>
  return %y0 : tensor<2x5x5x8xi32>
}

// CHECK-LABEL: func.func @one_output_per_group(
// CHECK-NOT: mesh.all_
// CHECK: "stablehlo.convolution"({{.*}}feature_group_count = 2 : i64{{.*}} : (tensor<2x5x5x4xi32>, tensor<3x3x2x2xi32>) -> tensor<2x5x5x2xi32>
// CHECK-NOT: mesh.all_
// CHECK: return
func.func @one_output_per_group(%x: tensor<2x5x5x8xi32>, %k: tensor<3x3x2x4xi32>) -> tensor<2x5x5x4xi32> {
  %s = mesh.sharding @mesh split_axes = [[], [], [], [0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<2x5x5x8xi32>
  %k0 = mesh.shard %k to %s : tensor<3x3x2x4xi32>
  %y = "stablehlo.convolution"(%x0, %k0) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 4 : i64, padding = dense<1> : tensor<2x2xi64>, window_strides = array<i64: 1, 1>}> : (tensor<2x5x5x8xi32>, tensor<3x3x2x4xi32>) -> tensor<2x5x5x4xi32>
  %y0 = mesh.shard %y to %s : tensor<2x5x5x4xi32>
  return %y0 : tensor<2x5x5x4xi32>
}

// The depthwise kernel's gradient as JAX writes it, one example per batch
// group (the channels the batch, the examples the features it sums): the
// channels split with the output features, each device its own 2 of 4,
// with no collective.
// CHECK-LABEL: func.func @depthwise_kernel_gradient(
// CHECK-NOT: mesh.all_
// CHECK: "stablehlo.convolution"({{.*}}batch_group_count = 2 : i64{{.*}} : (tensor<3x5x5x2xi32>, tensor<3x5x5x2xi32>) -> tensor<3x3x1x2xi32>
// CHECK-NOT: mesh.all_
// CHECK: return
func.func @depthwise_kernel_gradient(%x: tensor<3x5x5x4xi32>, %dy: tensor<3x5x5x4xi32>) -> tensor<3x3x1x4xi32> {
  %s = mesh.sharding @mesh split_axes = [[], [], [], [0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<3x5x5x4xi32>
  %d0 = mesh.shard %dy to %s : tensor<3x5x5x4xi32>
  %g = "stablehlo.convolution"(%x0, %d0) <{batch_group_count = 4 : i64, dimension_numbers = #stablehlo.conv<[f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f]>, feature_group_count = 1 : i64, padding = dense<1> : tensor<2x2xi64>, window_strides = array<i64: 1, 1>}> : (tensor<3x5x5x4xi32>, tensor<3x5x5x4xi32>) -> tensor<3x3x1x4xi32>
  %g0 = mesh.shard %g to %s : tensor<3x3x1x4xi32>
  return %g0 : tensor<3x3x1x4xi32>
}

// Batch groups of two examples and one output channel each: the batch
// splits in whole groups with the output channels.
// CHECK-LABEL: func.func @batch_groups_of_two(
// CHECK-NOT: mesh.all_
// CHECK: "stablehlo.convolution"({{.*}}batch_group_count = 2 : i64{{.*}} : (tensor<3x5x5x4xi32>, tensor<3x5x5x2xi32>) -> tensor<3x3x2x2xi32>
// CHECK-NOT: mesh.all_
// CHECK: return
func.func @batch_groups_of_two(%x: tensor<3x5x5x8xi32>, %dy: tensor<3x5x5x4xi32>) -> tensor<3x3x2x4xi32> {
  %s = mesh.sharding @mesh split_axes = [[], [], [], [0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<3x5x5x8xi32>
  %d0 = mesh.shard %dy to %s : tensor<3x5x5x4xi32>
  %g = "stablehlo.convolution"(%x0, %d0) <{batch_group_count = 4 : i64, dimension_numbers = #stablehlo.conv<[f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f]>, feature_group_count = 1 : i64, padding = dense<1> : tensor<2x2xi64>, window_strides = array<i64: 1, 1>}> : (tensor<3x5x5x8xi32>, tensor<3x5x5x4xi32>) -> tensor<3x3x2x4xi32>
  %g0 = mesh.shard %g to %s : tensor<3x3x2x4xi32>
  return %g0 : tensor<3x3x2x4xi32>
}
