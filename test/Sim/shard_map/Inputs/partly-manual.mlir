"builtin.module"() <{sym_name = "jit_partly_manual"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}], function_type = (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>, res_attrs = [{jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x16xf32>, %arg1: tensor<16x4xf32>):
    %0 = "sdy.manual_computation"(%arg0, %arg1) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{?}, {"model", ?}]>, <@mesh, [{"model", ?}, {?}]>]>, manual_axes = #sdy<manual_axes{"model"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{?}, {?}]>]>}> ({
    ^bb0(%arg2: tensor<8x4xf32>, %arg3: tensor<4x4xf32>):
      %2 = "stablehlo.dot_general"(%arg2, %arg3) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
      %3 = "sdy.sharding_constraint"(%2) <{sharding = #sdy.sharding<@mesh, [{?}, {?}]>}> : (tensor<8x4xf32>) -> tensor<8x4xf32>
      %4 = "stablehlo.all_reduce"(%3) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> ({
      ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
        %5 = "stablehlo.add"(%arg4, %arg5) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        %6 = "sdy.sharding_constraint"(%5) <{sharding = #sdy.sharding<@mesh, []>}> : (tensor<f32>) -> tensor<f32>
        "stablehlo.return"(%6) : (tensor<f32>) -> ()
      }) : (tensor<8x4xf32>) -> tensor<8x4xf32>
      "sdy.return"(%4) : (tensor<8x4xf32>) -> ()
    }) : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
    %1 = "stablehlo.tanh"(%0) : (tensor<8x4xf32>) -> tensor<8x4xf32>
    "func.return"(%1) : (tensor<8x4xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
