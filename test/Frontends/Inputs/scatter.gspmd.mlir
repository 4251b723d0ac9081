"builtin.module"() <{sym_name = "jit_scatter"}> ({
  "func.func"() <{arg_attrs = [{mhlo.sharding = "{devices=[2,4]<=[8]}"}, {mhlo.sharding = "{replicated}"}, {mhlo.sharding = "{devices=[2,4]<=[8]}"}], function_type = (tensor<4x16xf32>, tensor<8xi32>, tensor<4x8xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>), res_attrs = [{jax.result_info = "result[0]", mhlo.sharding = "{devices=[2,4]<=[8]}"}, {jax.result_info = "result[1]", mhlo.sharding = "{devices=[2,4]<=[8]}"}, {jax.result_info = "result[2]", mhlo.sharding = "{devices=[2,4]<=[8]}"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<4x16xf32>, %arg1: tensor<8xi32>, %arg2: tensor<4x8xf32>):
    %0 = "stablehlo.constant"() <{value = dense<1.000000e+01> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8xf32>
    %2 = "stablehlo.multiply"(%arg2, %1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %3 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %4 = "stablehlo.constant"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
    %5 = "stablehlo.dynamic_update_slice"(%arg0, %2, %3, %4) : (tensor<4x16xf32>, tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x16xf32>
    %6 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8xi32>
    %8 = "stablehlo.compare"(%arg1, %7) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
    %9 = "stablehlo.constant"() <{value = dense<16> : tensor<i32>}> : () -> tensor<i32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8xi32>
    %11 = "stablehlo.add"(%arg1, %10) : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
    %12 = "stablehlo.select"(%8, %11, %arg1) : (tensor<8xi1>, tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
    %13 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xi32>) -> tensor<8x1xi32>
    %14 = "stablehlo.scatter"(%arg0, %13, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %25 = "stablehlo.multiply"(%arg5, %arg6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%25) : (tensor<f32>) -> ()
    }) : (tensor<4x16xf32>, tensor<8x1xi32>, tensor<4x8xf32>) -> tensor<4x16xf32>
    %15 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %16 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8xi32>
    %17 = "stablehlo.compare"(%arg1, %16) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
    %18 = "stablehlo.constant"() <{value = dense<16> : tensor<i32>}> : () -> tensor<i32>
    %19 = "stablehlo.broadcast_in_dim"(%18) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8xi32>
    %20 = "stablehlo.add"(%arg1, %19) : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
    %21 = "stablehlo.select"(%17, %20, %arg1) : (tensor<8xi1>, tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
    %22 = "stablehlo.broadcast_in_dim"(%21) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xi32>) -> tensor<8x1xi32>
    %23 = "stablehlo.scatter"(%arg0, %22, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %24 = "stablehlo.minimum"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%24) : (tensor<f32>) -> ()
    }) : (tensor<4x16xf32>, tensor<8x1xi32>, tensor<4x8xf32>) -> tensor<4x16xf32>
    "func.return"(%14, %23, %5) : (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
