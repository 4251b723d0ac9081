// attention-1d: attention exported by JAX 0.10.2 (Inputs/export.py); do not edit.
module {
  mesh.mesh @mesh(shape = 2)
  func.func public @main(%arg0: tensor<2x8x16xf32>, %arg1: tensor<2x8x16xf32>, %arg2: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
    %0 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %1 = mesh.shard %arg0 to %0 : tensor<2x8x16xf32>
    %2 = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
    %3 = mesh.shard %arg1 to %2 : tensor<2x8x16xf32>
    %4 = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
    %5 = mesh.shard %arg2 to %4 : tensor<2x8x16xf32>
    %6 = "stablehlo.dot_general"(%1, %3) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x8xf32>
    %7 = "stablehlo.constant"() <{value = dense<4.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %8 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x8xf32>
    %9 = "stablehlo.divide"(%6, %8) : (tensor<2x8x8xf32>, tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
    %10 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %11 = "stablehlo.reduce"(%9, %10) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %27 = "stablehlo.maximum"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%27) : (tensor<f32>) -> ()
    }) : (tensor<2x8x8xf32>, tensor<f32>) -> tensor<2x8xf32>
    %12 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %13 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8xf32>
    %14 = "stablehlo.maximum"(%13, %11) : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
    %15 = "stablehlo.broadcast_in_dim"(%14) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %16 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
    %17 = "stablehlo.subtract"(%9, %16) : (tensor<2x8x8xf32>, tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
    %18 = "stablehlo.exponential"(%17) : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
    %19 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %20 = "stablehlo.reduce"(%18, %19) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %27 = "stablehlo.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%27) : (tensor<f32>) -> ()
    }) : (tensor<2x8x8xf32>, tensor<f32>) -> tensor<2x8xf32>
    %21 = "stablehlo.broadcast_in_dim"(%20) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %22 = "stablehlo.broadcast_in_dim"(%21) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x8x1xf32>) -> tensor<2x8x8xf32>
    %23 = "stablehlo.divide"(%18, %22) : (tensor<2x8x8xf32>, tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
    %24 = "stablehlo.dot_general"(%23, %5) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x8xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    %25 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %26 = mesh.shard %24 to %25 : tensor<2x8x16xf32>
    return %26 : tensor<2x8x16xf32>
  }
}
