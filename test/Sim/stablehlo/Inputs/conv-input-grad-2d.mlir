// conv-input-grad-2d: conv_input_grad exported by JAX 0.10.2 (Inputs/export.py); do not edit.
module {
  mesh.mesh @mesh(shape = 2x2)
  func.func public @main(%arg0: tensor<4x5x5x3xf32>, %arg1: tensor<3x3x3x8xf32>) -> tensor<4x5x5x3xf32> {
    %0 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %1 = mesh.shard %arg0 to %0 : tensor<4x5x5x3xf32>
    %2 = mesh.sharding @mesh split_axes = [[], [], [], [1]] : !mesh.sharding
    %3 = mesh.shard %arg1 to %2 : tensor<3x3x3x8xf32>
    %4 = "stablehlo.convolution"(%1, %3) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}> : (tensor<4x5x5x3xf32>, tensor<3x3x3x8xf32>) -> tensor<4x5x5x8xf32>
    %5 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %6 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x5x5x8xf32>
    %7 = "stablehlo.multiply"(%4, %6) : (tensor<4x5x5x8xf32>, tensor<4x5x5x8xf32>) -> tensor<4x5x5x8xf32>
    %8 = "stablehlo.multiply"(%6, %4) : (tensor<4x5x5x8xf32>, tensor<4x5x5x8xf32>) -> tensor<4x5x5x8xf32>
    %9 = "stablehlo.add"(%7, %8) : (tensor<4x5x5x8xf32>, tensor<4x5x5x8xf32>) -> tensor<4x5x5x8xf32>
    %10 = "stablehlo.reverse"(%3) <{dimensions = array<i64: 0, 1>}> : (tensor<3x3x3x8xf32>) -> tensor<3x3x3x8xf32>
    %11 = "stablehlo.convolution"(%9, %10) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}> : (tensor<4x5x5x8xf32>, tensor<3x3x3x8xf32>) -> tensor<4x5x5x3xf32>
    %12 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %13 = mesh.shard %11 to %12 : tensor<4x5x5x3xf32>
    return %13 : tensor<4x5x5x3xf32>
  }
}
