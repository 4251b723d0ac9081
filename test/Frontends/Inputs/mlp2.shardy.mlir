"builtin.module"() <{sym_name = "jit_mlp2"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}], function_type = (tensor<8x16xf32>, tensor<16x32xf32>, tensor<32x16xf32>, tensor<16x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>, res_attrs = [{jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg1: tensor<8x16xf32>, %arg2: tensor<16x32xf32>, %arg3: tensor<32x16xf32>, %arg4: tensor<16x32xf32>, %arg5: tensor<32x16xf32>):
    %3 = "stablehlo.dot_general"(%arg1, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %4 = "func.call"(%3) <{callee = @relu}> : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %5 = "stablehlo.dot_general"(%4, %arg3) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
    %6 = "stablehlo.dot_general"(%5, %arg4) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %7 = "func.call"(%6) <{callee = @relu}> : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %8 = "stablehlo.dot_general"(%7, %arg5) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
    "func.return"(%8) : (tensor<8x16xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<8x32xf32>) -> tensor<8x32xf32>, res_attrs = [{}], sym_name = "relu", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<8x32xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %2 = "stablehlo.maximum"(%arg0, %1) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    "func.return"(%2) : (tensor<8x32xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
