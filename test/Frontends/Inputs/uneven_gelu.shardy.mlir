"builtin.module"() <{sym_name = "jit_uneven_gelu"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}], function_type = (tensor<8x16xf32>, tensor<16x10xf32>, tensor<10x16xf32>) -> tensor<8x16xf32>, res_attrs = [{jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x16xf32>, %arg1: tensor<16x10xf32>, %arg2: tensor<10x16xf32>):
    %0 = "sdy.sharding_constraint"(%arg1) <{sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}> : (tensor<16x10xf32>) -> tensor<16x10xf32>
    %1 = "sdy.sharding_constraint"(%arg2) <{sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}> : (tensor<10x16xf32>) -> tensor<10x16xf32>
    %2 = "stablehlo.dot_general"(%arg0, %0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x16xf32>, tensor<16x10xf32>) -> tensor<8x10xf32>
    %3 = "stablehlo.multiply"(%2, %2) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %4 = "stablehlo.multiply"(%3, %2) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %5 = "stablehlo.constant"() <{value = dense<4.471500e-02> : tensor<f32>}> : () -> tensor<f32>
    %6 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x10xf32>
    %7 = "stablehlo.multiply"(%6, %4) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %8 = "stablehlo.add"(%2, %7) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %9 = "stablehlo.constant"() <{value = dense<0.797884583> : tensor<f32>}> : () -> tensor<f32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x10xf32>
    %11 = "stablehlo.multiply"(%10, %8) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %12 = "stablehlo.tanh"(%11) : (tensor<8x10xf32>) -> tensor<8x10xf32>
    %13 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %14 = "stablehlo.broadcast_in_dim"(%13) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x10xf32>
    %15 = "stablehlo.add"(%14, %12) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %16 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %17 = "stablehlo.broadcast_in_dim"(%16) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x10xf32>
    %18 = "stablehlo.multiply"(%17, %15) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %19 = "stablehlo.multiply"(%2, %18) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %20 = "sdy.sharding_constraint"(%19) <{sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}> : (tensor<8x10xf32>) -> tensor<8x10xf32>
    %21 = "stablehlo.dot_general"(%20, %1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x10xf32>, tensor<10x16xf32>) -> tensor<8x16xf32>
    "func.return"(%21) : (tensor<8x16xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
