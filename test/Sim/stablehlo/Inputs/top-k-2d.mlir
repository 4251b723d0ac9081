// top-k-2d: moe_routing exported by JAX 0.10.2 (Inputs/export.py); do not edit.
module {
  mesh.mesh @mesh(shape = 2x2)
  func.func public @main(%arg0: tensor<16x8xf32>, %arg1: tensor<8x4xf32>, %arg2: tensor<4x8x16xf32>) -> tensor<16x16xf32> {
    %0 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %1 = mesh.shard %arg0 to %0 : tensor<16x8xf32>
    %2 = mesh.sharding @mesh split_axes = [] : !mesh.sharding
    %3 = mesh.shard %arg1 to %2 : tensor<8x4xf32>
    %4 = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
    %5 = mesh.shard %arg2 to %4 : tensor<4x8x16xf32>
    %6 = "stablehlo.dot_general"(%1, %3) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x8xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
    %7:2 = "chlo.top_k"(%6) <{k = 2 : i64}> : (tensor<16x4xf32>) -> (tensor<16x2xf32>, tensor<16x2xi32>)
    %8 = "stablehlo.broadcast_in_dim"(%7#1) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x2xi32>) -> tensor<16x2x1xi32>
    %9 = "stablehlo.iota"() <{iota_dimension = 2 : i64}> : () -> tensor<1x1x4xi32>
    %10 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<16x2x1xi32>) -> tensor<16x2x4xi32>
    %11 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x4xi32>) -> tensor<16x2x4xi32>
    %12 = "stablehlo.compare"(%10, %11) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<16x2x4xi32>, tensor<16x2x4xi32>) -> tensor<16x2x4xi1>
    %13 = "stablehlo.convert"(%12) : (tensor<16x2x4xi1>) -> tensor<16x2x4xf32>
    %14 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %15 = "stablehlo.reduce"(%7#0, %14) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %33 = "stablehlo.maximum"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%33) : (tensor<f32>) -> ()
    }) : (tensor<16x2xf32>, tensor<f32>) -> tensor<16xf32>
    %16 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %17 = "stablehlo.broadcast_in_dim"(%16) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %18 = "stablehlo.maximum"(%17, %15) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %19 = "stablehlo.broadcast_in_dim"(%18) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %20 = "stablehlo.broadcast_in_dim"(%19) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x2xf32>
    %21 = "stablehlo.subtract"(%7#0, %20) : (tensor<16x2xf32>, tensor<16x2xf32>) -> tensor<16x2xf32>
    %22 = "stablehlo.exponential"(%21) : (tensor<16x2xf32>) -> tensor<16x2xf32>
    %23 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %24 = "stablehlo.reduce"(%22, %23) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %33 = "stablehlo.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%33) : (tensor<f32>) -> ()
    }) : (tensor<16x2xf32>, tensor<f32>) -> tensor<16xf32>
    %25 = "stablehlo.broadcast_in_dim"(%24) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %26 = "stablehlo.broadcast_in_dim"(%25) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x2xf32>
    %27 = "stablehlo.divide"(%22, %26) : (tensor<16x2xf32>, tensor<16x2xf32>) -> tensor<16x2xf32>
    %28 = "stablehlo.dot_general"(%27, %13) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x2xf32>, tensor<16x2x4xf32>) -> tensor<16x4xf32>
    %29 = "stablehlo.dot_general"(%1, %5) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x8xf32>, tensor<4x8x16xf32>) -> tensor<16x4x16xf32>
    %30 = "stablehlo.dot_general"(%28, %29) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x4xf32>, tensor<16x4x16xf32>) -> tensor<16x16xf32>
    %31 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %32 = mesh.shard %30 to %31 : tensor<16x16xf32>
    return %32 : tensor<16x16xf32>
  }
}
