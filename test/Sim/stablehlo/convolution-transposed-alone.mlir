// A transposed convolution under partition alone, whose annotations split
// its dilated dimension where the pieces cannot read their rows alike (or
// are uneven): the op runs whole there, its input gathered and its result
// sliced, as propagation would plan it, instead of a refusal.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir 2>/dev/null
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f odd_pieces -q --seed 1 2>/dev/null | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f uneven_outputs -q --seed 2 2>/dev/null | FileCheck %s --check-prefix=SIM
// SIM: match

mesh.mesh @line(shape = 4)

// 12 outputs of 8 rows dilated by 2, over 4 devices: pieces of 3 outputs
// would start on a row and between two in turn.
// CHECK-LABEL: func.func @odd_pieces(
// CHECK: mesh.all_gather %arg0 on @line mesh_axes = [0] gather_axis = 1 : tensor<2x2x3xf32> -> tensor<2x8x3xf32>
// CHECK: "stablehlo.convolution"({{.*}} : (tensor<2x8x3xf32>, tensor<4x3x5xf32>) -> tensor<2x12x5xf32>
// CHECK: mesh.all_slice
func.func @odd_pieces(%x: tensor<2x8x3xf32>, %w: tensor<4x3x5xf32>) -> tensor<2x12x5xf32> {
  %s = mesh.sharding @line split_axes = [[], [0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<2x8x3xf32>
  %x1 = mesh.shard %x0 to %s annotate_for_users : tensor<2x8x3xf32>
  %y = "stablehlo.convolution"(%x1, %w) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 2>, padding = dense<[[0, 0]]> : tensor<1x2xi64>, rhs_dilation = array<i64: 1>, window_reversal = array<i1: false>, window_strides = array<i64: 1>}> : (tensor<2x8x3xf32>, tensor<4x3x5xf32>) -> tensor<2x12x5xf32>
  %y0 = mesh.shard %y to %s : tensor<2x12x5xf32>
  return %y0 : tensor<2x12x5xf32>
}

// 15 outputs over 4 devices: uneven pieces, which halos do not take.
// CHECK-LABEL: func.func @uneven_outputs(
// CHECK: mesh.all_gather %arg0 on @line mesh_axes = [0] gather_axis = 1 : tensor<2x2x3xf32> -> tensor<2x8x3xf32>
// CHECK: "stablehlo.convolution"({{.*}} : (tensor<2x8x3xf32>, tensor<3x3x5xf32>) -> tensor<2x15x5xf32>
func.func @uneven_outputs(%x: tensor<2x8x3xf32>, %w: tensor<3x3x5xf32>) -> tensor<2x15x5xf32> {
  %s = mesh.sharding @line split_axes = [[], [0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<2x8x3xf32>
  %x1 = mesh.shard %x0 to %s annotate_for_users : tensor<2x8x3xf32>
  %y = "stablehlo.convolution"(%x1, %w) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 2>, padding = dense<[[1, 1]]> : tensor<1x2xi64>, rhs_dilation = array<i64: 1>, window_reversal = array<i1: false>, window_strides = array<i64: 1>}> : (tensor<2x8x3xf32>, tensor<3x3x5xf32>) -> tensor<2x15x5xf32>
  %y0 = mesh.shard %y to %s : tensor<2x15x5xf32>
  return %y0 : tensor<2x15x5xf32>
}
