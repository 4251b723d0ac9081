// mesh-partition alone on kernel gradients (convolutions whose window is
// wider than their outputs; convolution-kernel-gradient.mlir propagates).
// Annotations that split the window's positions with a halo on the input
// give each device its rows and its part of the window, and a partial
// kernel; a kernel annotated split along its spatial rows (the outputs,
// which never split) is computed whole and sliced, and so is a window whose
// positions the annotations split into uneven pieces.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir 2>/dev/null
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f out_split -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f window_split -q --seed 2 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f uneven_window -q --seed 3 | FileCheck %s --check-prefix=SIM
// SIM: match

mesh.mesh @three(shape = 3)
mesh.mesh @line(shape = 4)

// CHECK-LABEL: func.func @out_split(
// CHECK: "stablehlo.convolution"({{.*}} : (tensor<2x8x3xf32>, tensor<2x8x5xf32>) -> tensor<3x3x5xf32>
// CHECK-NEXT: mesh.all_slice %{{.*}} on @three mesh_axes = [0] slice_axis = 0 : tensor<3x3x5xf32> -> tensor<1x3x5xf32>
func.func @out_split(%x: tensor<2x8x3xf32>, %dy: tensor<2x8x5xf32>) -> tensor<3x3x5xf32> {
  %s = mesh.sharding @three split_axes = [[0]] : !mesh.sharding
  %r = mesh.sharding @three split_axes = [[]] : !mesh.sharding
  %x0 = mesh.shard %x to %r annotate_for_users : tensor<2x8x3xf32>
  %dy0 = mesh.shard %dy to %r annotate_for_users : tensor<2x8x5xf32>
  %k = "stablehlo.convolution"(%x0, %dy0) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[f, 0, b]x[i, 0, o]->[0, b, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1>, padding = dense<[[1, 1]]> : tensor<1x2xi64>, rhs_dilation = array<i64: 1>, window_reversal = array<i1: false>, window_strides = array<i64: 1>}> : (tensor<2x8x3xf32>, tensor<2x8x5xf32>) -> tensor<3x3x5xf32>
  %k0 = mesh.shard %k to %s : tensor<3x3x5xf32>
  return %k0 : tensor<3x3x5xf32>
}

// CHECK-LABEL: func.func @window_split(
// CHECK: mesh.update_halo %arg0 into %{{.*}} on @line split_axes = {{\[\[}}], [0]] destination_halo_sizes = [1, 1] : tensor<2x2x3xf32> -> tensor<2x4x3xf32>
// CHECK: "stablehlo.convolution"({{.*}} : (tensor<2x4x3xf32>, tensor<2x2x5xf32>) -> tensor<3x3x5xf32>
// CHECK-NEXT: mesh.all_reduce %{{.*}} on @line mesh_axes = [0] : tensor<3x3x5xf32> -> tensor<3x3x5xf32>
func.func @window_split(%x: tensor<2x8x3xf32>, %dy: tensor<2x8x5xf32>) -> tensor<3x3x5xf32> {
  %s = mesh.sharding @line split_axes = [[], [0]] : !mesh.sharding
  %h = mesh.sharding @line split_axes = [[], [0]] halo_sizes = [1, 1] : !mesh.sharding
  %p = mesh.sharding @line split_axes = [[]] partial = sum [0] : !mesh.sharding
  %r = mesh.sharding @line split_axes = [[]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<2x8x3xf32>
  %x1 = mesh.shard %x0 to %h annotate_for_users : tensor<2x8x3xf32>
  %dy0 = mesh.shard %dy to %s annotate_for_users : tensor<2x8x5xf32>
  %k = "stablehlo.convolution"(%x1, %dy0) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[f, 0, b]x[i, 0, o]->[0, b, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1>, padding = dense<[[1, 1]]> : tensor<1x2xi64>, rhs_dilation = array<i64: 1>, window_reversal = array<i1: false>, window_strides = array<i64: 1>}> : (tensor<2x8x3xf32>, tensor<2x8x5xf32>) -> tensor<3x3x5xf32>
  %k0 = mesh.shard %k to %p : tensor<3x3x5xf32>
  %k1 = mesh.shard %k0 to %r annotate_for_users : tensor<3x3x5xf32>
  return %k1 : tensor<3x3x5xf32>
}

// 3 window positions annotated split over 4 devices: the window is read
// whole (the images' batch, 1 over 4, carries the split).
// CHECK-LABEL: func.func @uneven_window(
// CHECK-NOT: mesh.update_halo
// CHECK: "stablehlo.convolution"({{.*}}x8x1xf32>, tensor<{{.*}}x3x1xf32>) -> tensor<2x1x1xf32>
func.func @uneven_window(%x: tensor<1x8x1xf32>, %dy: tensor<1x3x1xf32>) -> tensor<2x1x1xf32> {
  %s = mesh.sharding @line split_axes = [[], [0]] : !mesh.sharding
  %p = mesh.sharding @line split_axes = [[]] partial = sum [0] : !mesh.sharding
  %r = mesh.sharding @line split_axes = [[]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<1x8x1xf32>
  %x1 = mesh.shard %x0 to %s annotate_for_users : tensor<1x8x1xf32>
  %dy0 = mesh.shard %dy to %s annotate_for_users : tensor<1x3x1xf32>
  %k = "stablehlo.convolution"(%x1, %dy0) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[f, 0, b]x[i, 0, o]->[0, b, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1>, padding = dense<[[-2, -2]]> : tensor<1x2xi64>, rhs_dilation = array<i64: 1>, window_reversal = array<i1: false>, window_strides = array<i64: 1>}> : (tensor<1x8x1xf32>, tensor<1x3x1xf32>) -> tensor<2x1x1xf32>
  %k0 = mesh.shard %k to %p : tensor<2x1x1xf32>
  %k1 = mesh.shard %k0 to %r annotate_for_users : tensor<2x1x1xf32>
  return %k1 : tensor<2x1x1xf32>
}
