"builtin.module"() <{sym_name = "jit_scan"}> ({
  "func.func"() <{arg_attrs = [{mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}, {mhlo.sharding = "{devices=[1,1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, {mhlo.sharding = "{devices=[1,4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}], function_type = (tensor<8x16xf32>, tensor<3x16x32xf32>, tensor<3x32x16xf32>) -> tensor<8x16xf32>, res_attrs = [{jax.result_info = "result", mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg8: tensor<8x16xf32>, %arg9: tensor<3x16x32xf32>, %arg10: tensor<3x32x16xf32>):
    %15 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %16:4 = "stablehlo.while"(%arg9, %arg10, %15, %arg8) ({
    ^bb0(%arg15: tensor<3x16x32xf32>, %arg16: tensor<3x32x16xf32>, %arg17: tensor<i32>, %arg18: tensor<8x16xf32>):
      %22 = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
      %23 = "stablehlo.compare"(%arg17, %22) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%23) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg11: tensor<3x16x32xf32>, %arg12: tensor<3x32x16xf32>, %arg13: tensor<i32>, %arg14: tensor<8x16xf32>):
      %17 = "func.call"(%arg11, %arg13) <{callee = @dynamic_index_in_dim}> : (tensor<3x16x32xf32>, tensor<i32>) -> tensor<16x32xf32>
      %18 = "func.call"(%arg12, %arg13) <{callee = @dynamic_index_in_dim_0}> : (tensor<3x32x16xf32>, tensor<i32>) -> tensor<32x16xf32>
      %19 = "func.call"(%arg14, %17, %18) <{callee = @closed_call}> : (tensor<8x16xf32>, tensor<16x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
      %20 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %21 = "stablehlo.add"(%arg13, %20) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%arg11, %arg12, %21, %19) : (tensor<3x16x32xf32>, tensor<3x32x16xf32>, tensor<i32>, tensor<8x16xf32>) -> ()
    }) : (tensor<3x16x32xf32>, tensor<3x32x16xf32>, tensor<i32>, tensor<8x16xf32>) -> (tensor<3x16x32xf32>, tensor<3x32x16xf32>, tensor<i32>, tensor<8x16xf32>)
    "func.return"(%16#3) : (tensor<8x16xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<3x16x32xf32>, tensor<i32>) -> tensor<16x32xf32>, res_attrs = [{}], sym_name = "dynamic_index_in_dim", sym_visibility = "private"}> ({
  ^bb0(%arg6: tensor<3x16x32xf32>, %arg7: tensor<i32>):
    %11 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %12 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %13 = "stablehlo.dynamic_slice"(%arg6, %arg7, %11, %12) <{slice_sizes = array<i64: 1, 16, 32>}> : (tensor<3x16x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x32xf32>
    %14 = "stablehlo.reshape"(%13) : (tensor<1x16x32xf32>) -> tensor<16x32xf32>
    "func.return"(%14) : (tensor<16x32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<3x32x16xf32>, tensor<i32>) -> tensor<32x16xf32>, res_attrs = [{}], sym_name = "dynamic_index_in_dim_0", sym_visibility = "private"}> ({
  ^bb0(%arg4: tensor<3x32x16xf32>, %arg5: tensor<i32>):
    %7 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %8 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %9 = "stablehlo.dynamic_slice"(%arg4, %arg5, %7, %8) <{slice_sizes = array<i64: 1, 32, 16>}> : (tensor<3x32x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x32x16xf32>
    %10 = "stablehlo.reshape"(%9) : (tensor<1x32x16xf32>) -> tensor<32x16xf32>
    "func.return"(%10) : (tensor<32x16xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x16xf32>, tensor<16x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>, res_attrs = [{}], sym_name = "closed_call", sym_visibility = "private"}> ({
  ^bb0(%arg1: tensor<8x16xf32>, %arg2: tensor<16x32xf32>, %arg3: tensor<32x16xf32>):
    %3 = "stablehlo.dot_general"(%arg1, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %4 = "func.call"(%3) <{callee = @relu}> : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %5 = "stablehlo.dot_general"(%4, %arg3) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
    %6 = "stablehlo.add"(%arg1, %5) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    "func.return"(%6) : (tensor<8x16xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<8x32xf32>) -> tensor<8x32xf32>, res_attrs = [{}], sym_name = "relu", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<8x32xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %2 = "stablehlo.maximum"(%arg0, %1) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    "func.return"(%2) : (tensor<8x32xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
