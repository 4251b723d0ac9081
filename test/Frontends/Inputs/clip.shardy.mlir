"builtin.module"() <{sym_name = "jit_clip"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}], function_type = (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>, res_attrs = [{jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<16x32xf32>, %arg1: tensor<16x32xf32>):
    %0 = "stablehlo.multiply"(%arg0, %arg0) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %1 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %2 = "stablehlo.reduce"(%0, %1) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %18 = "stablehlo.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%18) : (tensor<f32>) -> ()
    }) : (tensor<16x32xf32>, tensor<f32>) -> tensor<f32>
    %3 = "stablehlo.sqrt"(%2) : (tensor<f32>) -> tensor<f32>
    %4 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %5 = "stablehlo.compare"(%3, %4) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %6 = "stablehlo.convert"(%5) : (tensor<i1>) -> tensor<i32>
    %7 = "stablehlo.case"(%6) ({
      %14 = "stablehlo.constant"() <{value = dense<1.000000e-01> : tensor<f32>}> : () -> tensor<f32>
      %15 = "stablehlo.broadcast_in_dim"(%14) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x32xf32>
      %16 = "stablehlo.multiply"(%15, %arg0) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
      %17 = "stablehlo.subtract"(%arg1, %16) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
      "stablehlo.return"(%17) : (tensor<16x32xf32>) -> ()
    }, {
      %8 = "stablehlo.constant"() <{value = dense<1.000000e-01> : tensor<f32>}> : () -> tensor<f32>
      %9 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x32xf32>
      %10 = "stablehlo.multiply"(%9, %arg0) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
      %11 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x32xf32>
      %12 = "stablehlo.divide"(%10, %11) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
      %13 = "stablehlo.subtract"(%arg1, %12) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
      "stablehlo.return"(%13) : (tensor<16x32xf32>) -> ()
    }) : (tensor<i32>) -> tensor<16x32xf32>
    "func.return"(%7) : (tensor<16x32xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
