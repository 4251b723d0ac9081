"builtin.module"() <{sym_name = "jit_seq_roll_axes"}> ({
  "func.func"() <{arg_attrs = [{mhlo.sharding = "{devices=[1,8]<=[2,4]T(1,0)}"}], function_type = (tensor<4x64xf32>) -> tensor<4x64xf32>, res_attrs = [{jax.result_info = "result", mhlo.sharding = "{devices=[1,8]<=[2,4]T(1,0)}"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg1: tensor<4x64xf32>):
    %3 = "func.call"(%arg1) <{callee = @_roll_static}> : (tensor<4x64xf32>) -> tensor<4x64xf32>
    "func.return"(%3) : (tensor<4x64xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<4x64xf32>) -> tensor<4x64xf32>, res_attrs = [{}], sym_name = "_roll_static", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<4x64xf32>):
    %0 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 4, 64>, start_indices = array<i64: 0, 61>, strides = array<i64: 1, 1>}> : (tensor<4x64xf32>) -> tensor<4x3xf32>
    %1 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 4, 61>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<4x64xf32>) -> tensor<4x61xf32>
    %2 = "stablehlo.concatenate"(%0, %1) <{dimension = 1 : i64}> : (tensor<4x3xf32>, tensor<4x61xf32>) -> tensor<4x64xf32>
    "func.return"(%2) : (tensor<4x64xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
