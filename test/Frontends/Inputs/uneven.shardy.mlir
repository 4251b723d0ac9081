"builtin.module"() <{sym_name = "jit_uneven"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}], function_type = (tensor<4x10xi32>, tensor<4x6xf32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>), res_attrs = [{jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {jax.result_info = "result[2]", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {jax.result_info = "result[3]", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {jax.result_info = "result[4]", sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {jax.result_info = "result[5]", sdy.sharding = #sdy.sharding<@mesh, [{}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg5: tensor<4x10xi32>, %arg6: tensor<4x6xf32>):
    %13 = "sdy.sharding_constraint"(%arg5) <{sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}> : (tensor<4x10xi32>) -> tensor<4x10xi32>
    %14 = "sdy.sharding_constraint"(%arg6) <{sharding = #sdy.sharding<@mesh, [{}, {"data", "model"}]>}> : (tensor<4x6xf32>) -> tensor<4x6xf32>
    %15 = "stablehlo.constant"() <{value = dense<-2147483648> : tensor<i32>}> : () -> tensor<i32>
    %16 = "stablehlo.reduce"(%13, %15) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg17: tensor<i32>, %arg18: tensor<i32>):
      %51 = "stablehlo.maximum"(%arg17, %arg18) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%51) : (tensor<i32>) -> ()
    }) : (tensor<4x10xi32>, tensor<i32>) -> tensor<4xi32>
    %17 = "stablehlo.negate"(%13) : (tensor<4x10xi32>) -> tensor<4x10xi32>
    %18 = "stablehlo.constant"() <{value = dense<2147483647> : tensor<i32>}> : () -> tensor<i32>
    %19 = "stablehlo.reduce"(%17, %18) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg15: tensor<i32>, %arg16: tensor<i32>):
      %50 = "stablehlo.minimum"(%arg15, %arg16) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%50) : (tensor<i32>) -> ()
    }) : (tensor<4x10xi32>, tensor<i32>) -> tensor<4xi32>
    %20 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %21 = "stablehlo.reduce"(%14, %20) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg13: tensor<f32>, %arg14: tensor<f32>):
      %49 = "stablehlo.multiply"(%arg13, %arg14) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%49) : (tensor<f32>) -> ()
    }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32>
    %22 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %23 = "stablehlo.reduce"(%14, %22) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg11: tensor<f32>, %arg12: tensor<f32>):
      %48 = "stablehlo.add"(%arg11, %arg12) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%48) : (tensor<f32>) -> ()
    }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32>
    %24 = "stablehlo.constant"() <{value = dense<6.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %25 = "stablehlo.broadcast_in_dim"(%24) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %26 = "stablehlo.divide"(%23, %25) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %27 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %28 = "stablehlo.reduce"(%14, %27) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg9: tensor<f32>, %arg10: tensor<f32>):
      %47 = "stablehlo.maximum"(%arg9, %arg10) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%47) : (tensor<f32>) -> ()
    }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32>
    %29 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %30 = "stablehlo.broadcast_in_dim"(%29) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %31 = "stablehlo.maximum"(%30, %28) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %32 = "stablehlo.is_finite"(%31) : (tensor<4xf32>) -> tensor<4xi1>
    %33 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %34 = "stablehlo.broadcast_in_dim"(%33) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %35 = "stablehlo.select"(%32, %31, %34) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %36 = "stablehlo.broadcast_in_dim"(%35) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xf32>) -> tensor<4x1xf32>
    %37 = "stablehlo.broadcast_in_dim"(%36) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<4x1xf32>) -> tensor<4x6xf32>
    %38 = "stablehlo.subtract"(%14, %37) : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
    %39 = "stablehlo.exponential"(%38) : (tensor<4x6xf32>) -> tensor<4x6xf32>
    %40 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %41 = "stablehlo.reduce"(%39, %40) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %46 = "stablehlo.add"(%arg7, %arg8) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%46) : (tensor<f32>) -> ()
    }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32>
    %42 = "stablehlo.abs"(%41) : (tensor<4xf32>) -> tensor<4xf32>
    %43 = "stablehlo.log"(%42) : (tensor<4xf32>) -> tensor<4xf32>
    %44 = "stablehlo.add"(%43, %35) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %45 = "func.call"(%13) <{callee = @argmax}> : (tensor<4x10xi32>) -> tensor<4xi32>
    "func.return"(%16, %19, %21, %26, %44, %45) : (tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x10xi32>) -> tensor<4xi32>, sym_name = "argmax", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<4x10xi32>):
    %0 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<4x10xi32>
    %1 = "stablehlo.constant"() <{value = dense<-2147483648> : tensor<i32>}> : () -> tensor<i32>
    %2 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %3:2 = "stablehlo.reduce"(%arg0, %0, %1, %2) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>, %arg3: tensor<i32>, %arg4: tensor<i32>):
      %4 = "stablehlo.compare"(%arg1, %arg3) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %5 = "stablehlo.compare"(%arg1, %arg1) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %6 = "stablehlo.or"(%4, %5) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %7 = "stablehlo.compare"(%arg1, %arg3) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %8 = "stablehlo.compare"(%arg2, %arg4) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %9 = "stablehlo.and"(%7, %8) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %10 = "stablehlo.or"(%6, %9) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %11 = "stablehlo.select"(%6, %arg1, %arg3) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
      %12 = "stablehlo.select"(%10, %arg2, %arg4) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%11, %12) : (tensor<i32>, tensor<i32>) -> ()
    }) : (tensor<4x10xi32>, tensor<4x10xi32>, tensor<i32>, tensor<i32>) -> (tensor<4xi32>, tensor<4xi32>)
    "func.return"(%3#1) : (tensor<4xi32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
