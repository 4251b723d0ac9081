"builtin.module"() <{sym_name = "jit_ring_step"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}], function_type = (tensor<4x8xf32>) -> tensor<4x8xf32>, res_attrs = [{jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<4x8xf32>):
    %0 = "sdy.manual_computation"(%arg0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"data"}, {"model"}]>]>, manual_axes = #sdy<manual_axes{"data", "model"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"data"}, {"model"}]>]>}> ({
    ^bb0(%arg1: tensor<2x2xf32>):
      %4 = "stablehlo.constant"() <{value = dense<1> : tensor<ui32>}> : () -> tensor<ui32>
      %5 = "stablehlo.constant"() <{value = dense<4> : tensor<ui32>}> : () -> tensor<ui32>
      %6 = "stablehlo.partition_id"() : () -> tensor<ui32>
      %7 = "stablehlo.divide"(%6, %4) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
      %8 = "stablehlo.remainder"(%7, %5) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
      %9 = "stablehlo.convert"(%8) : (tensor<ui32>) -> tensor<i32>
      %10 = "stablehlo.convert"(%9) : (tensor<i32>) -> tensor<f32>
      %11 = "stablehlo.collective_permute"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [1, 2], [2, 3], [3, 0], [4, 5], [5, 6], [6, 7], [7, 4]]> : tensor<8x2xi64>}> : (tensor<2x2xf32>) -> tensor<2x2xf32>
      %12 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x2xf32>
      %13 = "stablehlo.add"(%11, %12) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
      "sdy.return"(%13) : (tensor<2x2xf32>) -> ()
    }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %1 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %2 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8xf32>
    %3 = "stablehlo.multiply"(%0, %2) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    "func.return"(%3) : (tensor<4x8xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
