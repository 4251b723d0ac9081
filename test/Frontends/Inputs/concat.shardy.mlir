"builtin.module"() <{sym_name = "jit_concat"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}], function_type = (tensor<8x32xf32>, tensor<8x32xf32>) -> (tensor<8x64xf32>, tensor<16x32xf32>), res_attrs = [{jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}, {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x32xf32>, %arg1: tensor<8x32xf32>):
    %0 = "stablehlo.concatenate"(%arg0, %arg1) <{dimension = 1 : i64}> : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x64xf32>
    %1 = "stablehlo.concatenate"(%arg0, %arg1) <{dimension = 0 : i64}> : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<16x32xf32>
    "func.return"(%0, %1) : (tensor<8x64xf32>, tensor<16x32xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
