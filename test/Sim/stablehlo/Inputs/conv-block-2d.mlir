// conv-block-2d: conv_block exported by JAX 0.10.2 (Inputs/export.py); do not edit.
module {
  mesh.mesh @mesh(shape = 2x2)
  func.func public @main(%arg0: tensor<4x6x6x3xf32>, %arg1: tensor<3x3x3x8xf32>, %arg2: tensor<8xf32>, %arg3: tensor<1x1x8x5xf32>) -> tensor<4x6x6x5xf32> {
    %0 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %1 = mesh.shard %arg0 to %0 : tensor<4x6x6x3xf32>
    %2 = mesh.sharding @mesh split_axes = [[], [], [], [1]] : !mesh.sharding
    %3 = mesh.shard %arg1 to %2 : tensor<3x3x3x8xf32>
    %4 = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
    %5 = mesh.shard %arg2 to %4 : tensor<8xf32>
    %6 = mesh.sharding @mesh split_axes = [[], [], [1]] : !mesh.sharding
    %7 = mesh.shard %arg3 to %6 : tensor<1x1x8x5xf32>
    %8 = "stablehlo.convolution"(%1, %3) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}> : (tensor<4x6x6x3xf32>, tensor<3x3x3x8xf32>) -> tensor<4x6x6x8xf32>
    %9 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64: 3>}> : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x1x8xf32>) -> tensor<4x6x6x8xf32>
    %11 = "stablehlo.add"(%8, %10) : (tensor<4x6x6x8xf32>, tensor<4x6x6x8xf32>) -> tensor<4x6x6x8xf32>
    %12 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %13 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x6x6x8xf32>
    %14 = "stablehlo.maximum"(%11, %13) : (tensor<4x6x6x8xf32>, tensor<4x6x6x8xf32>) -> tensor<4x6x6x8xf32>
    %15 = "stablehlo.convolution"(%14, %7) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<0> : tensor<2x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}> : (tensor<4x6x6x8xf32>, tensor<1x1x8x5xf32>) -> tensor<4x6x6x5xf32>
    %16 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %17 = mesh.shard %15 to %16 : tensor<4x6x6x5xf32>
    return %17 : tensor<4x6x6x5xf32>
  }
}
