"builtin.module"() <{sym_name = "jit_seq_tv"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}, {}]>}], function_type = (tensor<4x48x16xf32>) -> tensor<f32>, res_attrs = [{jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, []>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<4x48x16xf32>):
    %0 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 4, 48, 16>, start_indices = array<i64: 0, 1, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<4x48x16xf32>) -> tensor<4x47x16xf32>
    %1 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 4, 47, 16>, start_indices = array<i64: 0, 0, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<4x48x16xf32>) -> tensor<4x47x16xf32>
    %2 = "stablehlo.subtract"(%0, %1) : (tensor<4x47x16xf32>, tensor<4x47x16xf32>) -> tensor<4x47x16xf32>
    %3 = "stablehlo.abs"(%2) : (tensor<4x47x16xf32>) -> tensor<4x47x16xf32>
    %4 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %5 = "stablehlo.reduce"(%3, %4) <{dimensions = array<i64: 0, 1, 2>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %6 = "stablehlo.add"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%6) : (tensor<f32>) -> ()
    }) : (tensor<4x47x16xf32>, tensor<f32>) -> tensor<f32>
    "func.return"(%5) : (tensor<f32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
