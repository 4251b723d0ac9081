"builtin.module"() <{sym_name = "jit_attention"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}, {}]>}], function_type = (tensor<2x8x16xf32>, tensor<16x4x4xf32>, tensor<16x4x4xf32>, tensor<16x4x4xf32>, tensor<4x4x16xf32>) -> tensor<2x8x16xf32>, res_attrs = [{jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<2x8x16xf32>, %arg1: tensor<16x4x4xf32>, %arg2: tensor<16x4x4xf32>, %arg3: tensor<16x4x4xf32>, %arg4: tensor<4x4x16xf32>):
    %0 = "stablehlo.dot_general"(%arg1, %arg0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x4x4xf32>, tensor<2x8x16xf32>) -> tensor<4x4x2x8xf32>
    %1 = "stablehlo.transpose"(%0) <{permutation = array<i64: 2, 0, 3, 1>}> : (tensor<4x4x2x8xf32>) -> tensor<2x4x8x4xf32>
    %2 = "stablehlo.dot_general"(%arg2, %arg0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x4x4xf32>, tensor<2x8x16xf32>) -> tensor<4x4x2x8xf32>
    %3 = "stablehlo.transpose"(%2) <{permutation = array<i64: 2, 0, 3, 1>}> : (tensor<4x4x2x8xf32>) -> tensor<2x4x8x4xf32>
    %4 = "stablehlo.dot_general"(%arg3, %arg0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x4x4xf32>, tensor<2x8x16xf32>) -> tensor<4x4x2x8xf32>
    %5 = "stablehlo.transpose"(%4) <{permutation = array<i64: 2, 0, 3, 1>}> : (tensor<4x4x2x8xf32>) -> tensor<2x4x8x4xf32>
    %6 = "stablehlo.dot_general"(%1, %3) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x4x8x4xf32>, tensor<2x4x8x4xf32>) -> tensor<2x4x8x8xf32>
    %7 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %8 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x8x8xf32>
    %9 = "stablehlo.divide"(%6, %8) : (tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %10 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %11 = "stablehlo.reduce"(%9, %10) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %28 = "stablehlo.maximum"(%arg7, %arg8) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%28) : (tensor<f32>) -> ()
    }) : (tensor<2x4x8x8xf32>, tensor<f32>) -> tensor<2x4x8xf32>
    %12 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %13 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x8xf32>
    %14 = "stablehlo.maximum"(%13, %11) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    %15 = "stablehlo.broadcast_in_dim"(%14) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x4x8xf32>) -> tensor<2x4x8x1xf32>
    %16 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x4x8x1xf32>) -> tensor<2x4x8x8xf32>
    %17 = "stablehlo.subtract"(%9, %16) : (tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %18 = "stablehlo.exponential"(%17) : (tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %19 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %20 = "stablehlo.reduce"(%18, %19) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %27 = "stablehlo.add"(%arg5, %arg6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%27) : (tensor<f32>) -> ()
    }) : (tensor<2x4x8x8xf32>, tensor<f32>) -> tensor<2x4x8xf32>
    %21 = "stablehlo.broadcast_in_dim"(%20) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x4x8xf32>) -> tensor<2x4x8x1xf32>
    %22 = "stablehlo.broadcast_in_dim"(%21) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x4x8x1xf32>) -> tensor<2x4x8x8xf32>
    %23 = "stablehlo.divide"(%18, %22) : (tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %24 = "stablehlo.dot_general"(%23, %5) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x4x8x8xf32>, tensor<2x4x8x4xf32>) -> tensor<2x4x8x4xf32>
    %25 = "sdy.sharding_constraint"(%24) <{sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}, {}, {}]>}> : (tensor<2x4x8x4xf32>) -> tensor<2x4x8x4xf32>
    %26 = "stablehlo.dot_general"(%25, %arg4) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1, 3], rhs_contracting_dimensions = [0, 1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x4x8x4xf32>, tensor<4x4x16xf32>) -> tensor<2x8x16xf32>
    "func.return"(%26) : (tensor<2x8x16xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
