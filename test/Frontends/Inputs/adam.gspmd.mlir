"builtin.module"() <{sym_name = "jit_adam"}> ({
  "func.func"() <{arg_attrs = [{mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}, {mhlo.sharding = "{devices=[2,4]<=[8]}"}], function_type = (tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<8x16xf32>, tensor<8x32xf32>) -> (tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>), res_attrs = [{jax.result_info = "result[0]", mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, {jax.result_info = "result[1]", mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, {jax.result_info = "result[2]", mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<16x32xf32>, %arg1: tensor<16x32xf32>, %arg2: tensor<16x32xf32>, %arg3: tensor<8x16xf32>, %arg4: tensor<8x32xf32>):
    %0 = "stablehlo.dot_general"(%arg3, %arg0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %1 = "stablehlo.subtract"(%0, %arg4) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %2 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %4 = "stablehlo.multiply"(%3, %1) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %5 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %6 = "stablehlo.constant"() <{value = dense<2.560000e+02> : tensor<f32>}> : () -> tensor<f32>
    %7 = "stablehlo.divide"(%5, %6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %8 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %9 = "stablehlo.multiply"(%8, %4) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %10 = "stablehlo.dot_general"(%9, %arg3) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x32xf32>, tensor<8x16xf32>) -> tensor<32x16xf32>
    %11 = "stablehlo.transpose"(%10) <{permutation = array<i64: 1, 0>}> : (tensor<32x16xf32>) -> tensor<16x32xf32>
    %12 = "stablehlo.constant"() <{value = dense<0.899999976> : tensor<f32>}> : () -> tensor<f32>
    %13 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x32xf32>
    %14 = "stablehlo.multiply"(%13, %arg1) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %15 = "stablehlo.constant"() <{value = dense<1.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %16 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x32xf32>
    %17 = "stablehlo.multiply"(%16, %11) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %18 = "stablehlo.add"(%14, %17) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %19 = "stablehlo.abs"(%arg2) : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %20 = "stablehlo.constant"() <{value = dense<9.990000e-01> : tensor<f32>}> : () -> tensor<f32>
    %21 = "stablehlo.broadcast_in_dim"(%20) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x32xf32>
    %22 = "stablehlo.multiply"(%21, %19) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %23 = "stablehlo.constant"() <{value = dense<1.000000e-03> : tensor<f32>}> : () -> tensor<f32>
    %24 = "stablehlo.broadcast_in_dim"(%23) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x32xf32>
    %25 = "stablehlo.multiply"(%24, %11) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %26 = "stablehlo.multiply"(%25, %11) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %27 = "stablehlo.add"(%22, %26) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %28 = "stablehlo.constant"() <{value = dense<1.000000e-03> : tensor<f32>}> : () -> tensor<f32>
    %29 = "stablehlo.broadcast_in_dim"(%28) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x32xf32>
    %30 = "stablehlo.multiply"(%29, %18) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %31 = "stablehlo.sqrt"(%27) : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %32 = "stablehlo.constant"() <{value = dense<9.99999993E-9> : tensor<f32>}> : () -> tensor<f32>
    %33 = "stablehlo.broadcast_in_dim"(%32) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x32xf32>
    %34 = "stablehlo.add"(%31, %33) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %35 = "stablehlo.divide"(%30, %34) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %36 = "stablehlo.subtract"(%arg0, %35) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    "func.return"(%36, %18, %27) : (tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
