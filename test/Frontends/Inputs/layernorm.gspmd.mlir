"builtin.module"() <{sym_name = "jit_layernorm"}> ({
  "func.func"() <{arg_attrs = [{mhlo.sharding = "{devices=[2,4]<=[8]}"}, {mhlo.sharding = "{devices=[4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, {mhlo.sharding = "{devices=[4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}], function_type = (tensor<8x32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<8x32xf32>, res_attrs = [{jax.result_info = "result", mhlo.sharding = "{devices=[2,4]<=[8]}"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x32xf32>, %arg1: tensor<32xf32>, %arg2: tensor<32xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.reduce"(%arg0, %0) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %30 = "stablehlo.add"(%arg5, %arg6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%30) : (tensor<f32>) -> ()
    }) : (tensor<8x32xf32>, tensor<f32>) -> tensor<8xf32>
    %2 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %3 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %4 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %5 = "stablehlo.divide"(%2, %4) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %6 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x32xf32>
    %7 = "stablehlo.subtract"(%arg0, %6) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %8 = "chlo.square"(%7) : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %9 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %10 = "stablehlo.reduce"(%8, %9) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %29 = "stablehlo.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%29) : (tensor<f32>) -> ()
    }) : (tensor<8x32xf32>, tensor<f32>) -> tensor<8xf32>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %12 = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %13 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %14 = "stablehlo.divide"(%11, %13) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %15 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x32xf32>
    %16 = "stablehlo.subtract"(%arg0, %15) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %17 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %18 = "stablehlo.broadcast_in_dim"(%17) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %19 = "stablehlo.add"(%14, %18) : (tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    %20 = "stablehlo.rsqrt"(%19) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %21 = "stablehlo.broadcast_in_dim"(%20) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x32xf32>
    %22 = "stablehlo.multiply"(%16, %21) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %23 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64: 1>}> : (tensor<32xf32>) -> tensor<1x32xf32>
    %24 = "stablehlo.broadcast_in_dim"(%23) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x32xf32>) -> tensor<8x32xf32>
    %25 = "stablehlo.multiply"(%22, %24) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %26 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64: 1>}> : (tensor<32xf32>) -> tensor<1x32xf32>
    %27 = "stablehlo.broadcast_in_dim"(%26) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x32xf32>) -> tensor<8x32xf32>
    %28 = "stablehlo.add"(%25, %27) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    "func.return"(%28) : (tensor<8x32xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
