"builtin.module"() <{sym_name = "jit_pool_conv_uneven"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {}]>}], function_type = (tensor<4x12x16xf32>, tensor<16x16xf32>, tensor<3x16x16xf32>) -> tensor<4x16xf32>, res_attrs = [{jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg1: tensor<4x12x16xf32>, %arg2: tensor<16x16xf32>, %arg3: tensor<3x16x16xf32>):
    %3 = "stablehlo.dot_general"(%arg1, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x12x16xf32>, tensor<16x16xf32>) -> tensor<4x12x16xf32>
    %4 = "stablehlo.tanh"(%3) : (tensor<4x12x16xf32>) -> tensor<4x12x16xf32>
    %5 = "stablehlo.slice"(%4) <{limit_indices = array<i64: 4, 10, 16>, start_indices = array<i64: 0, 0, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<4x12x16xf32>) -> tensor<4x10x16xf32>
    %6 = "sdy.sharding_constraint"(%5) <{sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}, {}]>}> : (tensor<4x10x16xf32>) -> tensor<4x10x16xf32>
    %7 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %8 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<f32>
    %9 = "stablehlo.reduce_window"(%6, %8) <{base_dilations = array<i64: 1, 1, 1>, padding = dense<[[0, 0], [1, 1], [0, 0]]> : tensor<3x2xi64>, window_dilations = array<i64: 1, 1, 1>, window_dimensions = array<i64: 1, 3, 1>, window_strides = array<i64: 1, 1, 1>}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %24 = "stablehlo.add"(%arg6, %arg7) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%24) : (tensor<f32>) -> ()
    }) : (tensor<4x10x16xf32>, tensor<f32>) -> tensor<4x10x16xf32>
    %10 = "stablehlo.constant"() <{value = dense<3.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x10x16xf32>
    %12 = "stablehlo.divide"(%9, %11) : (tensor<4x10x16xf32>, tensor<4x10x16xf32>) -> tensor<4x10x16xf32>
    %13 = "stablehlo.add"(%12, %6) : (tensor<4x10x16xf32>, tensor<4x10x16xf32>) -> tensor<4x10x16xf32>
    %14 = "stablehlo.convolution"(%13, %arg3) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1>, padding = dense<1> : tensor<1x2xi64>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>], rhs_dilation = array<i64: 1>, window_reversal = array<i1: false>, window_strides = array<i64: 1>}> : (tensor<4x10x16xf32>, tensor<3x16x16xf32>) -> tensor<4x10x16xf32>
    %15 = "func.call"(%14) <{callee = @relu}> : (tensor<4x10x16xf32>) -> tensor<4x10x16xf32>
    %16 = "stablehlo.add"(%15, %6) : (tensor<4x10x16xf32>, tensor<4x10x16xf32>) -> tensor<4x10x16xf32>
    %17 = "sdy.sharding_constraint"(%16) <{sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}, {}]>}> : (tensor<4x10x16xf32>) -> tensor<4x10x16xf32>
    %18 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %19 = "stablehlo.reduce"(%17, %18) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %23 = "stablehlo.add"(%arg4, %arg5) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%23) : (tensor<f32>) -> ()
    }) : (tensor<4x10x16xf32>, tensor<f32>) -> tensor<4x16xf32>
    %20 = "stablehlo.constant"() <{value = dense<1.000000e+01> : tensor<f32>}> : () -> tensor<f32>
    %21 = "stablehlo.broadcast_in_dim"(%20) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16xf32>
    %22 = "stablehlo.divide"(%19, %21) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    "func.return"(%22) : (tensor<4x16xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<4x10x16xf32>) -> tensor<4x10x16xf32>, res_attrs = [{}], sym_name = "relu", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<4x10x16xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x10x16xf32>
    %2 = "stablehlo.maximum"(%arg0, %1) : (tensor<4x10x16xf32>, tensor<4x10x16xf32>) -> tensor<4x10x16xf32>
    "func.return"(%2) : (tensor<4x10x16xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
