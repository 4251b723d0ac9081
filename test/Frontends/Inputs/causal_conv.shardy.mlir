"builtin.module"() <{sym_name = "jit_causal_conv"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}]>}], function_type = (tensor<2x32x8xf32>, tensor<4x8xf32>, tensor<8xf32>) -> tensor<2x32x8xf32>, res_attrs = [{jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}, {}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg3: tensor<2x32x8xf32>, %arg4: tensor<4x8xf32>, %arg5: tensor<8xf32>):
    %11 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %12 = "func.call"(%arg3, %11) <{callee = @_pad}> : (tensor<2x32x8xf32>, tensor<i32>) -> tensor<2x35x8xf32>
    %13 = "stablehlo.slice"(%12) <{limit_indices = array<i64: 2, 32, 8>, start_indices = array<i64: 0, 0, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<2x35x8xf32>) -> tensor<2x32x8xf32>
    %14 = "stablehlo.slice"(%arg4) <{limit_indices = array<i64: 1, 8>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<4x8xf32>) -> tensor<1x8xf32>
    %15 = "stablehlo.reshape"(%14) : (tensor<1x8xf32>) -> tensor<8xf32>
    %16 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64: 2>}> : (tensor<8xf32>) -> tensor<1x1x8xf32>
    %17 = "stablehlo.broadcast_in_dim"(%16) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x8xf32>) -> tensor<2x32x8xf32>
    %18 = "stablehlo.multiply"(%13, %17) : (tensor<2x32x8xf32>, tensor<2x32x8xf32>) -> tensor<2x32x8xf32>
    %19 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %20 = "stablehlo.broadcast_in_dim"(%19) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x32x8xf32>
    %21 = "stablehlo.add"(%20, %18) : (tensor<2x32x8xf32>, tensor<2x32x8xf32>) -> tensor<2x32x8xf32>
    %22 = "stablehlo.slice"(%12) <{limit_indices = array<i64: 2, 33, 8>, start_indices = array<i64: 0, 1, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<2x35x8xf32>) -> tensor<2x32x8xf32>
    %23 = "stablehlo.slice"(%arg4) <{limit_indices = array<i64: 2, 8>, start_indices = array<i64: 1, 0>, strides = array<i64: 1, 1>}> : (tensor<4x8xf32>) -> tensor<1x8xf32>
    %24 = "stablehlo.reshape"(%23) : (tensor<1x8xf32>) -> tensor<8xf32>
    %25 = "stablehlo.broadcast_in_dim"(%24) <{broadcast_dimensions = array<i64: 2>}> : (tensor<8xf32>) -> tensor<1x1x8xf32>
    %26 = "stablehlo.broadcast_in_dim"(%25) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x8xf32>) -> tensor<2x32x8xf32>
    %27 = "stablehlo.multiply"(%22, %26) : (tensor<2x32x8xf32>, tensor<2x32x8xf32>) -> tensor<2x32x8xf32>
    %28 = "stablehlo.add"(%21, %27) : (tensor<2x32x8xf32>, tensor<2x32x8xf32>) -> tensor<2x32x8xf32>
    %29 = "stablehlo.slice"(%12) <{limit_indices = array<i64: 2, 34, 8>, start_indices = array<i64: 0, 2, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<2x35x8xf32>) -> tensor<2x32x8xf32>
    %30 = "stablehlo.slice"(%arg4) <{limit_indices = array<i64: 3, 8>, start_indices = array<i64: 2, 0>, strides = array<i64: 1, 1>}> : (tensor<4x8xf32>) -> tensor<1x8xf32>
    %31 = "stablehlo.reshape"(%30) : (tensor<1x8xf32>) -> tensor<8xf32>
    %32 = "stablehlo.broadcast_in_dim"(%31) <{broadcast_dimensions = array<i64: 2>}> : (tensor<8xf32>) -> tensor<1x1x8xf32>
    %33 = "stablehlo.broadcast_in_dim"(%32) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x8xf32>) -> tensor<2x32x8xf32>
    %34 = "stablehlo.multiply"(%29, %33) : (tensor<2x32x8xf32>, tensor<2x32x8xf32>) -> tensor<2x32x8xf32>
    %35 = "stablehlo.add"(%28, %34) : (tensor<2x32x8xf32>, tensor<2x32x8xf32>) -> tensor<2x32x8xf32>
    %36 = "stablehlo.slice"(%12) <{limit_indices = array<i64: 2, 35, 8>, start_indices = array<i64: 0, 3, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<2x35x8xf32>) -> tensor<2x32x8xf32>
    %37 = "stablehlo.slice"(%arg4) <{limit_indices = array<i64: 4, 8>, start_indices = array<i64: 3, 0>, strides = array<i64: 1, 1>}> : (tensor<4x8xf32>) -> tensor<1x8xf32>
    %38 = "stablehlo.reshape"(%37) : (tensor<1x8xf32>) -> tensor<8xf32>
    %39 = "stablehlo.broadcast_in_dim"(%38) <{broadcast_dimensions = array<i64: 2>}> : (tensor<8xf32>) -> tensor<1x1x8xf32>
    %40 = "stablehlo.broadcast_in_dim"(%39) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x8xf32>) -> tensor<2x32x8xf32>
    %41 = "stablehlo.multiply"(%36, %40) : (tensor<2x32x8xf32>, tensor<2x32x8xf32>) -> tensor<2x32x8xf32>
    %42 = "stablehlo.add"(%35, %41) : (tensor<2x32x8xf32>, tensor<2x32x8xf32>) -> tensor<2x32x8xf32>
    %43 = "stablehlo.broadcast_in_dim"(%arg5) <{broadcast_dimensions = array<i64: 2>}> : (tensor<8xf32>) -> tensor<1x1x8xf32>
    %44 = "stablehlo.broadcast_in_dim"(%43) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x8xf32>) -> tensor<2x32x8xf32>
    %45 = "stablehlo.add"(%42, %44) : (tensor<2x32x8xf32>, tensor<2x32x8xf32>) -> tensor<2x32x8xf32>
    %46 = "func.call"(%45) <{callee = @silu}> : (tensor<2x32x8xf32>) -> tensor<2x32x8xf32>
    %47 = "stablehlo.multiply"(%46, %arg3) : (tensor<2x32x8xf32>, tensor<2x32x8xf32>) -> tensor<2x32x8xf32>
    "func.return"(%47) : (tensor<2x32x8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<2x32x8xf32>, tensor<i32>) -> tensor<2x35x8xf32>, res_attrs = [{}], sym_name = "_pad", sym_visibility = "private"}> ({
  ^bb0(%arg1: tensor<2x32x8xf32>, %arg2: tensor<i32>):
    %9 = "stablehlo.convert"(%arg2) : (tensor<i32>) -> tensor<f32>
    %10 = "stablehlo.pad"(%arg1, %9) <{edge_padding_high = array<i64: 0, 0, 0>, edge_padding_low = array<i64: 0, 3, 0>, interior_padding = array<i64: 0, 0, 0>}> : (tensor<2x32x8xf32>, tensor<f32>) -> tensor<2x35x8xf32>
    "func.return"(%10) : (tensor<2x35x8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<2x32x8xf32>) -> tensor<2x32x8xf32>, res_attrs = [{}], sym_name = "silu", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<2x32x8xf32>):
    %0 = "stablehlo.negate"(%arg0) : (tensor<2x32x8xf32>) -> tensor<2x32x8xf32>
    %1 = "stablehlo.exponential"(%0) : (tensor<2x32x8xf32>) -> tensor<2x32x8xf32>
    %2 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x32x8xf32>
    %4 = "stablehlo.add"(%3, %1) : (tensor<2x32x8xf32>, tensor<2x32x8xf32>) -> tensor<2x32x8xf32>
    %5 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %6 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x32x8xf32>
    %7 = "stablehlo.divide"(%6, %4) : (tensor<2x32x8xf32>, tensor<2x32x8xf32>) -> tensor<2x32x8xf32>
    %8 = "stablehlo.multiply"(%arg0, %7) : (tensor<2x32x8xf32>, tensor<2x32x8xf32>) -> tensor<2x32x8xf32>
    "func.return"(%8) : (tensor<2x32x8xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
