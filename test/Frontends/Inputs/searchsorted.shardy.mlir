"builtin.module"() <{sym_name = "jit_searchsorted"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"model"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"data"}]>}], function_type = (tensor<16xf32>, tensor<8xf32>) -> (tensor<8xi32>, tensor<8xi32>), res_attrs = [{jax.result_info = "result[0]", sdy.sharding = #sdy.sharding<@mesh, [{"data"}]>}, {jax.result_info = "result[1]", sdy.sharding = #sdy.sharding<@mesh, [{"data"}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg47: tensor<16xf32>, %arg48: tensor<8xf32>):
    %104 = "func.call"(%arg47, %arg48) <{callee = @searchsorted}> : (tensor<16xf32>, tensor<8xf32>) -> tensor<8xi32>
    %105 = "func.call"(%arg48, %arg47) <{callee = @digitize}> : (tensor<8xf32>, tensor<16xf32>) -> tensor<8xi32>
    "func.return"(%104, %105) : (tensor<8xi32>, tensor<8xi32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<16xf32>, tensor<8xf32>) -> tensor<8xi32>, res_attrs = [{}], sym_name = "searchsorted", sym_visibility = "private"}> ({
  ^bb0(%arg45: tensor<16xf32>, %arg46: tensor<8xf32>):
    %103 = "func.call"(%arg45, %arg46) <{callee = @_searchsorted_scan_impl}> : (tensor<16xf32>, tensor<8xf32>) -> tensor<8xi32>
    "func.return"(%103) : (tensor<8xi32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<16xf32>, tensor<8xf32>) -> tensor<8xi32>, res_attrs = [{}], sym_name = "_searchsorted_scan_impl", sym_visibility = "private"}> ({
  ^bb0(%arg43: tensor<16xf32>, %arg44: tensor<8xf32>):
    %102 = "func.call"(%arg43, %arg44) <{callee = @_searchsorted_scan_impl_0}> : (tensor<16xf32>, tensor<8xf32>) -> tensor<8xi32>
    "func.return"(%102) : (tensor<8xi32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<16xf32>, tensor<8xf32>) -> tensor<8xi32>, res_attrs = [{}], sym_name = "_searchsorted_scan_impl_0", sym_visibility = "private"}> ({
  ^bb0(%arg31: tensor<16xf32>, %arg32: tensor<8xf32>):
    %90 = "stablehlo.constant"() <{value = dense<0> : tensor<ui32>}> : () -> tensor<ui32>
    %91 = "stablehlo.broadcast_in_dim"(%90) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8xui32>
    %92 = "stablehlo.constant"() <{value = dense<16> : tensor<ui32>}> : () -> tensor<ui32>
    %93 = "stablehlo.broadcast_in_dim"(%92) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8xui32>
    %94 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %95:5 = "stablehlo.while"(%arg31, %arg32, %94, %91, %93) ({
    ^bb0(%arg38: tensor<16xf32>, %arg39: tensor<8xf32>, %arg40: tensor<i32>, %arg41: tensor<8xui32>, %arg42: tensor<8xui32>):
      %100 = "stablehlo.constant"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
      %101 = "stablehlo.compare"(%arg40, %100) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%101) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg33: tensor<16xf32>, %arg34: tensor<8xf32>, %arg35: tensor<i32>, %arg36: tensor<8xui32>, %arg37: tensor<8xui32>):
      %97:2 = "func.call"(%arg33, %arg34, %arg36, %arg37) <{callee = @closed_call}> : (tensor<16xf32>, tensor<8xf32>, tensor<8xui32>, tensor<8xui32>) -> (tensor<8xui32>, tensor<8xui32>)
      %98 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %99 = "stablehlo.add"(%arg35, %98) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%arg33, %arg34, %99, %97#0, %97#1) : (tensor<16xf32>, tensor<8xf32>, tensor<i32>, tensor<8xui32>, tensor<8xui32>) -> ()
    }) : (tensor<16xf32>, tensor<8xf32>, tensor<i32>, tensor<8xui32>, tensor<8xui32>) -> (tensor<16xf32>, tensor<8xf32>, tensor<i32>, tensor<8xui32>, tensor<8xui32>)
    %96 = "stablehlo.convert"(%95#4) : (tensor<8xui32>) -> tensor<8xi32>
    "func.return"(%96) : (tensor<8xi32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<16xf32>, tensor<8xf32>, tensor<8xui32>, tensor<8xui32>) -> (tensor<8xui32>, tensor<8xui32>), res_attrs = [{}, {}], sym_name = "closed_call", sym_visibility = "private"}> ({
  ^bb0(%arg27: tensor<16xf32>, %arg28: tensor<8xf32>, %arg29: tensor<8xui32>, %arg30: tensor<8xui32>):
    %60 = "stablehlo.subtract"(%arg30, %arg29) : (tensor<8xui32>, tensor<8xui32>) -> tensor<8xui32>
    %61 = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
    %62 = "func.call"(%60, %61) <{callee = @floor_divide}> : (tensor<8xui32>, tensor<i32>) -> tensor<8xui32>
    %63 = "stablehlo.add"(%arg29, %62) : (tensor<8xui32>, tensor<8xui32>) -> tensor<8xui32>
    %64 = "stablehlo.broadcast_in_dim"(%63) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xui32>) -> tensor<8x1xui32>
    %65 = "stablehlo.gather"(%arg27, %64) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<16xf32>, tensor<8x1xui32>) -> tensor<8x1xf32>
    %66 = "stablehlo.reshape"(%65) : (tensor<8x1xf32>) -> tensor<8xf32>
    %67 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %68 = "stablehlo.broadcast_in_dim"(%67) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %69 = "stablehlo.compare"(%arg28, %68) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %70 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %71 = "stablehlo.broadcast_in_dim"(%70) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %72 = "stablehlo.select"(%69, %71, %arg28) : (tensor<8xi1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %73 = "stablehlo.compare"(%arg28, %arg28) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %74 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %75 = "stablehlo.broadcast_in_dim"(%74) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %76 = "stablehlo.select"(%73, %75, %72) : (tensor<8xi1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %77 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %78 = "stablehlo.broadcast_in_dim"(%77) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %79 = "stablehlo.compare"(%66, %78) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %80 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %81 = "stablehlo.broadcast_in_dim"(%80) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %82 = "stablehlo.select"(%79, %81, %66) : (tensor<8xi1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %83 = "stablehlo.compare"(%66, %66) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %84 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %85 = "stablehlo.broadcast_in_dim"(%84) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %86 = "stablehlo.select"(%83, %85, %82) : (tensor<8xi1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %87 = "stablehlo.compare"(%76, %86) <{compare_type = #stablehlo<comparison_type TOTALORDER>, comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %88 = "stablehlo.select"(%87, %arg29, %63) : (tensor<8xi1>, tensor<8xui32>, tensor<8xui32>) -> tensor<8xui32>
    %89 = "stablehlo.select"(%87, %63, %arg30) : (tensor<8xi1>, tensor<8xui32>, tensor<8xui32>) -> tensor<8xui32>
    "func.return"(%88, %89) : (tensor<8xui32>, tensor<8xui32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<8xui32>, tensor<i32>) -> tensor<8xui32>, res_attrs = [{}], sym_name = "floor_divide", sym_visibility = "private"}> ({
  ^bb0(%arg25: tensor<8xui32>, %arg26: tensor<i32>):
    %57 = "stablehlo.convert"(%arg26) : (tensor<i32>) -> tensor<ui32>
    %58 = "stablehlo.broadcast_in_dim"(%57) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8xui32>
    %59 = "stablehlo.divide"(%arg25, %58) : (tensor<8xui32>, tensor<8xui32>) -> tensor<8xui32>
    "func.return"(%59) : (tensor<8xui32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<8xf32>, tensor<16xf32>) -> tensor<8xi32>, res_attrs = [{}], sym_name = "digitize", sym_visibility = "private"}> ({
  ^bb0(%arg23: tensor<8xf32>, %arg24: tensor<16xf32>):
    %45 = "stablehlo.slice"(%arg24) <{limit_indices = array<i64: 16>, start_indices = array<i64: 15>, strides = array<i64: 1>}> : (tensor<16xf32>) -> tensor<1xf32>
    %46 = "stablehlo.reshape"(%45) : (tensor<1xf32>) -> tensor<f32>
    %47 = "stablehlo.slice"(%arg24) <{limit_indices = array<i64: 1>, start_indices = array<i64: 0>, strides = array<i64: 1>}> : (tensor<16xf32>) -> tensor<1xf32>
    %48 = "stablehlo.reshape"(%47) : (tensor<1xf32>) -> tensor<f32>
    %49 = "stablehlo.compare"(%46, %48) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %50 = "func.call"(%arg24, %arg23) <{callee = @searchsorted_1}> : (tensor<16xf32>, tensor<8xf32>) -> tensor<8xi32>
    %51 = "stablehlo.reverse"(%arg24) <{dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16xf32>
    %52 = "func.call"(%51, %arg23) <{callee = @searchsorted_1}> : (tensor<16xf32>, tensor<8xf32>) -> tensor<8xi32>
    %53 = "stablehlo.constant"() <{value = dense<16> : tensor<i32>}> : () -> tensor<i32>
    %54 = "stablehlo.broadcast_in_dim"(%53) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8xi32>
    %55 = "stablehlo.subtract"(%54, %52) : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
    %56 = "func.call"(%49, %50, %55) <{callee = @_where}> : (tensor<i1>, tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
    "func.return"(%56) : (tensor<8xi32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<16xf32>, tensor<8xf32>) -> tensor<8xi32>, res_attrs = [{}], sym_name = "searchsorted_1", sym_visibility = "private"}> ({
  ^bb0(%arg21: tensor<16xf32>, %arg22: tensor<8xf32>):
    %44 = "func.call"(%arg21, %arg22) <{callee = @_searchsorted_scan_impl_2}> : (tensor<16xf32>, tensor<8xf32>) -> tensor<8xi32>
    "func.return"(%44) : (tensor<8xi32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<16xf32>, tensor<8xf32>) -> tensor<8xi32>, res_attrs = [{}], sym_name = "_searchsorted_scan_impl_2", sym_visibility = "private"}> ({
  ^bb0(%arg19: tensor<16xf32>, %arg20: tensor<8xf32>):
    %43 = "func.call"(%arg19, %arg20) <{callee = @_searchsorted_scan_impl_3}> : (tensor<16xf32>, tensor<8xf32>) -> tensor<8xi32>
    "func.return"(%43) : (tensor<8xi32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<16xf32>, tensor<8xf32>) -> tensor<8xi32>, res_attrs = [{}], sym_name = "_searchsorted_scan_impl_3", sym_visibility = "private"}> ({
  ^bb0(%arg7: tensor<16xf32>, %arg8: tensor<8xf32>):
    %31 = "stablehlo.constant"() <{value = dense<0> : tensor<ui32>}> : () -> tensor<ui32>
    %32 = "stablehlo.broadcast_in_dim"(%31) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8xui32>
    %33 = "stablehlo.constant"() <{value = dense<16> : tensor<ui32>}> : () -> tensor<ui32>
    %34 = "stablehlo.broadcast_in_dim"(%33) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8xui32>
    %35 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %36:5 = "stablehlo.while"(%arg7, %arg8, %35, %32, %34) ({
    ^bb0(%arg14: tensor<16xf32>, %arg15: tensor<8xf32>, %arg16: tensor<i32>, %arg17: tensor<8xui32>, %arg18: tensor<8xui32>):
      %41 = "stablehlo.constant"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
      %42 = "stablehlo.compare"(%arg16, %41) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%42) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg9: tensor<16xf32>, %arg10: tensor<8xf32>, %arg11: tensor<i32>, %arg12: tensor<8xui32>, %arg13: tensor<8xui32>):
      %38:2 = "func.call"(%arg9, %arg10, %arg12, %arg13) <{callee = @closed_call_4}> : (tensor<16xf32>, tensor<8xf32>, tensor<8xui32>, tensor<8xui32>) -> (tensor<8xui32>, tensor<8xui32>)
      %39 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %40 = "stablehlo.add"(%arg11, %39) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%arg9, %arg10, %40, %38#0, %38#1) : (tensor<16xf32>, tensor<8xf32>, tensor<i32>, tensor<8xui32>, tensor<8xui32>) -> ()
    }) : (tensor<16xf32>, tensor<8xf32>, tensor<i32>, tensor<8xui32>, tensor<8xui32>) -> (tensor<16xf32>, tensor<8xf32>, tensor<i32>, tensor<8xui32>, tensor<8xui32>)
    %37 = "stablehlo.convert"(%36#4) : (tensor<8xui32>) -> tensor<8xi32>
    "func.return"(%37) : (tensor<8xi32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<16xf32>, tensor<8xf32>, tensor<8xui32>, tensor<8xui32>) -> (tensor<8xui32>, tensor<8xui32>), res_attrs = [{}, {}], sym_name = "closed_call_4", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<16xf32>, %arg4: tensor<8xf32>, %arg5: tensor<8xui32>, %arg6: tensor<8xui32>):
    %1 = "stablehlo.subtract"(%arg6, %arg5) : (tensor<8xui32>, tensor<8xui32>) -> tensor<8xui32>
    %2 = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
    %3 = "func.call"(%1, %2) <{callee = @floor_divide}> : (tensor<8xui32>, tensor<i32>) -> tensor<8xui32>
    %4 = "stablehlo.add"(%arg5, %3) : (tensor<8xui32>, tensor<8xui32>) -> tensor<8xui32>
    %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xui32>) -> tensor<8x1xui32>
    %6 = "stablehlo.gather"(%arg3, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<16xf32>, tensor<8x1xui32>) -> tensor<8x1xf32>
    %7 = "stablehlo.reshape"(%6) : (tensor<8x1xf32>) -> tensor<8xf32>
    %8 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %9 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %10 = "stablehlo.compare"(%arg4, %9) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %11 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %12 = "stablehlo.broadcast_in_dim"(%11) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %13 = "stablehlo.select"(%10, %12, %arg4) : (tensor<8xi1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %14 = "stablehlo.compare"(%arg4, %arg4) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %15 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %16 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %17 = "stablehlo.select"(%14, %16, %13) : (tensor<8xi1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %18 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %19 = "stablehlo.broadcast_in_dim"(%18) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %20 = "stablehlo.compare"(%7, %19) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %21 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %22 = "stablehlo.broadcast_in_dim"(%21) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %23 = "stablehlo.select"(%20, %22, %7) : (tensor<8xi1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %24 = "stablehlo.compare"(%7, %7) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %25 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %26 = "stablehlo.broadcast_in_dim"(%25) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %27 = "stablehlo.select"(%24, %26, %23) : (tensor<8xi1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %28 = "stablehlo.compare"(%17, %27) <{compare_type = #stablehlo<comparison_type TOTALORDER>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %29 = "stablehlo.select"(%28, %arg5, %4) : (tensor<8xi1>, tensor<8xui32>, tensor<8xui32>) -> tensor<8xui32>
    %30 = "stablehlo.select"(%28, %4, %arg6) : (tensor<8xi1>, tensor<8xui32>, tensor<8xui32>) -> tensor<8xui32>
    "func.return"(%29, %30) : (tensor<8xui32>, tensor<8xui32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<i1>, tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>, res_attrs = [{}], sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<i1>, %arg1: tensor<8xi32>, %arg2: tensor<8xi32>):
    %0 = "stablehlo.select"(%arg0, %arg1, %arg2) : (tensor<i1>, tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
    "func.return"(%0) : (tensor<8xi32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
