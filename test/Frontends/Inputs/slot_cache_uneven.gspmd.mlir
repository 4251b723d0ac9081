"builtin.module"() <{sym_name = "jit_slot_cache_uneven"}> ({
  "func.func"() <{arg_attrs = [{mhlo.sharding = "{replicated}"}, {mhlo.sharding = "{replicated}"}, {mhlo.sharding = "{replicated}"}, {mhlo.sharding = "{replicated}"}, {mhlo.sharding = "{replicated}"}], function_type = (tensor<4x10x16xf32>, tensor<10x16xf32>, tensor<i32>, tensor<i32>, tensor<16x16xf32>) -> (tensor<4x16xf32>, tensor<16xf32>), res_attrs = [{jax.result_info = "result[0]", mhlo.sharding = "{replicated}"}, {jax.result_info = "result[1]", mhlo.sharding = "{replicated}"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<4x10x16xf32>, %arg1: tensor<10x16xf32>, %arg2: tensor<i32>, %arg3: tensor<i32>, %arg4: tensor<16x16xf32>):
    %0 = "stablehlo.custom_call"(%arg0) <{api_version = 1 : i32, backend_config = "", call_target_name = "Sharding", called_computations = [], has_side_effect = false}> {mhlo.sharding = "{devices=[1,4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"} : (tensor<4x10x16xf32>) -> tensor<4x10x16xf32>
    %1 = "stablehlo.dot_general"(%arg1, %arg4) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<10x16xf32>, tensor<16x16xf32>) -> tensor<10x16xf32>
    %2 = "stablehlo.tanh"(%1) : (tensor<10x16xf32>) -> tensor<10x16xf32>
    %3 = "stablehlo.custom_call"(%2) <{api_version = 1 : i32, backend_config = "", call_target_name = "Sharding", called_computations = [], has_side_effect = false}> {mhlo.sharding = "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"} : (tensor<10x16xf32>) -> tensor<10x16xf32>
    %4 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<10x16xf32>) -> tensor<1x10x16xf32>
    %5 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %6 = "stablehlo.compare"(%arg2, %5) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %7 = "stablehlo.constant"() <{value = dense<4> : tensor<i32>}> : () -> tensor<i32>
    %8 = "stablehlo.add"(%arg2, %7) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %9 = "stablehlo.select"(%6, %8, %arg2) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %10 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %11 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %12 = "stablehlo.dynamic_update_slice"(%0, %4, %9, %10, %11) : (tensor<4x10x16xf32>, tensor<1x10x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x10x16xf32>
    %13 = "stablehlo.custom_call"(%12) <{api_version = 1 : i32, backend_config = "", call_target_name = "Sharding", called_computations = [], has_side_effect = false}> {mhlo.sharding = "{devices=[1,4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"} : (tensor<4x10x16xf32>) -> tensor<4x10x16xf32>
    %14 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %15 = "stablehlo.compare"(%arg3, %14) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %16 = "stablehlo.constant"() <{value = dense<4> : tensor<i32>}> : () -> tensor<i32>
    %17 = "stablehlo.add"(%arg3, %16) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %18 = "stablehlo.select"(%15, %17, %arg3) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %19 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %20 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %21 = "stablehlo.dynamic_slice"(%13, %18, %19, %20) <{slice_sizes = array<i64: 1, 10, 16>}> : (tensor<4x10x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x10x16xf32>
    %22 = "stablehlo.reshape"(%21) : (tensor<1x10x16xf32>) -> tensor<10x16xf32>
    %23 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %24 = "stablehlo.reduce"(%13, %23) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %29 = "stablehlo.add"(%arg7, %arg8) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%29) : (tensor<f32>) -> ()
    }) : (tensor<4x10x16xf32>, tensor<f32>) -> tensor<4x16xf32>
    %25 = "stablehlo.multiply"(%22, %22) : (tensor<10x16xf32>, tensor<10x16xf32>) -> tensor<10x16xf32>
    %26 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %27 = "stablehlo.reduce"(%25, %26) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %28 = "stablehlo.add"(%arg5, %arg6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%28) : (tensor<f32>) -> ()
    }) : (tensor<10x16xf32>, tensor<f32>) -> tensor<16xf32>
    "func.return"(%24, %27) : (tensor<4x16xf32>, tensor<16xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
