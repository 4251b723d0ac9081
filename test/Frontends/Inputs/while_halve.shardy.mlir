"builtin.module"() <{sym_name = "jit_while_halve"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}], function_type = (tensor<8x16xf32>) -> tensor<8x16xf32>, res_attrs = [{jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x16xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %1:2 = "stablehlo.while"(%0, %arg0) ({
    ^bb0(%arg3: tensor<i32>, %arg4: tensor<8x16xf32>):
      %7 = "stablehlo.constant"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
      %8 = "stablehlo.compare"(%arg3, %7) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %9 = "stablehlo.abs"(%arg4) : (tensor<8x16xf32>) -> tensor<8x16xf32>
      %10 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
      %11 = "stablehlo.reduce"(%9, %10) <{dimensions = array<i64: 0, 1>}> ({
      ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
        %19 = "stablehlo.maximum"(%arg5, %arg6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%19) : (tensor<f32>) -> ()
      }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<f32>
      %12 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %13 = "stablehlo.compare"(%11, %12) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %14 = "stablehlo.constant"() <{value = dense<false> : tensor<i1>}> : () -> tensor<i1>
      %15 = "stablehlo.broadcast_in_dim"(%14) <{broadcast_dimensions = array<i64>}> : (tensor<i1>) -> tensor<i1>
      %16 = "stablehlo.compare"(%8, %15) <{compare_type = #stablehlo<comparison_type UNSIGNED>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %17 = "stablehlo.convert"(%16) : (tensor<i1>) -> tensor<i1>
      %18 = "stablehlo.and"(%17, %13) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%18) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<8x16xf32>):
      %2 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %3 = "stablehlo.add"(%arg1, %2) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %4 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
      %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
      %6 = "stablehlo.multiply"(%arg2, %5) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
      "stablehlo.return"(%3, %6) : (tensor<i32>, tensor<8x16xf32>) -> ()
    }) : (tensor<i32>, tensor<8x16xf32>) -> (tensor<i32>, tensor<8x16xf32>)
    "func.return"(%1#1) : (tensor<8x16xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
