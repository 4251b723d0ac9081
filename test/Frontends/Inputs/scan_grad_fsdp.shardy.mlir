"builtin.module"() <{sym_name = "jit_scan_grad_fsdp"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}], function_type = (tensor<3x32x32xf32>, tensor<16x32xf32>) -> tensor<3x32x32xf32>, res_attrs = [{jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}, {}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg17: tensor<3x32x32xf32>, %arg18: tensor<16x32xf32>):
    %27 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %28 = "stablehlo.broadcast_in_dim"(%27) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3x16x32xf32>
    %29 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %30 = "stablehlo.broadcast_in_dim"(%29) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3x16x32xf32>
    %31 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %32 = "stablehlo.broadcast_in_dim"(%31) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3x16x32xf32>
    %33 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %34:6 = "stablehlo.while"(%arg17, %33, %arg18, %28, %30, %32) ({
    ^bb0(%arg39: tensor<3x32x32xf32>, %arg40: tensor<i32>, %arg41: tensor<16x32xf32>, %arg42: tensor<3x16x32xf32>, %arg43: tensor<3x16x32xf32>, %arg44: tensor<3x16x32xf32>):
      %66 = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
      %67 = "stablehlo.compare"(%arg40, %66) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%67) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg33: tensor<3x32x32xf32>, %arg34: tensor<i32>, %arg35: tensor<16x32xf32>, %arg36: tensor<3x16x32xf32>, %arg37: tensor<3x16x32xf32>, %arg38: tensor<3x16x32xf32>):
      %59 = "func.call"(%arg33, %arg34) <{callee = @dynamic_index_in_dim}> : (tensor<3x32x32xf32>, tensor<i32>) -> tensor<32x32xf32>
      %60:4 = "func.call"(%arg35, %59) <{callee = @closed_call}> : (tensor<16x32xf32>, tensor<32x32xf32>) -> (tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>)
      %61 = "func.call"(%arg36, %60#1, %arg34) <{callee = @dynamic_update_index_in_dim}> : (tensor<3x16x32xf32>, tensor<16x32xf32>, tensor<i32>) -> tensor<3x16x32xf32>
      %62 = "func.call"(%arg37, %60#2, %arg34) <{callee = @dynamic_update_index_in_dim}> : (tensor<3x16x32xf32>, tensor<16x32xf32>, tensor<i32>) -> tensor<3x16x32xf32>
      %63 = "func.call"(%arg38, %60#3, %arg34) <{callee = @dynamic_update_index_in_dim}> : (tensor<3x16x32xf32>, tensor<16x32xf32>, tensor<i32>) -> tensor<3x16x32xf32>
      %64 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %65 = "stablehlo.add"(%arg34, %64) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%arg33, %65, %60#0, %61, %62, %63) : (tensor<3x32x32xf32>, tensor<i32>, tensor<16x32xf32>, tensor<3x16x32xf32>, tensor<3x16x32xf32>, tensor<3x16x32xf32>) -> ()
    }) : (tensor<3x32x32xf32>, tensor<i32>, tensor<16x32xf32>, tensor<3x16x32xf32>, tensor<3x16x32xf32>, tensor<3x16x32xf32>) -> (tensor<3x32x32xf32>, tensor<i32>, tensor<16x32xf32>, tensor<3x16x32xf32>, tensor<3x16x32xf32>, tensor<3x16x32xf32>)
    %35 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %36 = "stablehlo.broadcast_in_dim"(%35) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x32xf32>
    %37 = "stablehlo.multiply"(%36, %34#2) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %38 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %39 = "stablehlo.broadcast_in_dim"(%38) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x32xf32>
    %40 = "stablehlo.multiply"(%39, %37) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %41 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %42 = "stablehlo.broadcast_in_dim"(%41) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3x32x32xf32>
    %43 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %44:7 = "stablehlo.while"(%arg17, %34#3, %34#4, %34#5, %43, %40, %42) ({
    ^bb0(%arg26: tensor<3x32x32xf32>, %arg27: tensor<3x16x32xf32>, %arg28: tensor<3x16x32xf32>, %arg29: tensor<3x16x32xf32>, %arg30: tensor<i32>, %arg31: tensor<16x32xf32>, %arg32: tensor<3x32x32xf32>):
      %57 = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
      %58 = "stablehlo.compare"(%arg30, %57) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%58) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg19: tensor<3x32x32xf32>, %arg20: tensor<3x16x32xf32>, %arg21: tensor<3x16x32xf32>, %arg22: tensor<3x16x32xf32>, %arg23: tensor<i32>, %arg24: tensor<16x32xf32>, %arg25: tensor<3x32x32xf32>):
      %45 = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
      %46 = "stablehlo.subtract"(%45, %arg23) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %47 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %48 = "stablehlo.subtract"(%46, %47) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %49 = "func.call"(%arg19, %48) <{callee = @dynamic_index_in_dim}> : (tensor<3x32x32xf32>, tensor<i32>) -> tensor<32x32xf32>
      %50 = "func.call"(%arg20, %48) <{callee = @dynamic_index_in_dim_0}> : (tensor<3x16x32xf32>, tensor<i32>) -> tensor<16x32xf32>
      %51 = "func.call"(%arg21, %48) <{callee = @dynamic_index_in_dim_0}> : (tensor<3x16x32xf32>, tensor<i32>) -> tensor<16x32xf32>
      %52 = "func.call"(%arg22, %48) <{callee = @dynamic_index_in_dim_0}> : (tensor<3x16x32xf32>, tensor<i32>) -> tensor<16x32xf32>
      %53:2 = "func.call"(%arg24, %49, %50, %51, %52) <{callee = @closed_call_1}> : (tensor<16x32xf32>, tensor<32x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>) -> (tensor<16x32xf32>, tensor<32x32xf32>)
      %54 = "func.call"(%arg25, %53#1, %48) <{callee = @dynamic_update_index_in_dim_2}> : (tensor<3x32x32xf32>, tensor<32x32xf32>, tensor<i32>) -> tensor<3x32x32xf32>
      %55 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %56 = "stablehlo.add"(%arg23, %55) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%arg19, %arg20, %arg21, %arg22, %56, %53#0, %54) : (tensor<3x32x32xf32>, tensor<3x16x32xf32>, tensor<3x16x32xf32>, tensor<3x16x32xf32>, tensor<i32>, tensor<16x32xf32>, tensor<3x32x32xf32>) -> ()
    }) : (tensor<3x32x32xf32>, tensor<3x16x32xf32>, tensor<3x16x32xf32>, tensor<3x16x32xf32>, tensor<i32>, tensor<16x32xf32>, tensor<3x32x32xf32>) -> (tensor<3x32x32xf32>, tensor<3x16x32xf32>, tensor<3x16x32xf32>, tensor<3x16x32xf32>, tensor<i32>, tensor<16x32xf32>, tensor<3x32x32xf32>)
    "func.return"(%44#6) : (tensor<3x32x32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<3x32x32xf32>, tensor<i32>) -> tensor<32x32xf32>, res_attrs = [{}], sym_name = "dynamic_index_in_dim", sym_visibility = "private"}> ({
  ^bb0(%arg15: tensor<3x32x32xf32>, %arg16: tensor<i32>):
    %23 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %24 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %25 = "stablehlo.dynamic_slice"(%arg15, %arg16, %23, %24) <{slice_sizes = array<i64: 1, 32, 32>}> : (tensor<3x32x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x32x32xf32>
    %26 = "stablehlo.reshape"(%25) : (tensor<1x32x32xf32>) -> tensor<32x32xf32>
    "func.return"(%26) : (tensor<32x32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<16x32xf32>, tensor<32x32xf32>) -> (tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>), res_attrs = [{}, {}, {}, {}], sym_name = "closed_call", sym_visibility = "private"}> ({
  ^bb0(%arg13: tensor<16x32xf32>, %arg14: tensor<32x32xf32>):
    %18 = "stablehlo.dot_general"(%arg13, %arg14) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x32xf32>, tensor<32x32xf32>) -> tensor<16x32xf32>
    %19 = "stablehlo.tanh"(%18) : (tensor<16x32xf32>) -> tensor<16x32xf32>
    %20 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %21 = "stablehlo.broadcast_in_dim"(%20) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x32xf32>
    %22 = "stablehlo.subtract"(%21, %19) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    "func.return"(%19, %arg13, %19, %22) : (tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<3x16x32xf32>, tensor<16x32xf32>, tensor<i32>) -> tensor<3x16x32xf32>, res_attrs = [{}], sym_name = "dynamic_update_index_in_dim", sym_visibility = "private"}> ({
  ^bb0(%arg10: tensor<3x16x32xf32>, %arg11: tensor<16x32xf32>, %arg12: tensor<i32>):
    %14 = "stablehlo.broadcast_in_dim"(%arg11) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<16x32xf32>) -> tensor<1x16x32xf32>
    %15 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %16 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %17 = "stablehlo.dynamic_update_slice"(%arg10, %14, %arg12, %15, %16) : (tensor<3x16x32xf32>, tensor<1x16x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<3x16x32xf32>
    "func.return"(%17) : (tensor<3x16x32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<3x16x32xf32>, tensor<i32>) -> tensor<16x32xf32>, res_attrs = [{}], sym_name = "dynamic_index_in_dim_0", sym_visibility = "private"}> ({
  ^bb0(%arg8: tensor<3x16x32xf32>, %arg9: tensor<i32>):
    %10 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %11 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %12 = "stablehlo.dynamic_slice"(%arg8, %arg9, %10, %11) <{slice_sizes = array<i64: 1, 16, 32>}> : (tensor<3x16x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x32xf32>
    %13 = "stablehlo.reshape"(%12) : (tensor<1x16x32xf32>) -> tensor<16x32xf32>
    "func.return"(%13) : (tensor<16x32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<16x32xf32>, tensor<32x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>) -> (tensor<16x32xf32>, tensor<32x32xf32>), res_attrs = [{}, {}], sym_name = "closed_call_1", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<16x32xf32>, %arg4: tensor<32x32xf32>, %arg5: tensor<16x32xf32>, %arg6: tensor<16x32xf32>, %arg7: tensor<16x32xf32>):
    %4 = "stablehlo.multiply"(%arg3, %arg7) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %5 = "stablehlo.multiply"(%4, %arg6) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %6 = "stablehlo.add"(%4, %5) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    %7 = "stablehlo.dot_general"(%6, %arg5) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<32x32xf32>
    %8 = "stablehlo.transpose"(%7) <{permutation = array<i64: 1, 0>}> : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %9 = "stablehlo.dot_general"(%6, %arg4) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x32xf32>, tensor<32x32xf32>) -> tensor<16x32xf32>
    "func.return"(%9, %8) : (tensor<16x32xf32>, tensor<32x32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<3x32x32xf32>, tensor<32x32xf32>, tensor<i32>) -> tensor<3x32x32xf32>, res_attrs = [{}], sym_name = "dynamic_update_index_in_dim_2", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<3x32x32xf32>, %arg1: tensor<32x32xf32>, %arg2: tensor<i32>):
    %0 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<32x32xf32>) -> tensor<1x32x32xf32>
    %1 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %2 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %3 = "stablehlo.dynamic_update_slice"(%arg0, %0, %arg2, %1, %2) : (tensor<3x32x32xf32>, tensor<1x32x32xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<3x32x32xf32>
    "func.return"(%3) : (tensor<3x32x32xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
