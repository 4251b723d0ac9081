"builtin.module"() <{sym_name = "jit_second_difference"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}], function_type = (tensor<4x32xf32>) -> (tensor<4xf32>, tensor<4xf32>), res_attrs = [{jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, [{"data"}]>}, {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, [{"data"}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<4x32xf32>):
    %0 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 4, 32>, start_indices = array<i64: 0, 2>, strides = array<i64: 1, 1>}> : (tensor<4x32xf32>) -> tensor<4x30xf32>
    %1 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 4, 31>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<4x32xf32>) -> tensor<4x30xf32>
    %2 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x30xf32>
    %4 = "stablehlo.multiply"(%3, %1) : (tensor<4x30xf32>, tensor<4x30xf32>) -> tensor<4x30xf32>
    %5 = "stablehlo.subtract"(%0, %4) : (tensor<4x30xf32>, tensor<4x30xf32>) -> tensor<4x30xf32>
    %6 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 4, 30>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<4x32xf32>) -> tensor<4x30xf32>
    %7 = "stablehlo.add"(%5, %6) : (tensor<4x30xf32>, tensor<4x30xf32>) -> tensor<4x30xf32>
    %8 = "stablehlo.multiply"(%7, %7) : (tensor<4x30xf32>, tensor<4x30xf32>) -> tensor<4x30xf32>
    %9 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %10 = "stablehlo.reduce"(%8, %9) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %15 = "stablehlo.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%15) : (tensor<f32>) -> ()
    }) : (tensor<4x30xf32>, tensor<f32>) -> tensor<4xf32>
    %11 = "stablehlo.abs"(%7) : (tensor<4x30xf32>) -> tensor<4x30xf32>
    %12 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %13 = "stablehlo.reduce"(%11, %12) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %14 = "stablehlo.maximum"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%14) : (tensor<f32>) -> ()
    }) : (tensor<4x30xf32>, tensor<f32>) -> tensor<4xf32>
    "func.return"(%10, %13) : (tensor<4xf32>, tensor<4xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
