"builtin.module"() <{sym_name = "jit_argmax_ties"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}], function_type = (tensor<4x16xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>), res_attrs = [{jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, [{"data"}]>}, {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, [{"data"}]>}, {jax.result_info = "result[2]", sdy.sharding = #sdy.sharding<@mesh, [{}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg15: tensor<4x16xi32>):
    %39 = "func.call"(%arg15) <{callee = @argmax}> : (tensor<4x16xi32>) -> tensor<4xi32>
    %40 = "func.call"(%arg15) <{callee = @argmin}> : (tensor<4x16xi32>) -> tensor<4xi32>
    %41 = "stablehlo.transpose"(%arg15) <{permutation = array<i64: 1, 0>}> : (tensor<4x16xi32>) -> tensor<16x4xi32>
    %42 = "func.call"(%41) <{callee = @argmax_0}> : (tensor<16x4xi32>) -> tensor<4xi32>
    "func.return"(%39, %40, %42) : (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x16xi32>) -> tensor<4xi32>, sym_name = "argmax", sym_visibility = "private"}> ({
  ^bb0(%arg10: tensor<4x16xi32>):
    %26 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<4x16xi32>
    %27 = "stablehlo.constant"() <{value = dense<-2147483648> : tensor<i32>}> : () -> tensor<i32>
    %28 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %29:2 = "stablehlo.reduce"(%arg10, %26, %27, %28) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg11: tensor<i32>, %arg12: tensor<i32>, %arg13: tensor<i32>, %arg14: tensor<i32>):
      %30 = "stablehlo.compare"(%arg11, %arg13) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %31 = "stablehlo.compare"(%arg11, %arg11) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %32 = "stablehlo.or"(%30, %31) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %33 = "stablehlo.compare"(%arg11, %arg13) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %34 = "stablehlo.compare"(%arg12, %arg14) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %35 = "stablehlo.and"(%33, %34) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %36 = "stablehlo.or"(%32, %35) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %37 = "stablehlo.select"(%32, %arg11, %arg13) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
      %38 = "stablehlo.select"(%36, %arg12, %arg14) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%37, %38) : (tensor<i32>, tensor<i32>) -> ()
    }) : (tensor<4x16xi32>, tensor<4x16xi32>, tensor<i32>, tensor<i32>) -> (tensor<4xi32>, tensor<4xi32>)
    "func.return"(%29#1) : (tensor<4xi32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x16xi32>) -> tensor<4xi32>, sym_name = "argmin", sym_visibility = "private"}> ({
  ^bb0(%arg5: tensor<4x16xi32>):
    %13 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<4x16xi32>
    %14 = "stablehlo.constant"() <{value = dense<2147483647> : tensor<i32>}> : () -> tensor<i32>
    %15 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %16:2 = "stablehlo.reduce"(%arg5, %13, %14, %15) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg6: tensor<i32>, %arg7: tensor<i32>, %arg8: tensor<i32>, %arg9: tensor<i32>):
      %17 = "stablehlo.compare"(%arg6, %arg8) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %18 = "stablehlo.compare"(%arg6, %arg6) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %19 = "stablehlo.or"(%17, %18) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %20 = "stablehlo.compare"(%arg6, %arg8) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %21 = "stablehlo.compare"(%arg7, %arg9) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %22 = "stablehlo.and"(%20, %21) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %23 = "stablehlo.or"(%19, %22) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %24 = "stablehlo.select"(%19, %arg6, %arg8) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
      %25 = "stablehlo.select"(%23, %arg7, %arg9) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%24, %25) : (tensor<i32>, tensor<i32>) -> ()
    }) : (tensor<4x16xi32>, tensor<4x16xi32>, tensor<i32>, tensor<i32>) -> (tensor<4xi32>, tensor<4xi32>)
    "func.return"(%16#1) : (tensor<4xi32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<16x4xi32>) -> tensor<4xi32>, sym_name = "argmax_0", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<16x4xi32>):
    %0 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<16x4xi32>
    %1 = "stablehlo.constant"() <{value = dense<-2147483648> : tensor<i32>}> : () -> tensor<i32>
    %2 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %3:2 = "stablehlo.reduce"(%arg0, %0, %1, %2) <{dimensions = array<i64: 0>}> ({
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
    }) : (tensor<16x4xi32>, tensor<16x4xi32>, tensor<i32>, tensor<i32>) -> (tensor<4xi32>, tensor<4xi32>)
    "func.return"(%3#1) : (tensor<4xi32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
