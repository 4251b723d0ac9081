"builtin.module"() <{sym_name = "jit_seq_flip_axes_dm"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{}, {"data", "model"}]>}], function_type = (tensor<4x64xf32>) -> tensor<4x64xf32>, res_attrs = [{jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{}, {"data", "model"}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg1: tensor<4x64xf32>):
    %1 = "func.call"(%arg1) <{callee = @_flip}> : (tensor<4x64xf32>) -> tensor<4x64xf32>
    "func.return"(%1) : (tensor<4x64xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<4x64xf32>) -> tensor<4x64xf32>, res_attrs = [{}], sym_name = "_flip", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<4x64xf32>):
    %0 = "stablehlo.reverse"(%arg0) <{dimensions = array<i64: 1>}> : (tensor<4x64xf32>) -> tensor<4x64xf32>
    "func.return"(%0) : (tensor<4x64xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
