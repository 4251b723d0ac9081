"builtin.module"() <{sym_name = "jit_gradacc"}> ({
  "func.func"() <{arg_attrs = [{mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, {mhlo.sharding = "{devices=[1,2,1,4]<=[8] last_tile_dim_replicate}"}, {mhlo.sharding = "{devices=[1,2,4]<=[8]}"}], function_type = (tensor<16x32xf32>, tensor<4x8x16xf32>, tensor<4x8x32xf32>) -> tensor<16x32xf32>, res_attrs = [{jax.result_info = "result", mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg8: tensor<16x32xf32>, %arg9: tensor<4x8x16xf32>, %arg10: tensor<4x8x32xf32>):
    %19 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %20 = "stablehlo.broadcast_in_dim"(%19) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x32xf32>
    %21 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %22:5 = "stablehlo.while"(%arg9, %arg10, %arg8, %21, %20) ({
    ^bb0(%arg16: tensor<4x8x16xf32>, %arg17: tensor<4x8x32xf32>, %arg18: tensor<16x32xf32>, %arg19: tensor<i32>, %arg20: tensor<16x32xf32>):
      %28 = "stablehlo.constant"() <{value = dense<4> : tensor<i32>}> : () -> tensor<i32>
      %29 = "stablehlo.compare"(%arg19, %28) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%29) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg11: tensor<4x8x16xf32>, %arg12: tensor<4x8x32xf32>, %arg13: tensor<16x32xf32>, %arg14: tensor<i32>, %arg15: tensor<16x32xf32>):
      %23 = "func.call"(%arg11, %arg14) <{callee = @dynamic_index_in_dim}> : (tensor<4x8x16xf32>, tensor<i32>) -> tensor<8x16xf32>
      %24 = "func.call"(%arg12, %arg14) <{callee = @dynamic_index_in_dim_0}> : (tensor<4x8x32xf32>, tensor<i32>) -> tensor<8x32xf32>
      %25 = "func.call"(%arg13, %arg15, %23, %24) <{callee = @closed_call}> : (tensor<16x32xf32>, tensor<16x32xf32>, tensor<8x16xf32>, tensor<8x32xf32>) -> tensor<16x32xf32>
      %26 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %27 = "stablehlo.add"(%arg14, %26) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%arg11, %arg12, %arg13, %27, %25) : (tensor<4x8x16xf32>, tensor<4x8x32xf32>, tensor<16x32xf32>, tensor<i32>, tensor<16x32xf32>) -> ()
    }) : (tensor<4x8x16xf32>, tensor<4x8x32xf32>, tensor<16x32xf32>, tensor<i32>, tensor<16x32xf32>) -> (tensor<4x8x16xf32>, tensor<4x8x32xf32>, tensor<16x32xf32>, tensor<i32>, tensor<16x32xf32>)
    "func.return"(%22#4) : (tensor<16x32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<4x8x16xf32>, tensor<i32>) -> tensor<8x16xf32>, res_attrs = [{}], sym_name = "dynamic_index_in_dim", sym_visibility = "private"}> ({
  ^bb0(%arg6: tensor<4x8x16xf32>, %arg7: tensor<i32>):
    %15 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %16 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %17 = "stablehlo.dynamic_slice"(%arg6, %arg7, %15, %16) <{slice_sizes = array<i64: 1, 8, 16>}> : (tensor<4x8x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x8x16xf32>
    %18 = "stablehlo.reshape"(%17) : (tensor<1x8x16xf32>) -> tensor<8x16xf32>
    "func.return"(%18) : (tensor<8x16xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<4x8x32xf32>, tensor<i32>) -> tensor<8x32xf32>, res_attrs = [{}], sym_name = "dynamic_index_in_dim_0", sym_visibility = "private"}> ({
  ^bb0(%arg4: tensor<4x8x32xf32>, %arg5: tensor<i32>):
    %11 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %12 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %13 = "stablehlo.dynamic_slice"(%arg4, %arg5, %11, %12) <{slice_sizes = array<i64: 1, 8, 32>}> : (tensor<4x8x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x8x32xf32>
    %14 = "stablehlo.reshape"(%13) : (tensor<1x8x32xf32>) -> tensor<8x32xf32>
    "func.return"(%14) : (tensor<8x32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<16x32xf32>, tensor<16x32xf32>, tensor<8x16xf32>, tensor<8x32xf32>) -> tensor<16x32xf32>, res_attrs = [{}], sym_name = "closed_call", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<16x32xf32>, %arg1: tensor<16x32xf32>, %arg2: tensor<8x16xf32>, %arg3: tensor<8x32xf32>):
    %0 = "stablehlo.dot_general"(%arg2, %arg0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %1 = "stablehlo.subtract"(%0, %arg3) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %2 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %4 = "stablehlo.multiply"(%3, %1) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %5 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %6 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %7 = "stablehlo.multiply"(%6, %4) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %8 = "stablehlo.dot_general"(%7, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x32xf32>, tensor<8x16xf32>) -> tensor<32x16xf32>
    %9 = "stablehlo.transpose"(%8) <{permutation = array<i64: 1, 0>}> : (tensor<32x16xf32>) -> tensor<16x32xf32>
    %10 = "stablehlo.add"(%arg1, %9) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    "func.return"(%10) : (tensor<16x32xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
