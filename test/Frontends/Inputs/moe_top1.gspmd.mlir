"builtin.module"() <{sym_name = "jit_moe_top1"}> ({
  "func.func"() <{arg_attrs = [{mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}, {mhlo.sharding = "{replicated}"}, {mhlo.sharding = "{devices=[4,1,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}], function_type = (tensor<16x8xf32>, tensor<8x4xf32>, tensor<4x8x16xf32>) -> tensor<16x16xf32>, res_attrs = [{jax.result_info = "result", mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg6: tensor<16x8xf32>, %arg7: tensor<8x4xf32>, %arg8: tensor<4x8x16xf32>):
    %19 = "stablehlo.dot_general"(%arg6, %arg7) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x8xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
    %20 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %21 = "stablehlo.reduce"(%19, %20) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg13: tensor<f32>, %arg14: tensor<f32>):
      %48 = "stablehlo.maximum"(%arg13, %arg14) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%48) : (tensor<f32>) -> ()
    }) : (tensor<16x4xf32>, tensor<f32>) -> tensor<16xf32>
    %22 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %23 = "stablehlo.broadcast_in_dim"(%22) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %24 = "stablehlo.maximum"(%23, %21) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    %25 = "stablehlo.broadcast_in_dim"(%24) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %26 = "stablehlo.broadcast_in_dim"(%25) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x4xf32>
    %27 = "stablehlo.subtract"(%19, %26) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    %28 = "stablehlo.exponential"(%27) : (tensor<16x4xf32>) -> tensor<16x4xf32>
    %29 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %30 = "stablehlo.reduce"(%28, %29) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg11: tensor<f32>, %arg12: tensor<f32>):
      %47 = "stablehlo.add"(%arg11, %arg12) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%47) : (tensor<f32>) -> ()
    }) : (tensor<16x4xf32>, tensor<f32>) -> tensor<16xf32>
    %31 = "stablehlo.broadcast_in_dim"(%30) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %32 = "stablehlo.broadcast_in_dim"(%31) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x4xf32>
    %33 = "stablehlo.divide"(%28, %32) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    %34 = "func.call"(%33) <{callee = @argmax}> : (tensor<16x4xf32>) -> tensor<16xi32>
    %35 = "func.call"(%34) <{callee = @_one_hot}> : (tensor<16xi32>) -> tensor<16x4xf32>
    %36 = "stablehlo.dot_general"(%arg6, %35) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x8xf32>, tensor<16x4xf32>) -> tensor<16x8x4xf32>
    %37 = "stablehlo.transpose"(%36) <{permutation = array<i64: 2, 0, 1>}> : (tensor<16x8x4xf32>) -> tensor<4x16x8xf32>
    %38 = "stablehlo.dot_general"(%37, %arg8) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x16x8xf32>, tensor<4x8x16xf32>) -> tensor<4x16x16xf32>
    %39 = "stablehlo.dot_general"(%38, %35) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [1], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x16x16xf32>, tensor<16x4xf32>) -> tensor<16x16xf32>
    %40 = "stablehlo.multiply"(%33, %35) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    %41 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %42 = "stablehlo.reduce"(%40, %41) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg9: tensor<f32>, %arg10: tensor<f32>):
      %46 = "stablehlo.add"(%arg9, %arg10) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%46) : (tensor<f32>) -> ()
    }) : (tensor<16x4xf32>, tensor<f32>) -> tensor<16xf32>
    %43 = "stablehlo.broadcast_in_dim"(%42) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %44 = "stablehlo.broadcast_in_dim"(%43) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x16xf32>
    %45 = "stablehlo.multiply"(%39, %44) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    "func.return"(%45) : (tensor<16x16xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<16x4xf32>) -> tensor<16xi32>, sym_name = "argmax", sym_visibility = "private"}> ({
  ^bb0(%arg1: tensor<16x4xf32>):
    %6 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<16x4xi32>
    %7 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %8 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %9:2 = "stablehlo.reduce"(%arg1, %6, %7, %8) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<i32>, %arg4: tensor<f32>, %arg5: tensor<i32>):
      %10 = "stablehlo.compare"(%arg2, %arg4) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %11 = "stablehlo.compare"(%arg2, %arg2) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %12 = "stablehlo.or"(%10, %11) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %13 = "stablehlo.compare"(%arg2, %arg4) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %14 = "stablehlo.compare"(%arg3, %arg5) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %15 = "stablehlo.and"(%13, %14) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %16 = "stablehlo.or"(%12, %15) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %17 = "stablehlo.select"(%12, %arg2, %arg4) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %18 = "stablehlo.select"(%16, %arg3, %arg5) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%17, %18) : (tensor<f32>, tensor<i32>) -> ()
    }) : (tensor<16x4xf32>, tensor<16x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<16xf32>, tensor<16xi32>)
    "func.return"(%9#1) : (tensor<16xi32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<16xi32>) -> tensor<16x4xf32>, res_attrs = [{}], sym_name = "_one_hot", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<16xi32>):
    %0 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xi32>) -> tensor<16x1xi32>
    %1 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<1x4xi32>
    %2 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xi32>) -> tensor<16x4xi32>
    %3 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x4xi32>) -> tensor<16x4xi32>
    %4 = "stablehlo.compare"(%2, %3) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<16x4xi32>, tensor<16x4xi32>) -> tensor<16x4xi1>
    %5 = "stablehlo.convert"(%4) : (tensor<16x4xi1>) -> tensor<16x4xf32>
    "func.return"(%5) : (tensor<16x4xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
