"builtin.module"() <{sym_name = "jit_seq_roll"}> ({
  "func.func"() <{arg_attrs = [{mhlo.sharding = "{devices=[2,4,1]<=[8]}"}], function_type = (tensor<4x48x16xf32>) -> tensor<4x48x16xf32>, res_attrs = [{jax.result_info = "result", mhlo.sharding = "{devices=[2,4,1]<=[8]}"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg1: tensor<4x48x16xf32>):
    %3 = "func.call"(%arg1) <{callee = @_roll_static}> : (tensor<4x48x16xf32>) -> tensor<4x48x16xf32>
    "func.return"(%3) : (tensor<4x48x16xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<4x48x16xf32>) -> tensor<4x48x16xf32>, res_attrs = [{}], sym_name = "_roll_static", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<4x48x16xf32>):
    %0 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 4, 48, 16>, start_indices = array<i64: 0, 45, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<4x48x16xf32>) -> tensor<4x3x16xf32>
    %1 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 4, 45, 16>, start_indices = array<i64: 0, 0, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<4x48x16xf32>) -> tensor<4x45x16xf32>
    %2 = "stablehlo.concatenate"(%0, %1) <{dimension = 1 : i64}> : (tensor<4x3x16xf32>, tensor<4x45x16xf32>) -> tensor<4x48x16xf32>
    "func.return"(%2) : (tensor<4x48x16xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
