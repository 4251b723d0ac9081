"builtin.module"() <{sym_name = "jit_topk"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}], function_type = (tensor<8x64xf32>) -> tensor<8x3xi32>, res_attrs = [{jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg13: tensor<8x64xf32>):
    %35 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %36 = "stablehlo.broadcast_in_dim"(%35) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x3xi32>
    %37 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %38 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %39:4 = "stablehlo.while"(%38, %37, %arg13, %36) ({
    ^bb0(%arg18: tensor<i32>, %arg19: tensor<i32>, %arg20: tensor<8x64xf32>, %arg21: tensor<8x3xi32>):
      %43 = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
      %44 = "stablehlo.compare"(%arg18, %43) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%44) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg14: tensor<i32>, %arg15: tensor<i32>, %arg16: tensor<8x64xf32>, %arg17: tensor<8x3xi32>):
      %40:3 = "func.call"(%arg15, %arg16, %arg17) <{callee = @closed_call}> : (tensor<i32>, tensor<8x64xf32>, tensor<8x3xi32>) -> (tensor<i32>, tensor<8x64xf32>, tensor<8x3xi32>)
      %41 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %42 = "stablehlo.add"(%arg14, %41) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%42, %40#0, %40#1, %40#2) : (tensor<i32>, tensor<i32>, tensor<8x64xf32>, tensor<8x3xi32>) -> ()
    }) : (tensor<i32>, tensor<i32>, tensor<8x64xf32>, tensor<8x3xi32>) -> (tensor<i32>, tensor<i32>, tensor<8x64xf32>, tensor<8x3xi32>)
    "func.return"(%39#3) : (tensor<8x3xi32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<i32>, tensor<8x64xf32>, tensor<8x3xi32>) -> (tensor<i32>, tensor<8x64xf32>, tensor<8x3xi32>), res_attrs = [{}, {}, {}], sym_name = "closed_call", sym_visibility = "private"}> ({
  ^bb0(%arg8: tensor<i32>, %arg9: tensor<8x64xf32>, %arg10: tensor<8x3xi32>):
    %16 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %17 = "stablehlo.add"(%arg8, %16) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %18 = "func.call"(%arg9) <{callee = @argmax}> : (tensor<8x64xf32>) -> tensor<8xi32>
    %19 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<64xi32>
    %20 = "stablehlo.broadcast_in_dim"(%19) <{broadcast_dimensions = array<i64: 1>}> : (tensor<64xi32>) -> tensor<1x64xi32>
    %21 = "stablehlo.broadcast_in_dim"(%18) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xi32>) -> tensor<8x1xi32>
    %22 = "stablehlo.broadcast_in_dim"(%20) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x64xi32>) -> tensor<8x64xi32>
    %23 = "stablehlo.broadcast_in_dim"(%21) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xi32>) -> tensor<8x64xi32>
    %24 = "stablehlo.compare"(%22, %23) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8x64xi32>, tensor<8x64xi32>) -> tensor<8x64xi1>
    %25 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %26 = "func.call"(%24, %25, %arg9) <{callee = @_where}> : (tensor<8x64xi1>, tensor<f32>, tensor<8x64xf32>) -> tensor<8x64xf32>
    %27 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %28 = "stablehlo.compare"(%arg8, %27) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %29 = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
    %30 = "stablehlo.add"(%arg8, %29) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %31 = "stablehlo.select"(%28, %30, %arg8) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %32 = "stablehlo.convert"(%31) : (tensor<i32>) -> tensor<i32>
    %33 = "stablehlo.broadcast_in_dim"(%32) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<1xi32>
    %34 = "stablehlo.scatter"(%arg10, %33, %18) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1]>, unique_indices = true}> ({
    ^bb0(%arg11: tensor<i32>, %arg12: tensor<i32>):
      "stablehlo.return"(%arg12) : (tensor<i32>) -> ()
    }) : (tensor<8x3xi32>, tensor<1xi32>, tensor<8xi32>) -> tensor<8x3xi32>
    "func.return"(%17, %26, %34) : (tensor<i32>, tensor<8x64xf32>, tensor<8x3xi32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x64xf32>) -> tensor<8xi32>, sym_name = "argmax", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<8x64xf32>):
    %3 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<8x64xi32>
    %4 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %5 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %6:2 = "stablehlo.reduce"(%arg3, %3, %4, %5) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<i32>, %arg6: tensor<f32>, %arg7: tensor<i32>):
      %7 = "stablehlo.compare"(%arg4, %arg6) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %8 = "stablehlo.compare"(%arg4, %arg4) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %9 = "stablehlo.or"(%7, %8) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %10 = "stablehlo.compare"(%arg4, %arg6) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %11 = "stablehlo.compare"(%arg5, %arg7) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %12 = "stablehlo.and"(%10, %11) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %13 = "stablehlo.or"(%9, %12) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %14 = "stablehlo.select"(%9, %arg4, %arg6) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %15 = "stablehlo.select"(%13, %arg5, %arg7) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%14, %15) : (tensor<f32>, tensor<i32>) -> ()
    }) : (tensor<8x64xf32>, tensor<8x64xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)
    "func.return"(%6#1) : (tensor<8xi32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<8x64xi1>, tensor<f32>, tensor<8x64xf32>) -> tensor<8x64xf32>, res_attrs = [{}], sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<8x64xi1>, %arg1: tensor<f32>, %arg2: tensor<8x64xf32>):
    %0 = "stablehlo.convert"(%arg1) : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x64xf32>
    %2 = "stablehlo.select"(%arg0, %1, %arg2) : (tensor<8x64xi1>, tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
    "func.return"(%2) : (tensor<8x64xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
