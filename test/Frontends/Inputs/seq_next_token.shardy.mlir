"builtin.module"() <{sym_name = "jit_seq_next_token"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}, {}]>}], function_type = (tensor<4x48x16xf32>, tensor<4x48x16xf32>) -> tensor<f32>, res_attrs = [{jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, []>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg5: tensor<4x48x16xf32>, %arg6: tensor<4x48x16xf32>):
    %17 = "stablehlo.slice"(%arg5) <{limit_indices = array<i64: 4, 47, 16>, start_indices = array<i64: 0, 0, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<4x48x16xf32>) -> tensor<4x47x16xf32>
    %18 = "func.call"(%17) <{callee = @log_softmax}> : (tensor<4x47x16xf32>) -> tensor<4x47x16xf32>
    %19 = "stablehlo.slice"(%arg6) <{limit_indices = array<i64: 4, 48, 16>, start_indices = array<i64: 0, 1, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<4x48x16xf32>) -> tensor<4x47x16xf32>
    %20 = "stablehlo.multiply"(%18, %19) : (tensor<4x47x16xf32>, tensor<4x47x16xf32>) -> tensor<4x47x16xf32>
    %21 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %22 = "stablehlo.reduce"(%20, %21) <{dimensions = array<i64: 0, 1, 2>}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %24 = "stablehlo.add"(%arg7, %arg8) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%24) : (tensor<f32>) -> ()
    }) : (tensor<4x47x16xf32>, tensor<f32>) -> tensor<f32>
    %23 = "stablehlo.negate"(%22) : (tensor<f32>) -> tensor<f32>
    "func.return"(%23) : (tensor<f32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<4x47x16xf32>) -> tensor<4x47x16xf32>, res_attrs = [{}], sym_name = "log_softmax", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<4x47x16xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.reduce"(%arg0, %0) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %16 = "stablehlo.maximum"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%16) : (tensor<f32>) -> ()
    }) : (tensor<4x47x16xf32>, tensor<f32>) -> tensor<4x47xf32>
    %2 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x47xf32>
    %4 = "stablehlo.maximum"(%3, %1) : (tensor<4x47xf32>, tensor<4x47xf32>) -> tensor<4x47xf32>
    %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<4x47xf32>) -> tensor<4x47x1xf32>
    %6 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x47x1xf32>) -> tensor<4x47x16xf32>
    %7 = "stablehlo.subtract"(%arg0, %6) : (tensor<4x47x16xf32>, tensor<4x47x16xf32>) -> tensor<4x47x16xf32>
    %8 = "stablehlo.exponential"(%7) : (tensor<4x47x16xf32>) -> tensor<4x47x16xf32>
    %9 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %10 = "stablehlo.reduce"(%8, %9) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %15 = "stablehlo.add"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%15) : (tensor<f32>) -> ()
    }) : (tensor<4x47x16xf32>, tensor<f32>) -> tensor<4x47xf32>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<4x47xf32>) -> tensor<4x47x1xf32>
    %12 = "stablehlo.log"(%11) : (tensor<4x47x1xf32>) -> tensor<4x47x1xf32>
    %13 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x47x1xf32>) -> tensor<4x47x16xf32>
    %14 = "stablehlo.subtract"(%7, %13) : (tensor<4x47x16xf32>, tensor<4x47x16xf32>) -> tensor<4x47x16xf32>
    "func.return"(%14) : (tensor<4x47x16xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
