"builtin.module"() <{sym_name = "jit_collective_helper"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<4x8xf32>, tensor<2x8xui8>) -> (tensor<4x2xf32>, tensor<2x8xui8>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg3: tensor<4x8xf32>, %arg4: tensor<2x8xui8>):
    %11:2 = "sdy.manual_computation"(%arg3, %arg4) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"data"}, {"model"}]>, <@mesh, [{}, {"model"}]>]>, manual_axes = #sdy<manual_axes{"data", "model"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>, <@mesh, [{}, {"model"}]>]>}> ({
    ^bb0(%arg5: tensor<2x2xf32>, %arg6: tensor<2x2xui8>):
      %12 = "func.call"(%arg5) <{callee = @_summed}> : (tensor<2x2xf32>) -> tensor<2x2xf32>
      %13 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %14 = "stablehlo.broadcast_in_dim"(%13) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x2xf32>
      %15 = "stablehlo.multiply"(%12, %14) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
      %16 = "stablehlo.collective_permute"(%arg6) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [4, 5], [5, 6], [6, 7]]> : tensor<6x2xi64>}> : (tensor<2x2xui8>) -> tensor<2x2xui8>
      "sdy.return"(%15, %16) : (tensor<2x2xf32>, tensor<2x2xui8>) -> ()
    }) : (tensor<4x8xf32>, tensor<2x8xui8>) -> (tensor<4x2xf32>, tensor<2x8xui8>)
    "func.return"(%11#0, %11#1) : (tensor<4x2xf32>, tensor<2x8xui8>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<2x2xf32>) -> tensor<2x2xf32>, res_attrs = [{}], sym_name = "_summed", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<2x2xf32>):
    %0 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %10 = "stablehlo.add"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%10) : (tensor<f32>) -> ()
    }) : (tensor<2x2xf32>) -> tensor<2x2xf32>
    %1 = "stablehlo.constant"() <{value = dense<4> : tensor<ui32>}> : () -> tensor<ui32>
    %2 = "stablehlo.constant"() <{value = dense<2> : tensor<ui32>}> : () -> tensor<ui32>
    %3 = "stablehlo.partition_id"() : () -> tensor<ui32>
    %4 = "stablehlo.divide"(%3, %1) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
    %5 = "stablehlo.remainder"(%4, %2) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
    %6 = "stablehlo.convert"(%5) : (tensor<ui32>) -> tensor<i32>
    %7 = "stablehlo.convert"(%6) : (tensor<i32>) -> tensor<f32>
    %8 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x2xf32>
    %9 = "stablehlo.add"(%0, %8) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
    "func.return"(%9) : (tensor<2x2xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
