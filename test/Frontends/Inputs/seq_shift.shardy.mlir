"builtin.module"() <{sym_name = "jit_seq_shift"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}, {}]>}], function_type = (tensor<4x48x16xf32>) -> tensor<4x48x16xf32>, res_attrs = [{jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}, {}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg2: tensor<4x48x16xf32>):
    %2 = "stablehlo.slice"(%arg2) <{limit_indices = array<i64: 4, 47, 16>, start_indices = array<i64: 0, 0, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<4x48x16xf32>) -> tensor<4x47x16xf32>
    %3 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %4 = "func.call"(%2, %3) <{callee = @_pad}> : (tensor<4x47x16xf32>, tensor<i32>) -> tensor<4x48x16xf32>
    "func.return"(%4) : (tensor<4x48x16xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<4x47x16xf32>, tensor<i32>) -> tensor<4x48x16xf32>, res_attrs = [{}], sym_name = "_pad", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<4x47x16xf32>, %arg1: tensor<i32>):
    %0 = "stablehlo.convert"(%arg1) : (tensor<i32>) -> tensor<f32>
    %1 = "stablehlo.pad"(%arg0, %0) <{edge_padding_high = array<i64: 0, 0, 0>, edge_padding_low = array<i64: 0, 1, 0>, interior_padding = array<i64: 0, 0, 0>}> : (tensor<4x47x16xf32>, tensor<f32>) -> tensor<4x48x16xf32>
    "func.return"(%1) : (tensor<4x48x16xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
