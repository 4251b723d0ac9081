"builtin.module"() <{sym_name = "jit_xent_index"}> ({
  "func.func"() <{arg_attrs = [{mhlo.sharding = "{devices=[2,4]<=[8]}"}, {mhlo.sharding = "{devices=[2,4]<=[8] last_tile_dim_replicate}"}], function_type = (tensor<8x32xf32>, tensor<8xi32>) -> tensor<f32>, res_attrs = [{jax.result_info = "result", mhlo.sharding = "{replicated}"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x32xf32>, %arg1: tensor<8xi32>):
    %0 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<8xi32>
    %1 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %2 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8xi32>
    %3 = "stablehlo.compare"(%0, %2) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
    %4 = "stablehlo.constant"() <{value = dense<8> : tensor<i32>}> : () -> tensor<i32>
    %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8xi32>
    %6 = "stablehlo.add"(%0, %5) : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
    %7 = "stablehlo.select"(%3, %6, %0) : (tensor<8xi1>, tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
    %8 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %9 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8xi32>
    %10 = "stablehlo.compare"(%arg1, %9) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
    %11 = "stablehlo.constant"() <{value = dense<32> : tensor<i32>}> : () -> tensor<i32>
    %12 = "stablehlo.broadcast_in_dim"(%11) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8xi32>
    %13 = "stablehlo.add"(%arg1, %12) : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
    %14 = "stablehlo.select"(%10, %13, %arg1) : (tensor<8xi1>, tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
    %15 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xi32>) -> tensor<8x1xi32>
    %16 = "stablehlo.broadcast_in_dim"(%14) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xi32>) -> tensor<8x1xi32>
    %17 = "stablehlo.concatenate"(%15, %16) <{dimension = 1 : i64}> : (tensor<8x1xi32>, tensor<8x1xi32>) -> tensor<8x2xi32>
    %18 = "stablehlo.gather"(%arg0, %17) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<8x32xf32>, tensor<8x2xi32>) -> tensor<8xf32>
    %19 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %20 = "stablehlo.reduce"(%arg0, %19) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %44 = "stablehlo.maximum"(%arg6, %arg7) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%44) : (tensor<f32>) -> ()
    }) : (tensor<8x32xf32>, tensor<f32>) -> tensor<8xf32>
    %21 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %22 = "stablehlo.broadcast_in_dim"(%21) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %23 = "stablehlo.maximum"(%22, %20) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %24 = "stablehlo.is_finite"(%23) : (tensor<8xf32>) -> tensor<8xi1>
    %25 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %26 = "stablehlo.broadcast_in_dim"(%25) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %27 = "stablehlo.select"(%24, %23, %26) : (tensor<8xi1>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %28 = "stablehlo.broadcast_in_dim"(%27) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %29 = "stablehlo.broadcast_in_dim"(%28) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x32xf32>
    %30 = "stablehlo.subtract"(%arg0, %29) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %31 = "stablehlo.exponential"(%30) : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %32 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %33 = "stablehlo.reduce"(%31, %32) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %43 = "stablehlo.add"(%arg4, %arg5) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%43) : (tensor<f32>) -> ()
    }) : (tensor<8x32xf32>, tensor<f32>) -> tensor<8xf32>
    %34 = "stablehlo.abs"(%33) : (tensor<8xf32>) -> tensor<8xf32>
    %35 = "stablehlo.log"(%34) : (tensor<8xf32>) -> tensor<8xf32>
    %36 = "stablehlo.add"(%35, %27) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %37 = "stablehlo.subtract"(%36, %18) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %38 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %39 = "stablehlo.reduce"(%37, %38) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %42 = "stablehlo.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%42) : (tensor<f32>) -> ()
    }) : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    %40 = "stablehlo.constant"() <{value = dense<8.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %41 = "stablehlo.divide"(%39, %40) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "func.return"(%41) : (tensor<f32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
