"builtin.module"() <{sym_name = "jit_mlp_grad"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}], function_type = (tensor<16x32xf32>, tensor<32x64xf32>, tensor<64x32xf32>, tensor<16x32xf32>) -> (tensor<32x64xf32>, tensor<64x32xf32>), res_attrs = [{jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg1: tensor<16x32xf32>, %arg2: tensor<32x64xf32>, %arg3: tensor<64x32xf32>, %arg4: tensor<16x32xf32>):
    %3 = "stablehlo.dot_general"(%arg1, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
    %4 = "func.call"(%3) <{callee = @relu}> : (tensor<16x64xf32>) -> tensor<16x64xf32>
    %5 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %6 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x64xf32>
    %7 = "stablehlo.compare"(%3, %6) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xi1>
    %8 = "stablehlo.dot_general"(%4, %arg3) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
    %9 = "stablehlo.subtract"(%8, %arg4) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %10 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x32xf32>
    %12 = "stablehlo.multiply"(%11, %9) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %13 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %14 = "stablehlo.constant"() <{value = dense<5.120000e+02> : tensor<f32>}> : () -> tensor<f32>
    %15 = "stablehlo.divide"(%13, %14) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %16 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x32xf32>
    %17 = "stablehlo.multiply"(%16, %12) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %18 = "stablehlo.dot_general"(%17, %4) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x32xf32>, tensor<16x64xf32>) -> tensor<32x64xf32>
    %19 = "stablehlo.transpose"(%18) <{permutation = array<i64: 1, 0>}> : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %20 = "stablehlo.dot_general"(%17, %arg3) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x32xf32>, tensor<64x32xf32>) -> tensor<16x64xf32>
    %21 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %22 = "stablehlo.broadcast_in_dim"(%21) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x64xf32>
    %23 = "stablehlo.select"(%7, %20, %22) : (tensor<16x64xi1>, tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %24 = "stablehlo.dot_general"(%23, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x64xf32>, tensor<16x32xf32>) -> tensor<64x32xf32>
    %25 = "stablehlo.transpose"(%24) <{permutation = array<i64: 1, 0>}> : (tensor<64x32xf32>) -> tensor<32x64xf32>
    "func.return"(%25, %19) : (tensor<32x64xf32>, tensor<64x32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<16x64xf32>) -> tensor<16x64xf32>, res_attrs = [{}], sym_name = "relu", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<16x64xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x64xf32>
    %2 = "stablehlo.maximum"(%arg0, %1) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    "func.return"(%2) : (tensor<16x64xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
