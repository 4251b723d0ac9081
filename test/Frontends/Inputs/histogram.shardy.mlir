"builtin.module"() <{sym_name = "jit_histogram"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}], function_type = (tensor<9xf32>, tensor<8x16xf32>) -> tensor<10xi32>, res_attrs = [{jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg28: tensor<9xf32>, %arg29: tensor<8x16xf32>):
    %66 = "func.call"(%arg28, %arg29) <{callee = @searchsorted}> : (tensor<9xf32>, tensor<8x16xf32>) -> tensor<8x16xi32>
    %67 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %68 = "stablehlo.constant"() <{value = dense<9> : tensor<i32>}> : () -> tensor<i32>
    %69 = "func.call"(%66, %67, %68) <{callee = @clip}> : (tensor<8x16xi32>, tensor<i32>, tensor<i32>) -> tensor<8x16xi32>
    %70 = "func.call"(%69) <{callee = @_one_hot}> : (tensor<8x16xi32>) -> tensor<8x16x10xi32>
    %71 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %72 = "stablehlo.reduce"(%70, %71) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg30: tensor<i32>, %arg31: tensor<i32>):
      %73 = "stablehlo.add"(%arg30, %arg31) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%73) : (tensor<i32>) -> ()
    }) : (tensor<8x16x10xi32>, tensor<i32>) -> tensor<10xi32>
    "func.return"(%72) : (tensor<10xi32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<9xf32>, tensor<8x16xf32>) -> tensor<8x16xi32>, res_attrs = [{}], sym_name = "searchsorted", sym_visibility = "private"}> ({
  ^bb0(%arg26: tensor<9xf32>, %arg27: tensor<8x16xf32>):
    %65 = "func.call"(%arg26, %arg27) <{callee = @_searchsorted_scan_impl}> : (tensor<9xf32>, tensor<8x16xf32>) -> tensor<8x16xi32>
    "func.return"(%65) : (tensor<8x16xi32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<9xf32>, tensor<8x16xf32>) -> tensor<8x16xi32>, res_attrs = [{}], sym_name = "_searchsorted_scan_impl", sym_visibility = "private"}> ({
  ^bb0(%arg24: tensor<9xf32>, %arg25: tensor<8x16xf32>):
    %64 = "func.call"(%arg24, %arg25) <{callee = @_searchsorted_scan_impl_0}> : (tensor<9xf32>, tensor<8x16xf32>) -> tensor<8x16xi32>
    "func.return"(%64) : (tensor<8x16xi32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<9xf32>, tensor<8x16xf32>) -> tensor<8x16xi32>, res_attrs = [{}], sym_name = "_searchsorted_scan_impl_0", sym_visibility = "private"}> ({
  ^bb0(%arg22: tensor<9xf32>, %arg23: tensor<8x16xf32>):
    %63 = "func.call"(%arg22, %arg23) <{callee = @_searchsorted_scan_impl_1}> : (tensor<9xf32>, tensor<8x16xf32>) -> tensor<8x16xi32>
    "func.return"(%63) : (tensor<8x16xi32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<9xf32>, tensor<8x16xf32>) -> tensor<8x16xi32>, res_attrs = [{}], sym_name = "_searchsorted_scan_impl_1", sym_visibility = "private"}> ({
  ^bb0(%arg10: tensor<9xf32>, %arg11: tensor<8x16xf32>):
    %49 = "stablehlo.constant"() <{value = dense<0> : tensor<ui32>}> : () -> tensor<ui32>
    %50 = "stablehlo.broadcast_in_dim"(%49) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<16xui32>
    %51 = "stablehlo.constant"() <{value = dense<9> : tensor<ui32>}> : () -> tensor<ui32>
    %52 = "stablehlo.broadcast_in_dim"(%51) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<16xui32>
    %53 = "stablehlo.broadcast_in_dim"(%50) <{broadcast_dimensions = array<i64: 1>}> : (tensor<16xui32>) -> tensor<8x16xui32>
    %54 = "stablehlo.broadcast_in_dim"(%52) <{broadcast_dimensions = array<i64: 1>}> : (tensor<16xui32>) -> tensor<8x16xui32>
    %55 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %56:5 = "stablehlo.while"(%arg10, %arg11, %55, %53, %54) ({
    ^bb0(%arg17: tensor<9xf32>, %arg18: tensor<8x16xf32>, %arg19: tensor<i32>, %arg20: tensor<8x16xui32>, %arg21: tensor<8x16xui32>):
      %61 = "stablehlo.constant"() <{value = dense<4> : tensor<i32>}> : () -> tensor<i32>
      %62 = "stablehlo.compare"(%arg19, %61) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%62) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg12: tensor<9xf32>, %arg13: tensor<8x16xf32>, %arg14: tensor<i32>, %arg15: tensor<8x16xui32>, %arg16: tensor<8x16xui32>):
      %58:2 = "func.call"(%arg12, %arg13, %arg15, %arg16) <{callee = @closed_call}> : (tensor<9xf32>, tensor<8x16xf32>, tensor<8x16xui32>, tensor<8x16xui32>) -> (tensor<8x16xui32>, tensor<8x16xui32>)
      %59 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %60 = "stablehlo.add"(%arg14, %59) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%arg12, %arg13, %60, %58#0, %58#1) : (tensor<9xf32>, tensor<8x16xf32>, tensor<i32>, tensor<8x16xui32>, tensor<8x16xui32>) -> ()
    }) : (tensor<9xf32>, tensor<8x16xf32>, tensor<i32>, tensor<8x16xui32>, tensor<8x16xui32>) -> (tensor<9xf32>, tensor<8x16xf32>, tensor<i32>, tensor<8x16xui32>, tensor<8x16xui32>)
    %57 = "stablehlo.convert"(%56#4) : (tensor<8x16xui32>) -> tensor<8x16xi32>
    "func.return"(%57) : (tensor<8x16xi32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<9xf32>, tensor<8x16xf32>, tensor<8x16xui32>, tensor<8x16xui32>) -> (tensor<8x16xui32>, tensor<8x16xui32>), res_attrs = [{}, {}], sym_name = "closed_call", sym_visibility = "private"}> ({
  ^bb0(%arg6: tensor<9xf32>, %arg7: tensor<8x16xf32>, %arg8: tensor<8x16xui32>, %arg9: tensor<8x16xui32>):
    %15 = "stablehlo.subtract"(%arg9, %arg8) : (tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
    %16 = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
    %17 = "func.call"(%15, %16) <{callee = @floor_divide}> : (tensor<8x16xui32>, tensor<i32>) -> tensor<8x16xui32>
    %18 = "stablehlo.add"(%arg8, %17) : (tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
    %19 = "stablehlo.broadcast_in_dim"(%18) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x16xui32>) -> tensor<8x16x1xui32>
    %20 = "stablehlo.gather"(%arg6, %19) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<9xf32>, tensor<8x16x1xui32>) -> tensor<8x16x1xf32>
    %21 = "stablehlo.reshape"(%20) : (tensor<8x16x1xf32>) -> tensor<8x16xf32>
    %22 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %23 = "stablehlo.broadcast_in_dim"(%22) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %24 = "stablehlo.compare"(%arg7, %23) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xi1>
    %25 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %26 = "stablehlo.broadcast_in_dim"(%25) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %27 = "stablehlo.broadcast_in_dim"(%26) <{broadcast_dimensions = array<i64: 1>}> : (tensor<16xf32>) -> tensor<8x16xf32>
    %28 = "stablehlo.select"(%24, %27, %arg7) : (tensor<8x16xi1>, tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %29 = "stablehlo.compare"(%arg7, %arg7) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xi1>
    %30 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %31 = "stablehlo.broadcast_in_dim"(%30) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %32 = "stablehlo.broadcast_in_dim"(%31) <{broadcast_dimensions = array<i64: 1>}> : (tensor<16xf32>) -> tensor<8x16xf32>
    %33 = "stablehlo.select"(%29, %32, %28) : (tensor<8x16xi1>, tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %34 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %35 = "stablehlo.broadcast_in_dim"(%34) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %36 = "stablehlo.compare"(%21, %35) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xi1>
    %37 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %38 = "stablehlo.broadcast_in_dim"(%37) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %39 = "stablehlo.broadcast_in_dim"(%38) <{broadcast_dimensions = array<i64: 1>}> : (tensor<16xf32>) -> tensor<8x16xf32>
    %40 = "stablehlo.select"(%36, %39, %21) : (tensor<8x16xi1>, tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %41 = "stablehlo.compare"(%21, %21) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xi1>
    %42 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %43 = "stablehlo.broadcast_in_dim"(%42) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %44 = "stablehlo.broadcast_in_dim"(%43) <{broadcast_dimensions = array<i64: 1>}> : (tensor<16xf32>) -> tensor<8x16xf32>
    %45 = "stablehlo.select"(%41, %44, %40) : (tensor<8x16xi1>, tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %46 = "stablehlo.compare"(%33, %45) <{compare_type = #stablehlo<comparison_type TOTALORDER>, comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xi1>
    %47 = "stablehlo.select"(%46, %arg8, %18) : (tensor<8x16xi1>, tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
    %48 = "stablehlo.select"(%46, %18, %arg9) : (tensor<8x16xi1>, tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
    "func.return"(%47, %48) : (tensor<8x16xui32>, tensor<8x16xui32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<8x16xui32>, tensor<i32>) -> tensor<8x16xui32>, res_attrs = [{}], sym_name = "floor_divide", sym_visibility = "private"}> ({
  ^bb0(%arg4: tensor<8x16xui32>, %arg5: tensor<i32>):
    %12 = "stablehlo.convert"(%arg5) : (tensor<i32>) -> tensor<ui32>
    %13 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<8x16xui32>
    %14 = "stablehlo.divide"(%arg4, %13) : (tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
    "func.return"(%14) : (tensor<8x16xui32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<8x16xi32>, tensor<i32>, tensor<i32>) -> tensor<8x16xi32>, res_attrs = [{}], sym_name = "clip", sym_visibility = "private"}> ({
  ^bb0(%arg1: tensor<8x16xi32>, %arg2: tensor<i32>, %arg3: tensor<i32>):
    %6 = "stablehlo.convert"(%arg2) : (tensor<i32>) -> tensor<i32>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x16xi32>
    %8 = "stablehlo.maximum"(%7, %arg1) : (tensor<8x16xi32>, tensor<8x16xi32>) -> tensor<8x16xi32>
    %9 = "stablehlo.convert"(%arg3) : (tensor<i32>) -> tensor<i32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x16xi32>
    %11 = "stablehlo.minimum"(%10, %8) : (tensor<8x16xi32>, tensor<8x16xi32>) -> tensor<8x16xi32>
    "func.return"(%11) : (tensor<8x16xi32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<8x16xi32>) -> tensor<8x16x10xi32>, res_attrs = [{}], sym_name = "_one_hot", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<8x16xi32>):
    %0 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x16xi32>) -> tensor<8x16x1xi32>
    %1 = "stablehlo.iota"() <{iota_dimension = 2 : i64}> : () -> tensor<1x1x10xi32>
    %2 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<8x16x1xi32>) -> tensor<8x16x10xi32>
    %3 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x10xi32>) -> tensor<8x16x10xi32>
    %4 = "stablehlo.compare"(%2, %3) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8x16x10xi32>, tensor<8x16x10xi32>) -> tensor<8x16x10xi1>
    %5 = "stablehlo.convert"(%4) : (tensor<8x16x10xi1>) -> tensor<8x16x10xi32>
    "func.return"(%5) : (tensor<8x16x10xi32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
