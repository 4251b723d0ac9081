"builtin.module"() <{sym_name = "jit_seq_next_token_take"}> ({
  "func.func"() <{arg_attrs = [{mhlo.sharding = "{devices=[2,4,1]<=[8]}"}, {mhlo.sharding = "{devices=[2,4]<=[8]}"}], function_type = (tensor<4x32x16xf32>, tensor<4x32xi32>) -> tensor<f32>, res_attrs = [{jax.result_info = "result", mhlo.sharding = "{replicated}"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg9: tensor<4x32x16xf32>, %arg10: tensor<4x32xi32>):
    %40 = "stablehlo.slice"(%arg9) <{limit_indices = array<i64: 4, 31, 16>, start_indices = array<i64: 0, 0, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<4x32x16xf32>) -> tensor<4x31x16xf32>
    %41 = "func.call"(%40) <{callee = @log_softmax}> : (tensor<4x31x16xf32>) -> tensor<4x31x16xf32>
    %42 = "stablehlo.slice"(%arg10) <{limit_indices = array<i64: 4, 32>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<4x32xi32>) -> tensor<4x31xi32>
    %43 = "stablehlo.broadcast_in_dim"(%42) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<4x31xi32>) -> tensor<4x31x1xi32>
    %44 = "func.call"(%41, %43) <{callee = @take_along_axis}> : (tensor<4x31x16xf32>, tensor<4x31x1xi32>) -> tensor<4x31x1xf32>
    %45 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %46 = "stablehlo.reduce"(%44, %45) <{dimensions = array<i64: 0, 1, 2>}> ({
    ^bb0(%arg11: tensor<f32>, %arg12: tensor<f32>):
      %50 = "stablehlo.add"(%arg11, %arg12) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%50) : (tensor<f32>) -> ()
    }) : (tensor<4x31x1xf32>, tensor<f32>) -> tensor<f32>
    %47 = "stablehlo.constant"() <{value = dense<1.240000e+02> : tensor<f32>}> : () -> tensor<f32>
    %48 = "stablehlo.divide"(%46, %47) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %49 = "stablehlo.negate"(%48) : (tensor<f32>) -> tensor<f32>
    "func.return"(%49) : (tensor<f32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<4x31x16xf32>) -> tensor<4x31x16xf32>, res_attrs = [{}], sym_name = "log_softmax", sym_visibility = "private"}> ({
  ^bb0(%arg4: tensor<4x31x16xf32>):
    %23 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %24 = "stablehlo.reduce"(%arg4, %23) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %39 = "stablehlo.maximum"(%arg7, %arg8) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%39) : (tensor<f32>) -> ()
    }) : (tensor<4x31x16xf32>, tensor<f32>) -> tensor<4x31xf32>
    %25 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %26 = "stablehlo.broadcast_in_dim"(%25) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x31xf32>
    %27 = "stablehlo.maximum"(%26, %24) : (tensor<4x31xf32>, tensor<4x31xf32>) -> tensor<4x31xf32>
    %28 = "stablehlo.broadcast_in_dim"(%27) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<4x31xf32>) -> tensor<4x31x1xf32>
    %29 = "stablehlo.broadcast_in_dim"(%28) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x31x1xf32>) -> tensor<4x31x16xf32>
    %30 = "stablehlo.subtract"(%arg4, %29) : (tensor<4x31x16xf32>, tensor<4x31x16xf32>) -> tensor<4x31x16xf32>
    %31 = "stablehlo.exponential"(%30) : (tensor<4x31x16xf32>) -> tensor<4x31x16xf32>
    %32 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %33 = "stablehlo.reduce"(%31, %32) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %38 = "stablehlo.add"(%arg5, %arg6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%38) : (tensor<f32>) -> ()
    }) : (tensor<4x31x16xf32>, tensor<f32>) -> tensor<4x31xf32>
    %34 = "stablehlo.broadcast_in_dim"(%33) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<4x31xf32>) -> tensor<4x31x1xf32>
    %35 = "stablehlo.log"(%34) : (tensor<4x31x1xf32>) -> tensor<4x31x1xf32>
    %36 = "stablehlo.broadcast_in_dim"(%35) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x31x1xf32>) -> tensor<4x31x16xf32>
    %37 = "stablehlo.subtract"(%30, %36) : (tensor<4x31x16xf32>, tensor<4x31x16xf32>) -> tensor<4x31x16xf32>
    "func.return"(%37) : (tensor<4x31x16xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<4x31x16xf32>, tensor<4x31x1xi32>) -> tensor<4x31x1xf32>, res_attrs = [{}], sym_name = "take_along_axis", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<4x31x16xf32>, %arg1: tensor<4x31x1xi32>):
    %0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<4x31x1xi32>
    %2 = "stablehlo.compare"(%arg1, %1) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<4x31x1xi32>, tensor<4x31x1xi32>) -> tensor<4x31x1xi1>
    %3 = "stablehlo.constant"() <{value = dense<16> : tensor<i32>}> : () -> tensor<i32>
    %4 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<4x31x1xi32>
    %5 = "stablehlo.add"(%arg1, %4) : (tensor<4x31x1xi32>, tensor<4x31x1xi32>) -> tensor<4x31x1xi32>
    %6 = "stablehlo.select"(%2, %5, %arg1) : (tensor<4x31x1xi1>, tensor<4x31x1xi32>, tensor<4x31x1xi32>) -> tensor<4x31x1xi32>
    %7 = "stablehlo.reshape"(%6) : (tensor<4x31x1xi32>) -> tensor<4x31x1x1xi32>
    %8 = "stablehlo.constant"() <{value = dense<15> : tensor<1xi32>}> : () -> tensor<1xi32>
    %9 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<4x31x1x1xi32>
    %11 = "stablehlo.compare"(%7, %10) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<4x31x1x1xi32>, tensor<4x31x1x1xi32>) -> tensor<4x31x1x1xi1>
    %12 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64: 3>}> : (tensor<1xi32>) -> tensor<1x1x1x1xi32>
    %13 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64: 0, 1, 2, 3>}> : (tensor<1x1x1x1xi32>) -> tensor<4x31x1x1xi32>
    %14 = "stablehlo.compare"(%7, %13) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<4x31x1x1xi32>, tensor<4x31x1x1xi32>) -> tensor<4x31x1x1xi1>
    %15 = "stablehlo.and"(%11, %14) : (tensor<4x31x1x1xi1>, tensor<4x31x1x1xi1>) -> tensor<4x31x1x1xi1>
    %16 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %17 = "stablehlo.reduce"(%15, %16) <{dimensions = array<i64: 3>}> ({
    ^bb0(%arg2: tensor<i1>, %arg3: tensor<i1>):
      %22 = "stablehlo.and"(%arg2, %arg3) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%22) : (tensor<i1>) -> ()
    }) : (tensor<4x31x1x1xi1>, tensor<i1>) -> tensor<4x31x1xi1>
    %18 = "stablehlo.gather"(%arg0, %7) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [2], operand_batching_dims = [0, 1], start_indices_batching_dims = [0, 1], start_index_map = [2], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>}> : (tensor<4x31x16xf32>, tensor<4x31x1x1xi32>) -> tensor<4x31x1xf32>
    %19 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %20 = "stablehlo.broadcast_in_dim"(%19) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x31x1xf32>
    %21 = "stablehlo.select"(%17, %18, %20) : (tensor<4x31x1xi1>, tensor<4x31x1xf32>, tensor<4x31x1xf32>) -> tensor<4x31x1xf32>
    "func.return"(%21) : (tensor<4x31x1xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
