// conv-weight-grad-1d: conv_weight_grad exported by JAX 0.10.2 (Inputs/export.py); do not edit.
module {
  mesh.mesh @mesh(shape = 2)
  func.func public @main(%arg0: tensor<4x3x7x7xf32>, %arg1: tensor<6x3x3x3xf32>) -> tensor<6x3x3x3xf32> {
    %0 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %1 = mesh.shard %arg0 to %0 : tensor<4x3x7x7xf32>
    %2 = mesh.sharding @mesh split_axes = [] : !mesh.sharding
    %3 = mesh.shard %arg1 to %2 : tensor<6x3x3x3xf32>
    %4 = "stablehlo.convolution"(%1, %3) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<[[1, 0], [1, 0]]> : tensor<2x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 2, 2>}> : (tensor<4x3x7x7xf32>, tensor<6x3x3x3xf32>) -> tensor<4x6x3x3xf32>
    %5 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %6 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x6x3x3xf32>
    %7 = "stablehlo.multiply"(%4, %6) : (tensor<4x6x3x3xf32>, tensor<4x6x3x3xf32>) -> tensor<4x6x3x3xf32>
    %8 = "stablehlo.multiply"(%6, %4) : (tensor<4x6x3x3xf32>, tensor<4x6x3x3xf32>) -> tensor<4x6x3x3xf32>
    %9 = "stablehlo.add"(%7, %8) : (tensor<4x6x3x3xf32>, tensor<4x6x3x3xf32>) -> tensor<4x6x3x3xf32>
    %10 = "stablehlo.convolution"(%1, %9) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[f, b, 0, 1]x[i, o, 0, 1]->[f, b, 0, 1]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<[[1, -1], [1, -1]]> : tensor<2x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 2, 2>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}> : (tensor<4x3x7x7xf32>, tensor<4x6x3x3xf32>) -> tensor<6x3x3x3xf32>
    %11 = mesh.sharding @mesh split_axes = [] : !mesh.sharding
    %12 = mesh.shard %10 to %11 : tensor<6x3x3x3xf32>
    return %12 : tensor<6x3x3x3xf32>
  }
}
