// conv-depthwise-1d: depthwise exported by JAX 0.10.2 (Inputs/export.py); do not edit.
module {
  mesh.mesh @mesh(shape = 2)
  func.func public @main(%arg0: tensor<4x5x5x4xf32>, %arg1: tensor<3x3x1x4xf32>) -> tensor<4x5x5x4xf32> {
    %0 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %1 = mesh.shard %arg0 to %0 : tensor<4x5x5x4xf32>
    %2 = mesh.sharding @mesh split_axes = [] : !mesh.sharding
    %3 = mesh.shard %arg1 to %2 : tensor<3x3x1x4xf32>
    %4 = "stablehlo.convolution"(%1, %3) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 4 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<[[2, 2], [1, 1]]> : tensor<2x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 2, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}> : (tensor<4x5x5x4xf32>, tensor<3x3x1x4xf32>) -> tensor<4x5x5x4xf32>
    %5 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %6 = mesh.shard %4 to %5 : tensor<4x5x5x4xf32>
    return %6 : tensor<4x5x5x4xf32>
  }
}
