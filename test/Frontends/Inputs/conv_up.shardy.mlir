"builtin.module"() <{sym_name = "jit_conv_up"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}, {}]>}], function_type = (tensor<2x8x16x4xf32>, tensor<3x3x4x3xf32>, tensor<3x3x3x3xf32>, tensor<2x16x32x3xf32>) -> (tensor<2x16x32x3xf32>, tensor<2x16x32x3xf32>), res_attrs = [{jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}, {}]>}, {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}, {}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg1: tensor<2x8x16x4xf32>, %arg2: tensor<3x3x4x3xf32>, %arg3: tensor<3x3x3x3xf32>, %arg4: tensor<2x16x32x3xf32>):
    %3 = "stablehlo.convolution"(%arg1, %arg2) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 2, 2>, padding = dense<[[2, 1], [2, 1]]> : tensor<2x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}> : (tensor<2x8x16x4xf32>, tensor<3x3x4x3xf32>) -> tensor<2x16x32x3xf32>
    %4 = "func.call"(%3) <{callee = @relu}> : (tensor<2x16x32x3xf32>) -> tensor<2x16x32x3xf32>
    %5 = "stablehlo.convolution"(%4, %arg3) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}> : (tensor<2x16x32x3xf32>, tensor<3x3x3x3xf32>) -> tensor<2x16x32x3xf32>
    %6 = "stablehlo.convolution"(%arg4, %arg3) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<[[0, 1], [0, 1]]> : tensor<2x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 2, 2>}> : (tensor<2x16x32x3xf32>, tensor<3x3x3x3xf32>) -> tensor<2x8x16x3xf32>
    %7 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %8 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x16x3xf32>
    %9 = "stablehlo.multiply"(%8, %6) : (tensor<2x8x16x3xf32>, tensor<2x8x16x3xf32>) -> tensor<2x8x16x3xf32>
    %10 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x16x3xf32>
    %12 = "stablehlo.multiply"(%11, %9) : (tensor<2x8x16x3xf32>, tensor<2x8x16x3xf32>) -> tensor<2x8x16x3xf32>
    %13 = "stablehlo.reverse"(%arg3) <{dimensions = array<i64: 0, 1>}> : (tensor<3x3x3x3xf32>) -> tensor<3x3x3x3xf32>
    %14 = "stablehlo.convolution"(%12, %13) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 2, 2>, padding = dense<[[2, 1], [2, 1]]> : tensor<2x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}> : (tensor<2x8x16x3xf32>, tensor<3x3x3x3xf32>) -> tensor<2x16x32x3xf32>
    "func.return"(%5, %14) : (tensor<2x16x32x3xf32>, tensor<2x16x32x3xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<2x16x32x3xf32>) -> tensor<2x16x32x3xf32>, res_attrs = [{}], sym_name = "relu", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<2x16x32x3xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x32x3xf32>
    %2 = "stablehlo.maximum"(%arg0, %1) : (tensor<2x16x32x3xf32>, tensor<2x16x32x3xf32>) -> tensor<2x16x32x3xf32>
    "func.return"(%2) : (tensor<2x16x32x3xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
