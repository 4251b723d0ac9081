"builtin.module"() <{sym_name = "jit_seq_diff"}> ({
  "func.func"() <{arg_attrs = [{mhlo.sharding = "{devices=[2,4,1]<=[8]}"}], function_type = (tensor<4x48x16xf32>) -> tensor<4x48x16xf32>, res_attrs = [{jax.result_info = "result", mhlo.sharding = "{devices=[2,4,1]<=[8]}"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg2: tensor<4x48x16xf32>):
    %2 = "stablehlo.slice"(%arg2) <{limit_indices = array<i64: 4, 48, 16>, start_indices = array<i64: 0, 1, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<4x48x16xf32>) -> tensor<4x47x16xf32>
    %3 = "stablehlo.slice"(%arg2) <{limit_indices = array<i64: 4, 47, 16>, start_indices = array<i64: 0, 0, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<4x48x16xf32>) -> tensor<4x47x16xf32>
    %4 = "stablehlo.subtract"(%2, %3) : (tensor<4x47x16xf32>, tensor<4x47x16xf32>) -> tensor<4x47x16xf32>
    %5 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %6 = "func.call"(%4, %5) <{callee = @_pad}> : (tensor<4x47x16xf32>, tensor<i32>) -> tensor<4x48x16xf32>
    "func.return"(%6) : (tensor<4x48x16xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<4x47x16xf32>, tensor<i32>) -> tensor<4x48x16xf32>, res_attrs = [{}], sym_name = "_pad", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<4x47x16xf32>, %arg1: tensor<i32>):
    %0 = "stablehlo.convert"(%arg1) : (tensor<i32>) -> tensor<f32>
    %1 = "stablehlo.pad"(%arg0, %0) <{edge_padding_high = array<i64: 0, 1, 0>, edge_padding_low = array<i64: 0, 0, 0>, interior_padding = array<i64: 0, 0, 0>}> : (tensor<4x47x16xf32>, tensor<f32>) -> tensor<4x48x16xf32>
    "func.return"(%1) : (tensor<4x48x16xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
