"builtin.module"() <{sym_name = "jit_axis_indices"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}], function_type = (tensor<8x8xf32>) -> tensor<8x8xf32>, res_attrs = [{jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x8xf32>):
    %0 = "sdy.manual_computation"(%arg0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{}, {"model"}]>]>, manual_axes = #sdy<manual_axes{"data", "model"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{}, {"model"}]>]>}> ({
    ^bb0(%arg2: tensor<8x2xf32>):
      %11 = "stablehlo.constant"() <{value = dense<1> : tensor<ui32>}> : () -> tensor<ui32>
      %12 = "stablehlo.constant"() <{value = dense<4> : tensor<ui32>}> : () -> tensor<ui32>
      %13 = "stablehlo.partition_id"() : () -> tensor<ui32>
      %14 = "stablehlo.divide"(%13, %11) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
      %15 = "stablehlo.remainder"(%14, %12) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
      %16 = "stablehlo.convert"(%15) : (tensor<ui32>) -> tensor<i32>
      %17 = "stablehlo.convert"(%16) : (tensor<i32>) -> tensor<f32>
      %18 = "stablehlo.broadcast_in_dim"(%17) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x2xf32>
      %19 = "stablehlo.add"(%arg2, %18) : (tensor<8x2xf32>, tensor<8x2xf32>) -> tensor<8x2xf32>
      "sdy.return"(%19) : (tensor<8x2xf32>) -> ()
    }) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %1 = "sdy.manual_computation"(%0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>]>, manual_axes = #sdy<manual_axes{"data", "model"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{"data"}, {}]>]>}> ({
    ^bb0(%arg1: tensor<4x8xf32>):
      %2 = "stablehlo.constant"() <{value = dense<4> : tensor<ui32>}> : () -> tensor<ui32>
      %3 = "stablehlo.constant"() <{value = dense<2> : tensor<ui32>}> : () -> tensor<ui32>
      %4 = "stablehlo.partition_id"() : () -> tensor<ui32>
      %5 = "stablehlo.divide"(%4, %2) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
      %6 = "stablehlo.remainder"(%5, %3) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
      %7 = "stablehlo.convert"(%6) : (tensor<ui32>) -> tensor<i32>
      %8 = "stablehlo.convert"(%7) : (tensor<i32>) -> tensor<f32>
      %9 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8xf32>
      %10 = "stablehlo.multiply"(%arg1, %9) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
      "sdy.return"(%10) : (tensor<4x8xf32>) -> ()
    }) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    "func.return"(%1) : (tensor<8x8xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
