"builtin.module"() <{sym_name = "jit_rope_head_dim"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {"model"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}], function_type = (tensor<8x4x64xf32>, tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x4x64xf32>, res_attrs = [{jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}, {"model"}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x4x64xf32>, %arg1: tensor<8x64xf32>, %arg2: tensor<8x64xf32>):
    %0 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 8, 4, 64>, start_indices = array<i64: 0, 0, 32>, strides = array<i64: 1, 1, 1>}> : (tensor<8x4x64xf32>) -> tensor<8x4x32xf32>
    %1 = "stablehlo.negate"(%0) : (tensor<8x4x32xf32>) -> tensor<8x4x32xf32>
    %2 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 8, 4, 32>, start_indices = array<i64: 0, 0, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<8x4x64xf32>) -> tensor<8x4x32xf32>
    %3 = "stablehlo.concatenate"(%1, %2) <{dimension = 2 : i64}> : (tensor<8x4x32xf32>, tensor<8x4x32xf32>) -> tensor<8x4x64xf32>
    %4 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64: 0, 2>}> : (tensor<8x64xf32>) -> tensor<8x1x64xf32>
    %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<8x1x64xf32>) -> tensor<8x4x64xf32>
    %6 = "stablehlo.multiply"(%arg0, %5) : (tensor<8x4x64xf32>, tensor<8x4x64xf32>) -> tensor<8x4x64xf32>
    %7 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64: 0, 2>}> : (tensor<8x64xf32>) -> tensor<8x1x64xf32>
    %8 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<8x1x64xf32>) -> tensor<8x4x64xf32>
    %9 = "stablehlo.multiply"(%3, %8) : (tensor<8x4x64xf32>, tensor<8x4x64xf32>) -> tensor<8x4x64xf32>
    %10 = "stablehlo.add"(%6, %9) : (tensor<8x4x64xf32>, tensor<8x4x64xf32>) -> tensor<8x4x64xf32>
    "func.return"(%10) : (tensor<8x4x64xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
