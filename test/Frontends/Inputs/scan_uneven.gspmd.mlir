"builtin.module"() <{sym_name = "jit_scan_uneven"}> ({
  "func.func"() <{arg_attrs = [{mhlo.sharding = "{devices=[2,4,1]<=[8]}"}, {mhlo.sharding = "{replicated}"}, {mhlo.sharding = "{replicated}"}], function_type = (tensor<4x12x16xf32>, tensor<16x16xf32>, tensor<3x16x16xf32>) -> tensor<4x16xf32>, res_attrs = [{jax.result_info = "result", mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg4: tensor<4x12x16xf32>, %arg5: tensor<16x16xf32>, %arg6: tensor<3x16x16xf32>):
    %7 = "stablehlo.dot_general"(%arg4, %arg5) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x12x16xf32>, tensor<16x16xf32>) -> tensor<4x12x16xf32>
    %8 = "stablehlo.tanh"(%7) : (tensor<4x12x16xf32>) -> tensor<4x12x16xf32>
    %9 = "stablehlo.slice"(%8) <{limit_indices = array<i64: 4, 10, 16>, start_indices = array<i64: 0, 0, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<4x12x16xf32>) -> tensor<4x10x16xf32>
    %10 = "stablehlo.custom_call"(%9) <{api_version = 1 : i32, backend_config = "", call_target_name = "Sharding", called_computations = [], has_side_effect = false}> {mhlo.sharding = "{devices=[2,4,1]<=[8]}"} : (tensor<4x10x16xf32>) -> tensor<4x10x16xf32>
    %11 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %12:3 = "stablehlo.while"(%arg6, %11, %10) ({
    ^bb0(%arg12: tensor<3x16x16xf32>, %arg13: tensor<i32>, %arg14: tensor<4x10x16xf32>):
      %23 = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
      %24 = "stablehlo.compare"(%arg13, %23) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%24) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg9: tensor<3x16x16xf32>, %arg10: tensor<i32>, %arg11: tensor<4x10x16xf32>):
      %19 = "func.call"(%arg9, %arg10) <{callee = @dynamic_index_in_dim}> : (tensor<3x16x16xf32>, tensor<i32>) -> tensor<16x16xf32>
      %20 = "func.call"(%arg11, %19) <{callee = @closed_call}> : (tensor<4x10x16xf32>, tensor<16x16xf32>) -> tensor<4x10x16xf32>
      %21 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %22 = "stablehlo.add"(%arg10, %21) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%arg9, %22, %20) : (tensor<3x16x16xf32>, tensor<i32>, tensor<4x10x16xf32>) -> ()
    }) : (tensor<3x16x16xf32>, tensor<i32>, tensor<4x10x16xf32>) -> (tensor<3x16x16xf32>, tensor<i32>, tensor<4x10x16xf32>)
    %13 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %14 = "stablehlo.reduce"(%12#2, %13) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %18 = "stablehlo.add"(%arg7, %arg8) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%18) : (tensor<f32>) -> ()
    }) : (tensor<4x10x16xf32>, tensor<f32>) -> tensor<4x16xf32>
    %15 = "stablehlo.constant"() <{value = dense<1.000000e+01> : tensor<f32>}> : () -> tensor<f32>
    %16 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16xf32>
    %17 = "stablehlo.divide"(%14, %16) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    "func.return"(%17) : (tensor<4x16xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<3x16x16xf32>, tensor<i32>) -> tensor<16x16xf32>, res_attrs = [{}], sym_name = "dynamic_index_in_dim", sym_visibility = "private"}> ({
  ^bb0(%arg2: tensor<3x16x16xf32>, %arg3: tensor<i32>):
    %3 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %4 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %5 = "stablehlo.dynamic_slice"(%arg2, %arg3, %3, %4) <{slice_sizes = array<i64: 1, 16, 16>}> : (tensor<3x16x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x16xf32>
    %6 = "stablehlo.reshape"(%5) : (tensor<1x16x16xf32>) -> tensor<16x16xf32>
    "func.return"(%6) : (tensor<16x16xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x10x16xf32>, tensor<16x16xf32>) -> tensor<4x10x16xf32>, res_attrs = [{}], sym_name = "closed_call", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<4x10x16xf32>, %arg1: tensor<16x16xf32>):
    %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x10x16xf32>, tensor<16x16xf32>) -> tensor<4x10x16xf32>
    %1 = "stablehlo.tanh"(%0) : (tensor<4x10x16xf32>) -> tensor<4x10x16xf32>
    %2 = "stablehlo.custom_call"(%1) <{api_version = 1 : i32, backend_config = "", call_target_name = "Sharding", called_computations = [], has_side_effect = false}> {mhlo.sharding = "{devices=[2,4,1]<=[8]}"} : (tensor<4x10x16xf32>) -> tensor<4x10x16xf32>
    "func.return"(%2) : (tensor<4x10x16xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
