"builtin.module"() <{sym_name = "jit_uneven_gelu"}> ({
  "func.func"() <{arg_attrs = [{mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}, {mhlo.sharding = "{replicated}"}, {mhlo.sharding = "{replicated}"}], function_type = (tensor<8x16xf32>, tensor<16x10xf32>, tensor<10x16xf32>) -> tensor<8x16xf32>, res_attrs = [{jax.result_info = "result", mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x16xf32>, %arg1: tensor<16x10xf32>, %arg2: tensor<10x16xf32>):
    %0 = "stablehlo.custom_call"(%arg1) <{api_version = 1 : i32, backend_config = "", call_target_name = "Sharding", called_computations = [], has_side_effect = false}> {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"} : (tensor<16x10xf32>) -> tensor<16x10xf32>
    %1 = "stablehlo.custom_call"(%arg2) <{api_version = 1 : i32, backend_config = "", call_target_name = "Sharding", called_computations = [], has_side_effect = false}> {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"} : (tensor<10x16xf32>) -> tensor<10x16xf32>
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
    %20 = "stablehlo.custom_call"(%19) <{api_version = 1 : i32, backend_config = "", call_target_name = "Sharding", called_computations = [], has_side_effect = false}> {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"} : (tensor<8x10xf32>) -> tensor<8x10xf32>
    %21 = "stablehlo.dot_general"(%20, %1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x10xf32>, tensor<10x16xf32>) -> tensor<8x16xf32>
    "func.return"(%21) : (tensor<8x16xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
