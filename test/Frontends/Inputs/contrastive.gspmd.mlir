"builtin.module"() <{sym_name = "jit_contrastive"}> ({
  "func.func"() <{arg_attrs = [{mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}, {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}], function_type = (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<f32>, res_attrs = [{jax.result_info = "result", mhlo.sharding = "{replicated}"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg13: tensor<8x16xf32>, %arg14: tensor<8x16xf32>):
    %40 = "func.call"(%arg13) <{callee = @norm}> : (tensor<8x16xf32>) -> tensor<8x1xf32>
    %41 = "stablehlo.broadcast_in_dim"(%40) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x16xf32>
    %42 = "stablehlo.divide"(%arg13, %41) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %43 = "func.call"(%arg14) <{callee = @norm}> : (tensor<8x16xf32>) -> tensor<8x1xf32>
    %44 = "stablehlo.broadcast_in_dim"(%43) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x16xf32>
    %45 = "stablehlo.divide"(%arg14, %44) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %46 = "stablehlo.constant"() <{value = dense<1.000000e+01> : tensor<f32>}> : () -> tensor<f32>
    %47 = "stablehlo.broadcast_in_dim"(%46) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x16xf32>
    %48 = "stablehlo.multiply"(%47, %42) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %49 = "stablehlo.transpose"(%45) <{permutation = array<i64: 1, 0>}> : (tensor<8x16xf32>) -> tensor<16x8xf32>
    %50 = "stablehlo.dot_general"(%48, %49) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
    %51 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<8xi32>
    %52 = "func.call"(%50) <{callee = @log_softmax}> : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %53 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %54 = "stablehlo.broadcast_in_dim"(%53) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8xi32>
    %55 = "stablehlo.compare"(%51, %54) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
    %56 = "stablehlo.constant"() <{value = dense<8> : tensor<i32>}> : () -> tensor<i32>
    %57 = "stablehlo.broadcast_in_dim"(%56) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8xi32>
    %58 = "stablehlo.add"(%51, %57) : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
    %59 = "stablehlo.select"(%55, %58, %51) : (tensor<8xi1>, tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
    %60 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %61 = "stablehlo.broadcast_in_dim"(%60) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8xi32>
    %62 = "stablehlo.compare"(%51, %61) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
    %63 = "stablehlo.constant"() <{value = dense<8> : tensor<i32>}> : () -> tensor<i32>
    %64 = "stablehlo.broadcast_in_dim"(%63) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8xi32>
    %65 = "stablehlo.add"(%51, %64) : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
    %66 = "stablehlo.select"(%62, %65, %51) : (tensor<8xi1>, tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
    %67 = "stablehlo.broadcast_in_dim"(%59) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xi32>) -> tensor<8x1xi32>
    %68 = "stablehlo.broadcast_in_dim"(%66) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xi32>) -> tensor<8x1xi32>
    %69 = "stablehlo.concatenate"(%67, %68) <{dimension = 1 : i64}> : (tensor<8x1xi32>, tensor<8x1xi32>) -> tensor<8x2xi32>
    %70 = "stablehlo.gather"(%52, %69) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<8x8xf32>, tensor<8x2xi32>) -> tensor<8xf32>
    %71 = "func.call"(%50) <{callee = @log_softmax_0}> : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %72 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %73 = "stablehlo.broadcast_in_dim"(%72) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8xi32>
    %74 = "stablehlo.compare"(%51, %73) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
    %75 = "stablehlo.constant"() <{value = dense<8> : tensor<i32>}> : () -> tensor<i32>
    %76 = "stablehlo.broadcast_in_dim"(%75) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8xi32>
    %77 = "stablehlo.add"(%51, %76) : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
    %78 = "stablehlo.select"(%74, %77, %51) : (tensor<8xi1>, tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
    %79 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %80 = "stablehlo.broadcast_in_dim"(%79) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8xi32>
    %81 = "stablehlo.compare"(%51, %80) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
    %82 = "stablehlo.constant"() <{value = dense<8> : tensor<i32>}> : () -> tensor<i32>
    %83 = "stablehlo.broadcast_in_dim"(%82) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8xi32>
    %84 = "stablehlo.add"(%51, %83) : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
    %85 = "stablehlo.select"(%81, %84, %51) : (tensor<8xi1>, tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
    %86 = "stablehlo.broadcast_in_dim"(%78) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xi32>) -> tensor<8x1xi32>
    %87 = "stablehlo.broadcast_in_dim"(%85) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xi32>) -> tensor<8x1xi32>
    %88 = "stablehlo.concatenate"(%86, %87) <{dimension = 1 : i64}> : (tensor<8x1xi32>, tensor<8x1xi32>) -> tensor<8x2xi32>
    %89 = "stablehlo.gather"(%71, %88) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<8x8xf32>, tensor<8x2xi32>) -> tensor<8xf32>
    %90 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %91 = "stablehlo.reduce"(%70, %90) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg17: tensor<f32>, %arg18: tensor<f32>):
      %103 = "stablehlo.add"(%arg17, %arg18) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%103) : (tensor<f32>) -> ()
    }) : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    %92 = "stablehlo.constant"() <{value = dense<8.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %93 = "stablehlo.divide"(%91, %92) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %94 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %95 = "stablehlo.reduce"(%89, %94) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg15: tensor<f32>, %arg16: tensor<f32>):
      %102 = "stablehlo.add"(%arg15, %arg16) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%102) : (tensor<f32>) -> ()
    }) : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    %96 = "stablehlo.constant"() <{value = dense<8.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %97 = "stablehlo.divide"(%95, %96) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %98 = "stablehlo.add"(%93, %97) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %99 = "stablehlo.negate"(%98) : (tensor<f32>) -> tensor<f32>
    %100 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %101 = "stablehlo.divide"(%99, %100) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "func.return"(%101) : (tensor<f32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<8x16xf32>) -> tensor<8x1xf32>, res_attrs = [{}], sym_name = "norm", sym_visibility = "private"}> ({
  ^bb0(%arg10: tensor<8x16xf32>):
    %34 = "stablehlo.multiply"(%arg10, %arg10) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %35 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %36 = "stablehlo.reduce"(%34, %35) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg11: tensor<f32>, %arg12: tensor<f32>):
      %39 = "stablehlo.add"(%arg11, %arg12) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%39) : (tensor<f32>) -> ()
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
    %37 = "stablehlo.broadcast_in_dim"(%36) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %38 = "stablehlo.sqrt"(%37) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    "func.return"(%38) : (tensor<8x1xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<8x8xf32>) -> tensor<8x8xf32>, res_attrs = [{}], sym_name = "log_softmax", sym_visibility = "private"}> ({
  ^bb0(%arg5: tensor<8x8xf32>):
    %17 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %18 = "stablehlo.reduce"(%arg5, %17) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg8: tensor<f32>, %arg9: tensor<f32>):
      %33 = "stablehlo.maximum"(%arg8, %arg9) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%33) : (tensor<f32>) -> ()
    }) : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %19 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %20 = "stablehlo.broadcast_in_dim"(%19) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %21 = "stablehlo.maximum"(%20, %18) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %22 = "stablehlo.broadcast_in_dim"(%21) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %23 = "stablehlo.broadcast_in_dim"(%22) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x8xf32>
    %24 = "stablehlo.subtract"(%arg5, %23) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %25 = "stablehlo.exponential"(%24) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %26 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %27 = "stablehlo.reduce"(%25, %26) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %32 = "stablehlo.add"(%arg6, %arg7) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%32) : (tensor<f32>) -> ()
    }) : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %28 = "stablehlo.broadcast_in_dim"(%27) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %29 = "stablehlo.log"(%28) : (tensor<8x1xf32>) -> tensor<8x1xf32>
    %30 = "stablehlo.broadcast_in_dim"(%29) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x8xf32>
    %31 = "stablehlo.subtract"(%24, %30) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    "func.return"(%31) : (tensor<8x8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<8x8xf32>) -> tensor<8x8xf32>, res_attrs = [{}], sym_name = "log_softmax_0", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<8x8xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.reduce"(%arg0, %0) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %16 = "stablehlo.maximum"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%16) : (tensor<f32>) -> ()
    }) : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %2 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %4 = "stablehlo.maximum"(%3, %1) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64: 1>}> : (tensor<8xf32>) -> tensor<1x8xf32>
    %6 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x8xf32>) -> tensor<8x8xf32>
    %7 = "stablehlo.subtract"(%arg0, %6) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %8 = "stablehlo.exponential"(%7) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %9 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %10 = "stablehlo.reduce"(%8, %9) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %15 = "stablehlo.add"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%15) : (tensor<f32>) -> ()
    }) : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64: 1>}> : (tensor<8xf32>) -> tensor<1x8xf32>
    %12 = "stablehlo.log"(%11) : (tensor<1x8xf32>) -> tensor<1x8xf32>
    %13 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x8xf32>) -> tensor<8x8xf32>
    %14 = "stablehlo.subtract"(%7, %13) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    "func.return"(%14) : (tensor<8x8xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
