// stablehlo.convolution with a dilated input (`lhs_dilation`: a transposed
// convolution, an upsampling layer, a strided convolution's input
// gradient) split over its spatial dimensions.  Each output piece reads a
// run of input rows spread `lhs_dilation` apart: where every piece's
// outputs move a whole number of rows, each device gets its rows and a
// halo (one update_halo) and convolves them with the same dilation and the
// padding between its window's edges and its first and last rows.  Pieces
// that would read their rows at different places (3 outputs of an input
// dilated by 2) are not split that way: the input is gathered (under
// partition alone too: convolution-transposed-alone.mlir).
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f upsample -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f sequence -q --seed 2 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f odd_pieces -q --seed 3 2>/dev/null | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f rows_by_three -q --seed 4 | FileCheck %s --check-prefix=SIM
// SIM: match

mesh.mesh @mesh(shape = 2x2)
mesh.mesh @line(shape = 4)
mesh.mesh @mesh24(shape = 2x4)

// JAX's conv_transpose of stride 2 ("SAME"): 8x8 rows and columns become
// 16x16; device (i, j) computes outputs 8i.. and 8j.. from rows 4i-1 ..
// 4i+3, so one halo row and column before its own.
// CHECK-LABEL: func.func @upsample(
// CHECK: mesh.update_halo %arg0 into %{{.*}} on @mesh split_axes = {{\[\[}}], [0], [1]] destination_halo_sizes = [1, 0, 1, 0] : tensor<2x4x4x4xf32> -> tensor<2x5x5x4xf32>
// CHECK: "stablehlo.convolution"({{.*}}lhs_dilation = array<i64: 2, 2>, padding = dense<{{\[\[}}0, 1], [0, 1]]> : tensor<2x2xi64>{{.*}} : (tensor<2x5x5x4xf32>, tensor<3x3x4x3xf32>) -> tensor<2x8x8x3xf32>
// CHECK-NOT: mesh.all_
func.func @upsample(%x: tensor<2x8x8x4xf32>, %w: tensor<3x3x4x3xf32>) -> tensor<2x16x16x3xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [0], [1]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<2x8x8x4xf32>
  %y = "stablehlo.convolution"(%x0, %w) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 2, 2>, padding = dense<[[2, 1], [2, 1]]> : tensor<2x2xi64>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}> : (tensor<2x8x8x4xf32>, tensor<3x3x4x3xf32>) -> tensor<2x16x16x3xf32>
  %y0 = mesh.shard %y to %s : tensor<2x16x16x3xf32>
  return %y0 : tensor<2x16x16x3xf32>
}

// A 1-D sequence upsampled 8 -> 16 over 4 devices: device p computes
// outputs 4p .. 4p+3 from rows 2p .. 2p+2, one halo row after its own.
// CHECK-LABEL: func.func @sequence(
// CHECK: mesh.update_halo %arg0 into %{{.*}} on @line split_axes = {{\[\[}}], [0]] destination_halo_sizes = [0, 1] : tensor<2x2x3xf32> -> tensor<2x3x3xf32>
// CHECK: "stablehlo.convolution"({{.*}}lhs_dilation = array<i64: 2>, padding = dense<{{\[\[}}1, 0]]> : tensor<1x2xi64>{{.*}} : (tensor<2x3x3xf32>, tensor<3x3x5xf32>) -> tensor<2x4x5xf32>
// CHECK-NOT: mesh.all_
func.func @sequence(%x: tensor<2x8x3xf32>, %w: tensor<3x3x5xf32>) -> tensor<2x16x5xf32> {
  %s = mesh.sharding @line split_axes = [[], [0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<2x8x3xf32>
  %y = "stablehlo.convolution"(%x0, %w) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 2>, padding = dense<[[1, 2]]> : tensor<1x2xi64>, rhs_dilation = array<i64: 1>, window_reversal = array<i1: false>, window_strides = array<i64: 1>}> : (tensor<2x8x3xf32>, tensor<3x3x5xf32>) -> tensor<2x16x5xf32>
  %y0 = mesh.shard %y to %s : tensor<2x16x5xf32>
  return %y0 : tensor<2x16x5xf32>
}

// 12 outputs of 8 rows dilated by 2, over 4 devices: pieces of 3 outputs
// start on a row and between two in turn.
// CHECK-LABEL: func.func @odd_pieces(
// CHECK: mesh.all_gather %arg0 on @line mesh_axes = [0] gather_axis = 1 : tensor<2x2x3xf32> -> tensor<2x8x3xf32>
// CHECK: "stablehlo.convolution"({{.*}} : (tensor<2x8x3xf32>, tensor<4x3x5xf32>) -> tensor<2x12x5xf32>
// CHECK: mesh.all_slice
func.func @odd_pieces(%x: tensor<2x8x3xf32>, %w: tensor<4x3x5xf32>) -> tensor<2x12x5xf32> {
  %s = mesh.sharding @line split_axes = [[], [0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<2x8x3xf32>
  %y = "stablehlo.convolution"(%x0, %w) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 2>, padding = dense<[[0, 0]]> : tensor<1x2xi64>, rhs_dilation = array<i64: 1>, window_reversal = array<i1: false>, window_strides = array<i64: 1>}> : (tensor<2x8x3xf32>, tensor<4x3x5xf32>) -> tensor<2x12x5xf32>
  %y0 = mesh.shard %y to %s : tensor<2x12x5xf32>
  return %y0 : tensor<2x12x5xf32>
}

// Rows dilated by 3 (20 outputs, uneven over 2) beside columns split with
// halos: the rows' split moves to the batch (one all_to_all) and the
// columns keep theirs (one update_halo), where both were gathered.
// CHECK-LABEL: func.func @rows_by_three(
// CHECK-NOT: mesh.all_gather
// CHECK: mesh.all_to_all %arg0 on @mesh24 mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<2x4x2x1xf32> -> tensor<1x8x2x1xf32>
// CHECK: mesh.update_halo %{{.*}} on @mesh24 split_axes = {{\[\[}}0], [], [1]] destination_halo_sizes = [0, 0, 1, 1] : tensor<1x8x2x1xf32> -> tensor<1x8x4x1xf32>
// CHECK-NOT: mesh.all_gather
// CHECK: return
func.func @rows_by_three(%x: tensor<2x8x8x1xf32>, %w: tensor<3x3x1x2xf32>) -> tensor<2x20x8x2xf32> {
  %s = mesh.sharding @mesh24 split_axes = [[], [0], [1]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<2x8x8x1xf32>
  %y = "stablehlo.convolution"(%x0, %w) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 3, 1>, padding = dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}> : (tensor<2x8x8x1xf32>, tensor<3x3x1x2xf32>) -> tensor<2x20x8x2xf32>
  return %y : tensor<2x20x8x2xf32>
}
