"builtin.module"() <{sym_name = "jit_seq_flip_axes_dm"}> ({
  "func.func"() <{arg_attrs = [{mhlo.sharding = "{devices=[1,8]<=[8]}"}], function_type = (tensor<4x64xf32>) -> tensor<4x64xf32>, res_attrs = [{jax.result_info = "result", mhlo.sharding = "{devices=[1,8]<=[8]}"}], sym_name = "main", sym_visibility = "public"}> ({
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
