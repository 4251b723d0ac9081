// A convolution split over its sequence needs halo cells past the edges
// filled with zeros, which arith cannot write for complex, quantized or
// signed/unsigned integer elements: such a convolution keeps its spatial
// dimensions whole (the process aborted building an integer zero of a
// complex type, and partition emitted an invalid constant for ui32).
// RUN: mesh-opt --split-input-file --sharding-propagation --mesh-partition %s 2>/dev/null | FileCheck %s

mesh.mesh @mesh(shape = 4)

// CHECK-LABEL: func.func @complex(
// CHECK: mesh.all_gather %arg0 on @mesh mesh_axes = [0] gather_axis = 1 : tensor<2x4x4xcomplex<f32>> -> tensor<2x16x4xcomplex<f32>>
// CHECK-NOT: mesh.update_halo
func.func @complex(%x: tensor<2x16x4xcomplex<f32>>, %w: tensor<3x4x6xcomplex<f32>>) -> tensor<2x16x6xcomplex<f32>> {
  %s = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<2x16x4xcomplex<f32>>
  %y = "stablehlo.convolution"(%x0, %w) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1>, padding = dense<[[2, 0]]> : tensor<1x2xi64>, rhs_dilation = array<i64: 1>, window_reversal = array<i1: false>, window_strides = array<i64: 1>}> : (tensor<2x16x4xcomplex<f32>>, tensor<3x4x6xcomplex<f32>>) -> tensor<2x16x6xcomplex<f32>>
  %y0 = mesh.shard %y to %s : tensor<2x16x6xcomplex<f32>>
  return %y0 : tensor<2x16x6xcomplex<f32>>
}

// -----

mesh.mesh @mesh(shape = 4)

// CHECK-LABEL: func.func @unsigned(
// CHECK: mesh.all_gather %arg0 on @mesh mesh_axes = [0] gather_axis = 1 : tensor<2x4x4xui32> -> tensor<2x16x4xui32>
// CHECK-NOT: mesh.update_halo
func.func @unsigned(%x: tensor<2x16x4xui32>, %w: tensor<3x4x6xui32>) -> tensor<2x16x6xui32> {
  %s = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<2x16x4xui32>
  %y = "stablehlo.convolution"(%x0, %w) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1>, padding = dense<[[2, 0]]> : tensor<1x2xi64>, rhs_dilation = array<i64: 1>, window_reversal = array<i1: false>, window_strides = array<i64: 1>}> : (tensor<2x16x4xui32>, tensor<3x4x6xui32>) -> tensor<2x16x6xui32>
  %y0 = mesh.shard %y to %s : tensor<2x16x6xui32>
  return %y0 : tensor<2x16x6xui32>
}
