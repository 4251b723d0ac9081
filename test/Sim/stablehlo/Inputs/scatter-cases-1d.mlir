// scatter-cases-1d: scatters exported by JAX 0.10.2 (Inputs/export.py); do not edit.
module {
  mesh.mesh @mesh(shape = 2)
  func.func public @main(%arg0: tensor<5x4xf32>, %arg1: tensor<5x4xf32>, %arg2: tensor<3xi32>, %arg3: tensor<4x6x8xf32>, %arg4: tensor<4x3x1xi32>, %arg5: tensor<4x3x8xf32>) -> tensor<272xf32> {
    %0 = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
    %1 = mesh.shard %arg0 to %0 : tensor<5x4xf32>
    %2 = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
    %3 = mesh.shard %arg1 to %2 : tensor<5x4xf32>
    %4 = mesh.sharding @mesh split_axes = [] : !mesh.sharding
    %5 = mesh.shard %arg2 to %4 : tensor<3xi32>
    %6 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %7 = mesh.shard %arg3 to %6 : tensor<4x6x8xf32>
    %8 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %9 = mesh.shard %arg4 to %8 : tensor<4x3x1xi32>
    %10 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %11 = mesh.shard %arg5 to %10 : tensor<4x3x8xf32>
    %12 = "stablehlo.constant"() <{value = dense<[3, 1, 3, 0, 3]> : tensor<5xi32>}> : () -> tensor<5xi32>
    %13 = "stablehlo.constant"() <{value = dense<false> : tensor<5xi1>}> : () -> tensor<5xi1>
    %14 = "stablehlo.constant"() <{value = dense<false> : tensor<5xi1>}> : () -> tensor<5xi1>
    %15 = "stablehlo.constant"() <{value = dense<false> : tensor<5xi1>}> : () -> tensor<5xi1>
    %16 = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
    %17 = "stablehlo.broadcast_in_dim"(%16) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<1xi32>
    %18 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %19 = "stablehlo.broadcast_in_dim"(%18) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<1xi32>
    %20 = "stablehlo.concatenate"(%17, %19) <{dimension = 0 : i64}> : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %21 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %22 = "stablehlo.scatter"(%1, %20, %21) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1]>, unique_indices = true}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      "stablehlo.return"(%arg7) : (tensor<f32>) -> ()
    }) : (tensor<5x4xf32>, tensor<2xi32>, tensor<f32>) -> tensor<5x4xf32>
    %23 = "stablehlo.constant"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
    %24 = "stablehlo.broadcast_in_dim"(%23) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<5xi32>
    %25 = "stablehlo.add"(%12, %24) : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
    %26 = "stablehlo.select"(%13, %25, %12) : (tensor<5xi1>, tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
    %27 = "stablehlo.broadcast_in_dim"(%26) <{broadcast_dimensions = array<i64: 0>}> : (tensor<5xi32>) -> tensor<5x1xi32>
    %28 = "stablehlo.scatter"(%1, %27, %3) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      "stablehlo.return"(%arg7) : (tensor<f32>) -> ()
    }) : (tensor<5x4xf32>, tensor<5x1xi32>, tensor<5x4xf32>) -> tensor<5x4xf32>
    %29 = "stablehlo.constant"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
    %30 = "stablehlo.broadcast_in_dim"(%29) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<5xi32>
    %31 = "stablehlo.add"(%12, %30) : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
    %32 = "stablehlo.select"(%14, %31, %12) : (tensor<5xi1>, tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
    %33 = "stablehlo.broadcast_in_dim"(%32) <{broadcast_dimensions = array<i64: 0>}> : (tensor<5xi32>) -> tensor<5x1xi32>
    %34 = "stablehlo.scatter"(%1, %33, %3) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %60 = "stablehlo.add"(%arg6, %arg7) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%60) : (tensor<f32>) -> ()
    }) : (tensor<5x4xf32>, tensor<5x1xi32>, tensor<5x4xf32>) -> tensor<5x4xf32>
    %35 = "stablehlo.constant"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
    %36 = "stablehlo.broadcast_in_dim"(%35) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<5xi32>
    %37 = "stablehlo.add"(%12, %36) : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
    %38 = "stablehlo.select"(%15, %37, %12) : (tensor<5xi1>, tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
    %39 = "stablehlo.broadcast_in_dim"(%38) <{broadcast_dimensions = array<i64: 0>}> : (tensor<5xi32>) -> tensor<5x1xi32>
    %40 = "stablehlo.scatter"(%22, %39, %3) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %60 = "stablehlo.maximum"(%arg6, %arg7) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%60) : (tensor<f32>) -> ()
    }) : (tensor<5x4xf32>, tensor<5x1xi32>, tensor<5x4xf32>) -> tensor<5x4xf32>
    %41 = "stablehlo.slice"(%3) <{limit_indices = array<i64: 3, 4>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<5x4xf32>) -> tensor<3x4xf32>
    %42 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %43 = "stablehlo.broadcast_in_dim"(%42) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<3xi32>
    %44 = "stablehlo.compare"(%5, %43) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %45 = "stablehlo.constant"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
    %46 = "stablehlo.broadcast_in_dim"(%45) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<3xi32>
    %47 = "stablehlo.add"(%5, %46) : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
    %48 = "stablehlo.select"(%44, %47, %5) : (tensor<3xi1>, tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
    %49 = "stablehlo.broadcast_in_dim"(%48) <{broadcast_dimensions = array<i64: 0>}> : (tensor<3xi32>) -> tensor<3x1xi32>
    %50 = "stablehlo.scatter"(%1, %49, %41) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %60 = "stablehlo.add"(%arg6, %arg7) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%60) : (tensor<f32>) -> ()
    }) : (tensor<5x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> tensor<5x4xf32>
    %51 = "stablehlo.scatter"(%7, %9, %11) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %60 = "stablehlo.add"(%arg6, %arg7) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%60) : (tensor<f32>) -> ()
    }) : (tensor<4x6x8xf32>, tensor<4x3x1xi32>, tensor<4x3x8xf32>) -> tensor<4x6x8xf32>
    %52 = "stablehlo.reshape"(%28) : (tensor<5x4xf32>) -> tensor<20xf32>
    %53 = "stablehlo.reshape"(%34) : (tensor<5x4xf32>) -> tensor<20xf32>
    %54 = "stablehlo.reshape"(%40) : (tensor<5x4xf32>) -> tensor<20xf32>
    %55 = "stablehlo.reshape"(%50) : (tensor<5x4xf32>) -> tensor<20xf32>
    %56 = "stablehlo.reshape"(%51) : (tensor<4x6x8xf32>) -> tensor<192xf32>
    %57 = "stablehlo.concatenate"(%52, %53, %54, %55, %56) <{dimension = 0 : i64}> : (tensor<20xf32>, tensor<20xf32>, tensor<20xf32>, tensor<20xf32>, tensor<192xf32>) -> tensor<272xf32>
    %58 = mesh.sharding @mesh split_axes = [] : !mesh.sharding
    %59 = mesh.shard %57 to %58 : tensor<272xf32>
    return %59 : tensor<272xf32>
  }
}
