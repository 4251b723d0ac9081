"builtin.module"() <{sym_name = "jit_collectives"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<4x8xf32>) -> (tensor<2x8xf32>, tensor<4x2xf32>, tensor<1x32xf32>, tensor<4x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}, {jax.result_info = "result[5]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<4x8xf32>):
    %0:6 = "sdy.manual_computation"(%arg0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{}, {"model"}]>]>, manual_axes = #sdy<manual_axes{"data", "model"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"data"}, {"model"}]>, <@mesh, [{}, {}]>, <@mesh, [{}, {"model"}]>, <@mesh, [{}, {"model"}]>, <@mesh, [{}, {"model"}]>, <@mesh, [{"data"}, {"model"}]>]>}> ({
    ^bb0(%arg1: tensor<4x2xf32>):
      %1 = "stablehlo.reduce_scatter"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
      ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
        %18 = "stablehlo.add"(%arg6, %arg7) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%18) : (tensor<f32>) -> ()
      }) : (tensor<4x2xf32>) -> tensor<1x2xf32>
      %2 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, use_global_device_ids}> ({
      ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
        %17 = "stablehlo.maximum"(%arg4, %arg5) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%17) : (tensor<f32>) -> ()
      }) : (tensor<4x2xf32>) -> tensor<4x2xf32>
      %3 = "stablehlo.all_to_all"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 1 : i64, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, split_count = 4 : i64, split_dimension = 0 : i64}> : (tensor<4x2xf32>) -> tensor<1x8xf32>
      %4 = "stablehlo.collective_permute"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [4, 5], [5, 6], [6, 7]]> : tensor<6x2xi64>}> : (tensor<4x2xf32>) -> tensor<4x2xf32>
      %5 = "stablehlo.all_gather"(%arg1) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> : (tensor<4x2xf32>) -> tensor<8x2xf32>
      %6 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> ({
      ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
        %16 = "stablehlo.minimum"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%16) : (tensor<f32>) -> ()
      }) : (tensor<4x2xf32>) -> tensor<4x2xf32>
      %7 = "stablehlo.constant"() <{value = dense<4> : tensor<ui32>}> : () -> tensor<ui32>
      %8 = "stablehlo.constant"() <{value = dense<2> : tensor<ui32>}> : () -> tensor<ui32>
      %9 = "stablehlo.partition_id"() : () -> tensor<ui32>
      %10 = "stablehlo.divide"(%9, %7) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
      %11 = "stablehlo.remainder"(%10, %8) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
      %12 = "stablehlo.convert"(%11) : (tensor<ui32>) -> tensor<i32>
      %13 = "stablehlo.convert"(%12) : (tensor<i32>) -> tensor<f32>
      %14 = "stablehlo.broadcast_in_dim"(%13) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x2xf32>
      %15 = "stablehlo.multiply"(%6, %14) : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
      "sdy.return"(%1, %2, %3, %4, %5, %15) : (tensor<1x2xf32>, tensor<4x2xf32>, tensor<1x8xf32>, tensor<4x2xf32>, tensor<8x2xf32>, tensor<4x2xf32>) -> ()
    }) : (tensor<4x8xf32>) -> (tensor<2x8xf32>, tensor<4x2xf32>, tensor<1x32xf32>, tensor<4x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>)
    "func.return"(%0#0, %0#1, %0#2, %0#3, %0#4, %0#5) : (tensor<2x8xf32>, tensor<4x2xf32>, tensor<1x32xf32>, tensor<4x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
