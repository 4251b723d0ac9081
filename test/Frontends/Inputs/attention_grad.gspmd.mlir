"builtin.module"() <{sym_name = "jit_attention_grad"}> ({
  "func.func"() <{arg_attrs = [{mhlo.sharding = "{devices=[2,1,1,4]<=[8] last_tile_dim_replicate}"}, {mhlo.sharding = "{devices=[1,4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, {mhlo.sharding = "{devices=[1,4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, {mhlo.sharding = "{devices=[1,4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}], function_type = (tensor<2x8x32xf32>, tensor<32x4x8xf32>, tensor<32x4x8xf32>, tensor<32x4x8xf32>) -> tensor<32x4x8xf32>, res_attrs = [{jax.result_info = "result", mhlo.sharding = "{devices=[1,4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<2x8x32xf32>, %arg1: tensor<32x4x8xf32>, %arg2: tensor<32x4x8xf32>, %arg3: tensor<32x4x8xf32>):
    %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x32xf32>, tensor<32x4x8xf32>) -> tensor<2x8x4x8xf32>
    %1 = "stablehlo.dot_general"(%arg0, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x32xf32>, tensor<32x4x8xf32>) -> tensor<2x8x4x8xf32>
    %2 = "stablehlo.dot_general"(%arg0, %arg3) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x32xf32>, tensor<32x4x8xf32>) -> tensor<2x8x4x8xf32>
    %3 = "stablehlo.dot_general"(%0, %1) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 2], rhs_batching_dimensions = [0, 2], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x4x8xf32>, tensor<2x8x4x8xf32>) -> tensor<2x4x8x8xf32>
    %4 = "stablehlo.constant"() <{value = dense<2.82842708> : tensor<f32>}> : () -> tensor<f32>
    %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x8x8xf32>
    %6 = "stablehlo.divide"(%3, %5) : (tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %7 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %8 = "stablehlo.reduce"(%6, %7) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg10: tensor<f32>, %arg11: tensor<f32>):
      %59 = "stablehlo.maximum"(%arg10, %arg11) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%59) : (tensor<f32>) -> ()
    }) : (tensor<2x4x8x8xf32>, tensor<f32>) -> tensor<2x4x8xf32>
    %9 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x8xf32>
    %11 = "stablehlo.maximum"(%10, %8) : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    %12 = "stablehlo.broadcast_in_dim"(%11) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x4x8xf32>) -> tensor<2x4x8x1xf32>
    %13 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x4x8x1xf32>) -> tensor<2x4x8x8xf32>
    %14 = "stablehlo.subtract"(%6, %13) : (tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %15 = "stablehlo.exponential"(%14) : (tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %16 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %17 = "stablehlo.reduce"(%15, %16) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg8: tensor<f32>, %arg9: tensor<f32>):
      %58 = "stablehlo.add"(%arg8, %arg9) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%58) : (tensor<f32>) -> ()
    }) : (tensor<2x4x8x8xf32>, tensor<f32>) -> tensor<2x4x8xf32>
    %18 = "stablehlo.broadcast_in_dim"(%17) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x4x8xf32>) -> tensor<2x4x8x1xf32>
    %19 = "stablehlo.broadcast_in_dim"(%18) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x4x8x1xf32>) -> tensor<2x4x8x8xf32>
    %20 = "stablehlo.divide"(%15, %19) : (tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %21 = "stablehlo.multiply"(%18, %18) : (tensor<2x4x8x1xf32>, tensor<2x4x8x1xf32>) -> tensor<2x4x8x1xf32>
    %22 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %23 = "stablehlo.broadcast_in_dim"(%22) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x8x1xf32>
    %24 = "stablehlo.divide"(%23, %21) : (tensor<2x4x8x1xf32>, tensor<2x4x8x1xf32>) -> tensor<2x4x8x1xf32>
    %25 = "stablehlo.dot_general"(%2, %20) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 2], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [3]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x4x8xf32>, tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %26 = "stablehlo.transpose"(%25) <{permutation = array<i64: 0, 3, 1, 2>}> : (tensor<2x4x8x8xf32>) -> tensor<2x8x4x8xf32>
    %27 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %28 = "stablehlo.broadcast_in_dim"(%27) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x4x8xf32>
    %29 = "stablehlo.multiply"(%28, %26) : (tensor<2x8x4x8xf32>, tensor<2x8x4x8xf32>) -> tensor<2x8x4x8xf32>
    %30 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %31 = "stablehlo.broadcast_in_dim"(%30) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x8x4x8xf32>
    %32 = "stablehlo.multiply"(%31, %29) : (tensor<2x8x4x8xf32>, tensor<2x8x4x8xf32>) -> tensor<2x8x4x8xf32>
    %33 = "stablehlo.transpose"(%32) <{permutation = array<i64: 0, 2, 3, 1>}> : (tensor<2x8x4x8xf32>) -> tensor<2x4x8x8xf32>
    %34 = "stablehlo.dot_general"(%33, %2) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 2], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [3]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x4x8x8xf32>, tensor<2x8x4x8xf32>) -> tensor<2x4x8x8xf32>
    %35 = "stablehlo.broadcast_in_dim"(%24) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x4x8x1xf32>) -> tensor<2x4x8x8xf32>
    %36 = "stablehlo.multiply"(%34, %35) : (tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %37 = "stablehlo.multiply"(%36, %15) : (tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %38 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %39 = "stablehlo.reduce"(%37, %38) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %57 = "stablehlo.add"(%arg6, %arg7) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%57) : (tensor<f32>) -> ()
    }) : (tensor<2x4x8x8xf32>, tensor<f32>) -> tensor<2x4x8xf32>
    %40 = "stablehlo.reshape"(%39) : (tensor<2x4x8xf32>) -> tensor<2x4x8x1xf32>
    %41 = "stablehlo.negate"(%40) : (tensor<2x4x8x1xf32>) -> tensor<2x4x8x1xf32>
    %42 = "stablehlo.broadcast_in_dim"(%18) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<2x4x8x1xf32>) -> tensor<2x4x8x8xf32>
    %43 = "stablehlo.divide"(%34, %42) : (tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %44 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %45 = "stablehlo.reduce"(%41, %44) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %56 = "stablehlo.add"(%arg4, %arg5) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%56) : (tensor<f32>) -> ()
    }) : (tensor<2x4x8x1xf32>, tensor<f32>) -> tensor<2x4x8xf32>
    %46 = "stablehlo.broadcast_in_dim"(%45) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<2x4x8xf32>) -> tensor<2x4x8x8xf32>
    %47 = "stablehlo.add"(%43, %46) : (tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %48 = "stablehlo.multiply"(%47, %15) : (tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %49 = "stablehlo.constant"() <{value = dense<2.82842708> : tensor<f32>}> : () -> tensor<f32>
    %50 = "stablehlo.broadcast_in_dim"(%49) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x4x8x8xf32>
    %51 = "stablehlo.divide"(%48, %50) : (tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %52 = "stablehlo.dot_general"(%51, %1) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 2], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x4x8x8xf32>, tensor<2x8x4x8xf32>) -> tensor<2x4x8x8xf32>
    %53 = "stablehlo.transpose"(%52) <{permutation = array<i64: 0, 2, 1, 3>}> : (tensor<2x4x8x8xf32>) -> tensor<2x8x4x8xf32>
    %54 = "stablehlo.dot_general"(%53, %arg0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0, 1], rhs_contracting_dimensions = [0, 1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x8x4x8xf32>, tensor<2x8x32xf32>) -> tensor<4x8x32xf32>
    %55 = "stablehlo.transpose"(%54) <{permutation = array<i64: 2, 0, 1>}> : (tensor<4x8x32xf32>) -> tensor<32x4x8xf32>
    "func.return"(%55) : (tensor<32x4x8xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
