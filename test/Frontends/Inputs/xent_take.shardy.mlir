"builtin.module"() <{sym_name = "jit_xent_take"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> {stablehlo.mesh = {axes = [{name = "data", size = 2 : i64}, {name = "model", size = 4 : i64}]}} : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"model"}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{"data"}]>}], function_type = (tensor<8x32xf32>, tensor<8xi32>) -> tensor<f32>, res_attrs = [{jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, []>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg4: tensor<8x32xf32>, %arg5: tensor<8xi32>):
    %23 = "stablehlo.broadcast_in_dim"(%arg5) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xi32>) -> tensor<8x1xi32>
    %24 = "func.call"(%arg4, %23) <{callee = @take_along_axis}> : (tensor<8x32xf32>, tensor<8x1xi32>) -> tensor<8x1xf32>
    %25 = "stablehlo.reshape"(%24) : (tensor<8x1xf32>) -> tensor<8xf32>
    %26 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %27 = "stablehlo.reduce"(%arg4, %26) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg10: tensor<f32>, %arg11: tensor<f32>):
      %51 = "stablehlo.maximum"(%arg10, %arg11) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%51) : (tensor<f32>) -> ()
    }) : (tensor<8x32xf32>, tensor<f32>) -> tensor<8xf32>
    %28 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %29 = "stablehlo.broadcast_in_dim"(%28) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %30 = "stablehlo.maximum"(%29, %27) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %31 = "stablehlo.is_finite"(%30) : (tensor<8xf32>) -> tensor<8xi1>
    %32 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %33 = "stablehlo.broadcast_in_dim"(%32) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %34 = "stablehlo.select"(%31, %30, %33) : (tensor<8xi1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %35 = "stablehlo.broadcast_in_dim"(%34) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %36 = "stablehlo.broadcast_in_dim"(%35) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x32xf32>
    %37 = "stablehlo.subtract"(%arg4, %36) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %38 = "stablehlo.exponential"(%37) : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %39 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %40 = "stablehlo.reduce"(%38, %39) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg8: tensor<f32>, %arg9: tensor<f32>):
      %50 = "stablehlo.add"(%arg8, %arg9) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%50) : (tensor<f32>) -> ()
    }) : (tensor<8x32xf32>, tensor<f32>) -> tensor<8xf32>
    %41 = "stablehlo.abs"(%40) : (tensor<8xf32>) -> tensor<8xf32>
    %42 = "stablehlo.log"(%41) : (tensor<8xf32>) -> tensor<8xf32>
    %43 = "stablehlo.add"(%42, %34) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %44 = "stablehlo.subtract"(%43, %25) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %45 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %46 = "stablehlo.reduce"(%44, %45) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %49 = "stablehlo.add"(%arg6, %arg7) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%49) : (tensor<f32>) -> ()
    }) : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    %47 = "stablehlo.constant"() <{value = dense<8.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %48 = "stablehlo.divide"(%46, %47) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "func.return"(%48) : (tensor<f32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<8x32xf32>, tensor<8x1xi32>) -> tensor<8x1xf32>, res_attrs = [{}], sym_name = "take_along_axis", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<8x32xf32>, %arg1: tensor<8x1xi32>):
    %0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x1xi32>
    %2 = "stablehlo.compare"(%arg1, %1) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<8x1xi32>, tensor<8x1xi32>) -> tensor<8x1xi1>
    %3 = "stablehlo.constant"() <{value = dense<32> : tensor<i32>}> : () -> tensor<i32>
    %4 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x1xi32>
    %5 = "stablehlo.add"(%arg1, %4) : (tensor<8x1xi32>, tensor<8x1xi32>) -> tensor<8x1xi32>
    %6 = "stablehlo.select"(%2, %5, %arg1) : (tensor<8x1xi1>, tensor<8x1xi32>, tensor<8x1xi32>) -> tensor<8x1xi32>
    %7 = "stablehlo.reshape"(%6) : (tensor<8x1xi32>) -> tensor<8x1x1xi32>
    %8 = "stablehlo.constant"() <{value = dense<31> : tensor<1xi32>}> : () -> tensor<1xi32>
    %9 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x1x1xi32>
    %11 = "stablehlo.compare"(%7, %10) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<8x1x1xi32>, tensor<8x1x1xi32>) -> tensor<8x1x1xi1>
    %12 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64: 2>}> : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %13 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x1xi32>) -> tensor<8x1x1xi32>
    %14 = "stablehlo.compare"(%7, %13) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<8x1x1xi32>, tensor<8x1x1xi32>) -> tensor<8x1x1xi1>
    %15 = "stablehlo.and"(%11, %14) : (tensor<8x1x1xi1>, tensor<8x1x1xi1>) -> tensor<8x1x1xi1>
    %16 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %17 = "stablehlo.reduce"(%15, %16) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg2: tensor<i1>, %arg3: tensor<i1>):
      %22 = "stablehlo.and"(%arg2, %arg3) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%22) : (tensor<i1>) -> ()
    }) : (tensor<8x1x1xi1>, tensor<i1>) -> tensor<8x1xi1>
    %18 = "stablehlo.gather"(%arg0, %7) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<8x32xf32>, tensor<8x1x1xi32>) -> tensor<8x1xf32>
    %19 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %20 = "stablehlo.broadcast_in_dim"(%19) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x1xf32>
    %21 = "stablehlo.select"(%17, %18, %20) : (tensor<8x1xi1>, tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x1xf32>
    "func.return"(%21) : (tensor<8x1xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
