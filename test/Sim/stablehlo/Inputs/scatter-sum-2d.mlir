// scatter-sum-2d: embedding_grad exported by JAX 0.10.2 (Inputs/export.py); do not edit.
module {
  mesh.mesh @mesh(shape = 2x2)
  func.func public @main(%arg0: tensor<4x8xf32>, %arg1: tensor<32xi32>, %arg2: tensor<32x8xf32>) -> tensor<4x8xf32> {
    %0 = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
    %1 = mesh.shard %arg0 to %0 : tensor<4x8xf32>
    %2 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %3 = mesh.shard %arg1 to %2 : tensor<32xi32>
    %4 = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
    %5 = mesh.shard %arg2 to %4 : tensor<32x8xf32>
    %6 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<32xi32>
    %8 = "stablehlo.compare"(%3, %7) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<32xi32>, tensor<32xi32>) -> tensor<32xi1>
    %9 = "stablehlo.constant"() <{value = dense<4> : tensor<i32>}> : () -> tensor<i32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<32xi32>
    %11 = "stablehlo.add"(%3, %10) : (tensor<32xi32>, tensor<32xi32>) -> tensor<32xi32>
    %12 = "stablehlo.select"(%8, %11, %3) : (tensor<32xi1>, tensor<32xi32>, tensor<32xi32>) -> tensor<32xi32>
    %13 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64: 0>}> : (tensor<32xi32>) -> tensor<32x1xi32>
    %14 = "stablehlo.constant"() <{value = dense<3> : tensor<1xi32>}> : () -> tensor<1xi32>
    %15 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %16 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<32x1xi32>
    %17 = "stablehlo.compare"(%13, %16) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<32x1xi32>, tensor<32x1xi32>) -> tensor<32x1xi1>
    %18 = "stablehlo.broadcast_in_dim"(%14) <{broadcast_dimensions = array<i64: 1>}> : (tensor<1xi32>) -> tensor<1x1xi32>
    %19 = "stablehlo.broadcast_in_dim"(%18) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x1xi32>) -> tensor<32x1xi32>
    %20 = "stablehlo.compare"(%13, %19) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<32x1xi32>, tensor<32x1xi32>) -> tensor<32x1xi1>
    %21 = "stablehlo.and"(%17, %20) : (tensor<32x1xi1>, tensor<32x1xi1>) -> tensor<32x1xi1>
    %22 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %23 = "stablehlo.reduce"(%21, %22) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg3: tensor<i1>, %arg4: tensor<i1>):
      %41 = "stablehlo.and"(%arg3, %arg4) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%41) : (tensor<i1>) -> ()
    }) : (tensor<32x1xi1>, tensor<i1>) -> tensor<32xi1>
    %24 = "stablehlo.gather"(%1, %13) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 8>}> : (tensor<4x8xf32>, tensor<32x1xi32>) -> tensor<32x8xf32>
    %25 = "stablehlo.broadcast_in_dim"(%23) <{broadcast_dimensions = array<i64: 0>}> : (tensor<32xi1>) -> tensor<32x8xi1>
    %26 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %27 = "stablehlo.broadcast_in_dim"(%26) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x8xf32>
    %28 = "stablehlo.select"(%25, %24, %27) : (tensor<32x8xi1>, tensor<32x8xf32>, tensor<32x8xf32>) -> tensor<32x8xf32>
    %29 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %30 = "stablehlo.broadcast_in_dim"(%29) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x8xf32>
    %31 = "stablehlo.multiply"(%30, %28) : (tensor<32x8xf32>, tensor<32x8xf32>) -> tensor<32x8xf32>
    %32 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %33 = "stablehlo.broadcast_in_dim"(%32) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32x8xf32>
    %34 = "stablehlo.multiply"(%33, %5) : (tensor<32x8xf32>, tensor<32x8xf32>) -> tensor<32x8xf32>
    %35 = "stablehlo.multiply"(%34, %31) : (tensor<32x8xf32>, tensor<32x8xf32>) -> tensor<32x8xf32>
    %36 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %37 = "stablehlo.broadcast_in_dim"(%36) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8xf32>
    %38 = "stablehlo.scatter"(%37, %13, %35) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %41 = "stablehlo.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%41) : (tensor<f32>) -> ()
    }) : (tensor<4x8xf32>, tensor<32x1xi32>, tensor<32x8xf32>) -> tensor<4x8xf32>
    %39 = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
    %40 = mesh.shard %38 to %39 : tensor<4x8xf32>
    return %40 : tensor<4x8xf32>
  }
}
