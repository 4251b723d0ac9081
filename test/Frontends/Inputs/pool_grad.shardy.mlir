"builtin.module"() <{sym_name = "jit_pool_grad"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}, {}]>}], function_type = (tensor<2x16x16x4xf32>, tensor<3x3x4x8xf32>) -> (tensor<2x16x16x4xf32>, tensor<3x3x4x8xf32>), res_attrs = [{jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, [{}, {"data"}, {"model"}, {}]>}, {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}, {}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg1: tensor<2x16x16x4xf32>, %arg2: tensor<3x3x4x8xf32>):
    %3 = "stablehlo.convolution"(%arg1, %arg2) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}> : (tensor<2x16x16x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x16x16x8xf32>
    %4 = "func.call"(%3) <{callee = @relu}> : (tensor<2x16x16x8xf32>) -> tensor<2x16x16x8xf32>
    %5 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %6 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x16x8xf32>
    %7 = "stablehlo.compare"(%3, %6) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<2x16x16x8xf32>, tensor<2x16x16x8xf32>) -> tensor<2x16x16x8xi1>
    %8 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %9 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<f32>
    %10 = "stablehlo.reduce_window"(%4, %9) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %30 = "stablehlo.maximum"(%arg7, %arg8) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%30) : (tensor<f32>) -> ()
    }) : (tensor<2x16x16x8xf32>, tensor<f32>) -> tensor<2x8x8x8xf32>
    %11 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %12 = "stablehlo.broadcast_in_dim"(%11) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x8x8xf32>
    %13 = "stablehlo.multiply"(%12, %10) : (tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
    %14 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %15 = "stablehlo.broadcast_in_dim"(%14) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x8x8xf32>
    %16 = "stablehlo.multiply"(%15, %13) : (tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
    %17 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %18 = "stablehlo.pad"(%4, %17) <{edge_padding_high = array<i64: 0, 0, 0, 0>, edge_padding_low = array<i64: 0, 0, 0, 0>, interior_padding = array<i64: 0, 0, 0, 0>}> : (tensor<2x16x16x8xf32>, tensor<f32>) -> tensor<2x16x16x8xf32>
    %19 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %20 = "stablehlo.select_and_scatter"(%18, %16, %19) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %29 = "stablehlo.compare"(%arg5, %arg6) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "stablehlo.return"(%29) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %28 = "stablehlo.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%28) : (tensor<f32>) -> ()
    }) : (tensor<2x16x16x8xf32>, tensor<2x8x8x8xf32>, tensor<f32>) -> tensor<2x16x16x8xf32>
    %21 = "stablehlo.slice"(%20) <{limit_indices = array<i64: 2, 16, 16, 8>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<2x16x16x8xf32>) -> tensor<2x16x16x8xf32>
    %22 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %23 = "stablehlo.broadcast_in_dim"(%22) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x16x8xf32>
    %24 = "stablehlo.select"(%7, %21, %23) : (tensor<2x16x16x8xi1>, tensor<2x16x16x8xf32>, tensor<2x16x16x8xf32>) -> tensor<2x16x16x8xf32>
    %25 = "stablehlo.convolution"(%arg1, %24) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}> : (tensor<2x16x16x4xf32>, tensor<2x16x16x8xf32>) -> tensor<3x3x4x8xf32>
    %26 = "stablehlo.reverse"(%arg2) <{dimensions = array<i64: 0, 1>}> : (tensor<3x3x4x8xf32>) -> tensor<3x3x4x8xf32>
    %27 = "stablehlo.convolution"(%24, %26) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}> : (tensor<2x16x16x8xf32>, tensor<3x3x4x8xf32>) -> tensor<2x16x16x4xf32>
    "func.return"(%27, %25) : (tensor<2x16x16x4xf32>, tensor<3x3x4x8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<2x16x16x8xf32>) -> tensor<2x16x16x8xf32>, res_attrs = [{}], sym_name = "relu", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<2x16x16x8xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x16x16x8xf32>
    %2 = "stablehlo.maximum"(%arg0, %1) : (tensor<2x16x16x8xf32>, tensor<2x16x16x8xf32>) -> tensor<2x16x16x8xf32>
    "func.return"(%2) : (tensor<2x16x16x8xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
