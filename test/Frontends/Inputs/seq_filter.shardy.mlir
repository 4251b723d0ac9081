"builtin.module"() <{sym_name = "jit_seq_filter"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}, {}]>}], function_type = (tensor<4x48x16xf32>) -> tensor<4x48x16xf32>, res_attrs = [{jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}, {}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg2: tensor<4x48x16xf32>):
    %2 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %3 = "func.call"(%arg2, %2) <{callee = @_pad}> : (tensor<4x48x16xf32>, tensor<i32>) -> tensor<4x50x16xf32>
    %4 = "stablehlo.slice"(%3) <{limit_indices = array<i64: 4, 50, 16>, start_indices = array<i64: 0, 2, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<4x50x16xf32>) -> tensor<4x48x16xf32>
    %5 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %6 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x48x16xf32>
    %7 = "stablehlo.multiply"(%6, %4) : (tensor<4x48x16xf32>, tensor<4x48x16xf32>) -> tensor<4x48x16xf32>
    %8 = "stablehlo.slice"(%3) <{limit_indices = array<i64: 4, 49, 16>, start_indices = array<i64: 0, 1, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<4x50x16xf32>) -> tensor<4x48x16xf32>
    %9 = "stablehlo.constant"() <{value = dense<3.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x48x16xf32>
    %11 = "stablehlo.multiply"(%10, %8) : (tensor<4x48x16xf32>, tensor<4x48x16xf32>) -> tensor<4x48x16xf32>
    %12 = "stablehlo.add"(%7, %11) : (tensor<4x48x16xf32>, tensor<4x48x16xf32>) -> tensor<4x48x16xf32>
    %13 = "stablehlo.slice"(%3) <{limit_indices = array<i64: 4, 48, 16>, start_indices = array<i64: 0, 0, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<4x50x16xf32>) -> tensor<4x48x16xf32>
    %14 = "stablehlo.constant"() <{value = dense<2.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %15 = "stablehlo.broadcast_in_dim"(%14) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x48x16xf32>
    %16 = "stablehlo.multiply"(%15, %13) : (tensor<4x48x16xf32>, tensor<4x48x16xf32>) -> tensor<4x48x16xf32>
    %17 = "stablehlo.add"(%12, %16) : (tensor<4x48x16xf32>, tensor<4x48x16xf32>) -> tensor<4x48x16xf32>
    "func.return"(%17) : (tensor<4x48x16xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<4x48x16xf32>, tensor<i32>) -> tensor<4x50x16xf32>, res_attrs = [{}], sym_name = "_pad", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<4x48x16xf32>, %arg1: tensor<i32>):
    %0 = "stablehlo.convert"(%arg1) : (tensor<i32>) -> tensor<f32>
    %1 = "stablehlo.pad"(%arg0, %0) <{edge_padding_high = array<i64: 0, 0, 0>, edge_padding_low = array<i64: 0, 2, 0>, interior_padding = array<i64: 0, 0, 0>}> : (tensor<4x48x16xf32>, tensor<f32>) -> tensor<4x50x16xf32>
    "func.return"(%1) : (tensor<4x50x16xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
