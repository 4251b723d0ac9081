// mlp-1d: mlp exported by JAX 0.10.2 (Inputs/export.py); do not edit.
module {
  mesh.mesh @mesh(shape = 2)
  func.func public @main(%arg0: tensor<8x16xf32>, %arg1: tensor<16x32xf32>, %arg2: tensor<32x16xf32>) -> tensor<8x16xf32> {
    %0 = mesh.sharding @mesh split_axes = [] : !mesh.sharding
    %1 = mesh.shard %arg0 to %0 : tensor<8x16xf32>
    %2 = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
    %3 = mesh.shard %arg1 to %2 : tensor<16x32xf32>
    %4 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %5 = mesh.shard %arg2 to %4 : tensor<32x16xf32>
    %6 = "stablehlo.dot_general"(%1, %3) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %7 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %8 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %9 = "stablehlo.maximum"(%6, %8) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %10 = "stablehlo.dot_general"(%9, %5) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
    %11 = mesh.sharding @mesh split_axes = [] : !mesh.sharding
    %12 = mesh.shard %10 to %11 : tensor<8x16xf32>
    return %12 : tensor<8x16xf32>
  }
}
