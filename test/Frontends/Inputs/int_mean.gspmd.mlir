"builtin.module"() <{sym_name = "jit_int_mean"}> ({
  "func.func"() <{arg_attrs = [{mhlo.sharding = "{devices=[2,4]<=[8]}"}], function_type = (tensor<8x16xi32>) -> (tensor<8xf32>, tensor<16xf32>, tensor<8xi32>), res_attrs = [{jax.result_info = "result[0]", mhlo.sharding = "{devices=[2,4]<=[8] last_tile_dim_replicate}"}, {jax.result_info = "result[1]", mhlo.sharding = "{devices=[4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, {jax.result_info = "result[2]", mhlo.sharding = "{devices=[2,4]<=[8] last_tile_dim_replicate}"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg9: tensor<8x16xi32>):
    %25 = "stablehlo.convert"(%arg9) : (tensor<8x16xi32>) -> tensor<8x16xf32>
    %26 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %27 = "stablehlo.reduce"(%25, %26) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg12: tensor<f32>, %arg13: tensor<f32>):
      %40 = "stablehlo.add"(%arg12, %arg13) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%40) : (tensor<f32>) -> ()
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
    %28 = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %29 = "stablehlo.broadcast_in_dim"(%28) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %30 = "stablehlo.divide"(%27, %29) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %31 = "stablehlo.convert"(%arg9) : (tensor<8x16xi32>) -> tensor<8x16xf32>
    %32 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %33 = "func.call"(%31, %32) <{callee = @_var}> : (tensor<8x16xf32>, tensor<i32>) -> tensor<16xf32>
    %34 = "stablehlo.constant"() <{value = dense<100000000> : tensor<i32>}> : () -> tensor<i32>
    %35 = "stablehlo.broadcast_in_dim"(%34) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x16xi32>
    %36 = "stablehlo.multiply"(%arg9, %35) : (tensor<8x16xi32>, tensor<8x16xi32>) -> tensor<8x16xi32>
    %37 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %38 = "stablehlo.reduce"(%36, %37) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg10: tensor<i32>, %arg11: tensor<i32>):
      %39 = "stablehlo.add"(%arg10, %arg11) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%39) : (tensor<i32>) -> ()
    }) : (tensor<8x16xi32>, tensor<i32>) -> tensor<8xi32>
    "func.return"(%30, %33, %38) : (tensor<8xf32>, tensor<16xf32>, tensor<8xi32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<8x16xf32>, tensor<i32>) -> tensor<16xf32>, res_attrs = [{}], sym_name = "_var", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<8x16xf32>, %arg4: tensor<i32>):
    %3 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %4 = "stablehlo.reduce"(%arg3, %3) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %24 = "stablehlo.add"(%arg7, %arg8) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%24) : (tensor<f32>) -> ()
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<16xf32>
    %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64: 1>}> : (tensor<16xf32>) -> tensor<1x16xf32>
    %6 = "stablehlo.constant"() <{value = dense<8.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<1x16xf32>
    %8 = "stablehlo.divide"(%5, %7) : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %9 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x16xf32>) -> tensor<8x16xf32>
    %10 = "stablehlo.subtract"(%arg3, %9) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %11 = "chlo.square"(%10) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %12 = "stablehlo.convert"(%arg4) : (tensor<i32>) -> tensor<f32>
    %13 = "stablehlo.constant"() <{value = dense<8.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %14 = "stablehlo.subtract"(%13, %12) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %15 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %16 = "stablehlo.reduce"(%11, %15) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %23 = "stablehlo.add"(%arg5, %arg6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%23) : (tensor<f32>) -> ()
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<16xf32>
    %17 = "stablehlo.broadcast_in_dim"(%14) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %18 = "stablehlo.divide"(%16, %17) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %19 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %20 = "stablehlo.compare"(%14, %19) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %21 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %22 = "func.call"(%20, %18, %21) <{callee = @_where}> : (tensor<i1>, tensor<16xf32>, tensor<f32>) -> tensor<16xf32>
    "func.return"(%22) : (tensor<16xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<i1>, tensor<16xf32>, tensor<f32>) -> tensor<16xf32>, res_attrs = [{}], sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<i1>, %arg1: tensor<16xf32>, %arg2: tensor<f32>):
    %0 = "stablehlo.convert"(%arg2) : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %2 = "stablehlo.select"(%arg0, %arg1, %1) : (tensor<i1>, tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    "func.return"(%2) : (tensor<16xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
