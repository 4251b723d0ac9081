"builtin.module"() <{sym_name = "jit_booleans"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<4x8xf32>) -> (tensor<4x2xi1>, tensor<2x8xi1>, tensor<2x2xi32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<4x8xf32>):
    %0:3 = "sdy.manual_computation"(%arg0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"data"}, {"model"}]>]>, manual_axes = #sdy<manual_axes{"data", "model"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>, <@mesh, [{}, {"model"}]>, <@mesh, [{}, {}]>]>}> ({
    ^bb0(%arg1: tensor<2x2xf32>):
      %1 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %2 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x2xf32>
      %3 = "stablehlo.compare"(%arg1, %2) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xi1>
      %4 = "stablehlo.all_reduce"(%3) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
      ^bb0(%arg6: tensor<i1>, %arg7: tensor<i1>):
        %10 = "stablehlo.maximum"(%arg6, %arg7) : (tensor<i1>, tensor<i1>) -> tensor<i1>
        "stablehlo.return"(%10) : (tensor<i1>) -> ()
      }) : (tensor<2x2xi1>) -> tensor<2x2xi1>
      %5 = "stablehlo.all_reduce"(%3) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> ({
      ^bb0(%arg4: tensor<i1>, %arg5: tensor<i1>):
        %9 = "stablehlo.minimum"(%arg4, %arg5) : (tensor<i1>, tensor<i1>) -> tensor<i1>
        "stablehlo.return"(%9) : (tensor<i1>) -> ()
      }) : (tensor<2x2xi1>) -> tensor<2x2xi1>
      %6 = "stablehlo.convert"(%3) : (tensor<2x2xi1>) -> tensor<2x2xi32>
      %7 = "stablehlo.all_reduce"(%6) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 4, 1, 5, 2, 6, 3, 7]]> : tensor<1x8xi64>, use_global_device_ids}> ({
      ^bb0(%arg2: tensor<i32>, %arg3: tensor<i32>):
        %8 = "stablehlo.add"(%arg2, %arg3) : (tensor<i32>, tensor<i32>) -> tensor<i32>
        "stablehlo.return"(%8) : (tensor<i32>) -> ()
      }) : (tensor<2x2xi32>) -> tensor<2x2xi32>
      "sdy.return"(%4, %5, %7) : (tensor<2x2xi1>, tensor<2x2xi1>, tensor<2x2xi32>) -> ()
    }) : (tensor<4x8xf32>) -> (tensor<4x2xi1>, tensor<2x8xi1>, tensor<2x2xi32>)
    "func.return"(%0#0, %0#1, %0#2) : (tensor<4x2xi1>, tensor<2x8xi1>, tensor<2x2xi32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
