"builtin.module"() <{sym_name = "jit_scan_fsdp"}> ({
  "func.func"() <{arg_attrs = [{mhlo.sharding = "{devices=[1,4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"}, {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}], function_type = (tensor<3x32x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>, res_attrs = [{jax.result_info = "result", mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg4: tensor<3x32x32xf32>, %arg5: tensor<16x32xf32>):
    %6 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %7:3 = "stablehlo.while"(%arg4, %6, %arg5) ({
    ^bb0(%arg9: tensor<3x32x32xf32>, %arg10: tensor<i32>, %arg11: tensor<16x32xf32>):
      %12 = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
      %13 = "stablehlo.compare"(%arg10, %12) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%13) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg6: tensor<3x32x32xf32>, %arg7: tensor<i32>, %arg8: tensor<16x32xf32>):
      %8 = "func.call"(%arg6, %arg7) <{callee = @dynamic_index_in_dim}> : (tensor<3x32x32xf32>, tensor<i32>) -> tensor<32x32xf32>
      %9 = "func.call"(%arg8, %8) <{callee = @closed_call}> : (tensor<16x32xf32>, tensor<32x32xf32>) -> tensor<16x32xf32>
      %10 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %11 = "stablehlo.add"(%arg7, %10) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%arg6, %11, %9) : (tensor<3x32x32xf32>, tensor<i32>, tensor<16x32xf32>) -> ()
    }) : (tensor<3x32x32xf32>, tensor<i32>, tensor<16x32xf32>) -> (tensor<3x32x32xf32>, tensor<i32>, tensor<16x32xf32>)
    "func.return"(%7#2) : (tensor<16x32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<3x32x32xf32>, tensor<i32>) -> tensor<32x32xf32>, res_attrs = [{}], sym_name = "dynamic_index_in_dim", sym_visibility = "private"}> ({
  ^bb0(%arg2: tensor<3x32x32xf32>, %arg3: tensor<i32>):
    %2 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %3 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %4 = "stablehlo.dynamic_slice"(%arg2, %arg3, %2, %3) <{slice_sizes = array<i64: 1, 32, 32>}> : (tensor<3x32x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x32x32xf32>
    %5 = "stablehlo.reshape"(%4) : (tensor<1x32x32xf32>) -> tensor<32x32xf32>
    "func.return"(%5) : (tensor<32x32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<16x32xf32>, tensor<32x32xf32>) -> tensor<16x32xf32>, res_attrs = [{}], sym_name = "closed_call", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<16x32xf32>, %arg1: tensor<32x32xf32>):
    %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x32xf32>, tensor<32x32xf32>) -> tensor<16x32xf32>
    %1 = "stablehlo.tanh"(%0) : (tensor<16x32xf32>) -> tensor<16x32xf32>
    "func.return"(%1) : (tensor<16x32xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
