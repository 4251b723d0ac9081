"builtin.module"() <{sym_name = "jit_reshard"}> ({
  "func.func"() <{arg_attrs = [{mhlo.sharding = "{devices=[2,4]<=[8]}"}], function_type = (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>), res_attrs = [{jax.result_info = "result[0]", mhlo.sharding = "{devices=[4,2]<=[2,4]T(1,0)}"}, {jax.result_info = "result[1]", mhlo.sharding = "{devices=[8,1]<=[2,4]T(1,0)}"}, {jax.result_info = "result[2]", mhlo.sharding = "{devices=[8,1]<=[8]}"}, {jax.result_info = "result[3]", mhlo.sharding = "{devices=[1,8]<=[2,4]T(1,0)}"}, {jax.result_info = "result[4]", mhlo.sharding = "{replicated}"}, {jax.result_info = "result[5]", mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x16xf32>):
    %0 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %2 = "stablehlo.multiply"(%arg0, %1) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %3 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %4 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %5 = "stablehlo.add"(%arg0, %4) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %6 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %8 = "stablehlo.subtract"(%arg0, %7) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %9 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %11 = "stablehlo.multiply"(%arg0, %10) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %12 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %13 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %14 = "stablehlo.divide"(%arg0, %13) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    "func.return"(%arg0, %2, %5, %8, %11, %14) : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
