"builtin.module"() <{sym_name = "jit_tiled_again"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}], function_type = (tensor<8x8xf32>, tensor<4x2xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x8xf32>, %arg1: tensor<4x2xf32>):
    %0 = "sdy.manual_computation"(%arg0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"data"}, {"model"}]>]>, manual_axes = #sdy<manual_axes{"data", "model"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"data"}, {"model"}]>]>}> ({
    ^bb0(%arg3: tensor<4x2xf32>):
      %3 = "stablehlo.all_reduce"(%arg3) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
      ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
        %4 = "stablehlo.add"(%arg4, %arg5) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%4) : (tensor<f32>) -> ()
      }) : (tensor<4x2xf32>) -> tensor<4x2xf32>
      "sdy.return"(%3) : (tensor<4x2xf32>) -> ()
    }) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %1 = "sdy.manual_computation"(%arg1) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>, manual_axes = #sdy<manual_axes{"data", "model"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"data"}, {"model"}]>]>}> ({
    ^bb0(%arg2: tensor<4x2xf32>):
      %2 = "stablehlo.sine"(%arg2) : (tensor<4x2xf32>) -> tensor<4x2xf32>
      "sdy.return"(%2) : (tensor<4x2xf32>) -> ()
    }) : (tensor<4x2xf32>) -> tensor<8x8xf32>
    "func.return"(%0, %1) : (tensor<8x8xf32>, tensor<8x8xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
