"builtin.module"() <{sym_name = "jit_kv_decode_uneven"}> ({
  "func.func"() <{arg_attrs = [{mhlo.sharding = "{devices=[2,1,1,1,4]<=[8] last_tile_dim_replicate}"}, {mhlo.sharding = "{devices=[2,1,1,1,4]<=[8] last_tile_dim_replicate}"}, {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}, {mhlo.sharding = "{replicated}"}, {mhlo.sharding = "{replicated}"}, {mhlo.sharding = "{replicated}"}, {mhlo.sharding = "{replicated}"}, {mhlo.sharding = "{replicated}"}], function_type = (tensor<4x4x10x8xf32>, tensor<4x4x10x8xf32>, tensor<4x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<i32>) -> (tensor<4x32xf32>, tensor<4x4x10x8xf32>, tensor<4x4x10x8xf32>), res_attrs = [{jax.result_info = "result[0]", mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}, {jax.result_info = "result[1]", mhlo.sharding = "{devices=[2,1,1,1,4]<=[8] last_tile_dim_replicate}"}, {jax.result_info = "result[2]", mhlo.sharding = "{devices=[2,1,1,1,4]<=[8] last_tile_dim_replicate}"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg3: tensor<4x4x10x8xf32>, %arg4: tensor<4x4x10x8xf32>, %arg5: tensor<4x32xf32>, %arg6: tensor<32x32xf32>, %arg7: tensor<32x32xf32>, %arg8: tensor<32x32xf32>, %arg9: tensor<32x32xf32>, %arg10: tensor<i32>):
    %4 = "stablehlo.custom_call"(%arg3) <{api_version = 1 : i32, backend_config = "", call_target_name = "Sharding", called_computations = [], has_side_effect = false}> {mhlo.sharding = "{devices=[2,1,4,1]<=[8]}"} : (tensor<4x4x10x8xf32>) -> tensor<4x4x10x8xf32>
    %5 = "stablehlo.custom_call"(%arg4) <{api_version = 1 : i32, backend_config = "", call_target_name = "Sharding", called_computations = [], has_side_effect = false}> {mhlo.sharding = "{devices=[2,1,4,1]<=[8]}"} : (tensor<4x4x10x8xf32>) -> tensor<4x4x10x8xf32>
    %6 = "stablehlo.dot_general"(%arg5, %arg6) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x32xf32>, tensor<32x32xf32>) -> tensor<4x32xf32>
    %7 = "stablehlo.reshape"(%6) : (tensor<4x32xf32>) -> tensor<4x4x8xf32>
    %8 = "stablehlo.dot_general"(%arg5, %arg7) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x32xf32>, tensor<32x32xf32>) -> tensor<4x32xf32>
    %9 = "stablehlo.reshape"(%8) : (tensor<4x32xf32>) -> tensor<4x4x8xf32>
    %10 = "stablehlo.dot_general"(%arg5, %arg8) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x32xf32>, tensor<32x32xf32>) -> tensor<4x32xf32>
    %11 = "stablehlo.reshape"(%10) : (tensor<4x32xf32>) -> tensor<4x4x8xf32>
    %12 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64: 0, 1, 3>}> : (tensor<4x4x8xf32>) -> tensor<4x4x1x8xf32>
    %13 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %14 = "stablehlo.compare"(%arg10, %13) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %15 = "stablehlo.constant"() <{value = dense<10> : tensor<i32>}> : () -> tensor<i32>
    %16 = "stablehlo.add"(%arg10, %15) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %17 = "stablehlo.select"(%14, %16, %arg10) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %18 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %19 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %20 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %21 = "stablehlo.dynamic_update_slice"(%4, %12, %18, %19, %17, %20) : (tensor<4x4x10x8xf32>, tensor<4x4x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x4x10x8xf32>
    %22 = "stablehlo.custom_call"(%21) <{api_version = 1 : i32, backend_config = "", call_target_name = "Sharding", called_computations = [], has_side_effect = false}> {mhlo.sharding = "{devices=[2,1,4,1]<=[8]}"} : (tensor<4x4x10x8xf32>) -> tensor<4x4x10x8xf32>
    %23 = "stablehlo.broadcast_in_dim"(%11) <{broadcast_dimensions = array<i64: 0, 1, 3>}> : (tensor<4x4x8xf32>) -> tensor<4x4x1x8xf32>
    %24 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %25 = "stablehlo.compare"(%arg10, %24) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %26 = "stablehlo.constant"() <{value = dense<10> : tensor<i32>}> : () -> tensor<i32>
    %27 = "stablehlo.add"(%arg10, %26) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %28 = "stablehlo.select"(%25, %27, %arg10) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %29 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %30 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %31 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %32 = "stablehlo.dynamic_update_slice"(%5, %23, %29, %30, %28, %31) : (tensor<4x4x10x8xf32>, tensor<4x4x1x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x4x10x8xf32>
    %33 = "stablehlo.custom_call"(%32) <{api_version = 1 : i32, backend_config = "", call_target_name = "Sharding", called_computations = [], has_side_effect = false}> {mhlo.sharding = "{devices=[2,1,4,1]<=[8]}"} : (tensor<4x4x10x8xf32>) -> tensor<4x4x10x8xf32>
    %34 = "stablehlo.dot_general"(%7, %22) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [3]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x4x8xf32>, tensor<4x4x10x8xf32>) -> tensor<4x4x10xf32>
    %35 = "stablehlo.constant"() <{value = dense<2.82842708> : tensor<f32>}> : () -> tensor<f32>
    %36 = "stablehlo.broadcast_in_dim"(%35) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4x10xf32>
    %37 = "stablehlo.divide"(%34, %36) : (tensor<4x4x10xf32>, tensor<4x4x10xf32>) -> tensor<4x4x10xf32>
    %38 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<10xi32>
    %39 = "stablehlo.broadcast_in_dim"(%38) <{broadcast_dimensions = array<i64: 2>}> : (tensor<10xi32>) -> tensor<1x1x10xi32>
    %40 = "stablehlo.broadcast_in_dim"(%arg10) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<1x1x10xi32>
    %41 = "stablehlo.compare"(%39, %40) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<1x1x10xi32>, tensor<1x1x10xi32>) -> tensor<1x1x10xi1>
    %42 = "stablehlo.constant"() <{value = dense<-1.000000e+09> : tensor<f32>}> : () -> tensor<f32>
    %43 = "func.call"(%41, %37, %42) <{callee = @_where}> : (tensor<1x1x10xi1>, tensor<4x4x10xf32>, tensor<f32>) -> tensor<4x4x10xf32>
    %44 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %45 = "stablehlo.reduce"(%43, %44) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg13: tensor<f32>, %arg14: tensor<f32>):
      %62 = "stablehlo.maximum"(%arg13, %arg14) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%62) : (tensor<f32>) -> ()
    }) : (tensor<4x4x10xf32>, tensor<f32>) -> tensor<4x4xf32>
    %46 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %47 = "stablehlo.broadcast_in_dim"(%46) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4xf32>
    %48 = "stablehlo.maximum"(%47, %45) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %49 = "stablehlo.broadcast_in_dim"(%48) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<4x4xf32>) -> tensor<4x4x1xf32>
    %50 = "stablehlo.broadcast_in_dim"(%49) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x4x1xf32>) -> tensor<4x4x10xf32>
    %51 = "stablehlo.subtract"(%43, %50) : (tensor<4x4x10xf32>, tensor<4x4x10xf32>) -> tensor<4x4x10xf32>
    %52 = "stablehlo.exponential"(%51) : (tensor<4x4x10xf32>) -> tensor<4x4x10xf32>
    %53 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %54 = "stablehlo.reduce"(%52, %53) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg11: tensor<f32>, %arg12: tensor<f32>):
      %61 = "stablehlo.add"(%arg11, %arg12) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%61) : (tensor<f32>) -> ()
    }) : (tensor<4x4x10xf32>, tensor<f32>) -> tensor<4x4xf32>
    %55 = "stablehlo.broadcast_in_dim"(%54) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<4x4xf32>) -> tensor<4x4x1xf32>
    %56 = "stablehlo.broadcast_in_dim"(%55) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x4x1xf32>) -> tensor<4x4x10xf32>
    %57 = "stablehlo.divide"(%52, %56) : (tensor<4x4x10xf32>, tensor<4x4x10xf32>) -> tensor<4x4x10xf32>
    %58 = "stablehlo.dot_general"(%57, %33) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x4x10xf32>, tensor<4x4x10x8xf32>) -> tensor<4x4x8xf32>
    %59 = "stablehlo.reshape"(%58) : (tensor<4x4x8xf32>) -> tensor<4x32xf32>
    %60 = "stablehlo.dot_general"(%59, %arg9) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x32xf32>, tensor<32x32xf32>) -> tensor<4x32xf32>
    "func.return"(%60, %22, %33) : (tensor<4x32xf32>, tensor<4x4x10x8xf32>, tensor<4x4x10x8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<1x1x10xi1>, tensor<4x4x10xf32>, tensor<f32>) -> tensor<4x4x10xf32>, res_attrs = [{}], sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<1x1x10xi1>, %arg1: tensor<4x4x10xf32>, %arg2: tensor<f32>):
    %0 = "stablehlo.convert"(%arg2) : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x10xi1>) -> tensor<4x4x10xi1>
    %2 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4x10xf32>
    %3 = "stablehlo.select"(%1, %arg1, %2) : (tensor<4x4x10xi1>, tensor<4x4x10xf32>, tensor<4x4x10xf32>) -> tensor<4x4x10xf32>
    "func.return"(%3) : (tensor<4x4x10xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
