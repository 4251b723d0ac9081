"builtin.module"() <{sym_name = "jit_mlp2"}> ({
  "func.func"() <{arg_attrs = [{mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}, {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}], function_type = (tensor<8x16xf32>, tensor<16x32xf32>, tensor<32x16xf32>, tensor<16x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>, res_attrs = [{jax.result_info = "result", mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}], sym_name = "main", sym_visibility = "public"}> ({
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
