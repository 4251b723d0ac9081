// Convolutions split over features (Megatron's split for convolutions): the
// first kernel's output features and the second's input features are split
// over the mesh, so each device computes its own 8 of the 16 feature maps,
// and the second convolution contracts them into a partial sum of 4
// features that one all_reduce adds (less than gathering the feature maps).
// Integers: the partitioned program gives the same bits.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 5 | FileCheck %s --check-prefix=SIM
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
