"builtin.module"() <{sym_name = "jit_conv2d"}> ({
  "func.func"() <{arg_attrs = [{mhlo.sharding = "{devices=[1,2,4,1]<=[8]}"}, {mhlo.sharding = "{replicated}"}, {mhlo.sharding = "{replicated}"}], function_type = (tensor<2x8x16x3xf32>, tensor<3x3x3x4xf32>, tensor<4x4x3x4xf32>) -> (tensor<2x8x16x4xf32>, tensor<2x4x8x4xf32>, tensor<2x8x16x4xf32>, tensor<2x8x16x3xf32>), res_attrs = [{jax.result_info = "result[0]", mhlo.sharding = "{devices=[1,2,4,1]<=[8]}"}, {jax.result_info = "result[1]", mhlo.sharding = "{devices=[1,2,4,1]<=[8]}"}, {jax.result_info = "result[2]", mhlo.sharding = "{devices=[1,2,4,1]<=[8]}"}, {jax.result_info = "result[3]", mhlo.sharding = "{devices=[1,2,4,1]<=[8]}"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<2x8x16x3xf32>, %arg1: tensor<3x3x3x4xf32>, %arg2: tensor<4x4x3x4xf32>):
    %0 = "stablehlo.convolution"(%arg0, %arg1) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}> : (tensor<2x8x16x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x8x16x4xf32>
    %1 = "stablehlo.convolution"(%arg0, %arg2) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 2, 2>}> : (tensor<2x8x16x3xf32>, tensor<4x4x3x4xf32>) -> tensor<2x4x8x4xf32>
    %2 = "stablehlo.convolution"(%arg0, %arg1) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<2> : tensor<2x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 2, 2>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}> : (tensor<2x8x16x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x8x16x4xf32>
    %3 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %4 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<f32>
    %5 = "stablehlo.reduce_window"(%arg0, %4) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 1, 1, 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %9 = "stablehlo.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%9) : (tensor<f32>) -> ()
    }) : (tensor<2x8x16x3xf32>, tensor<f32>) -> tensor<2x8x16x3xf32>
    %6 = "stablehlo.constant"() <{value = dense<9.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x16x3xf32>
    %8 = "stablehlo.divide"(%5, %7) : (tensor<2x8x16x3xf32>, tensor<2x8x16x3xf32>) -> tensor<2x8x16x3xf32>
    "func.return"(%0, %1, %2, %8) : (tensor<2x8x16x4xf32>, tensor<2x4x8x4xf32>, tensor<2x8x16x4xf32>, tensor<2x8x16x3xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
