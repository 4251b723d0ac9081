// scatter-rows-2d: kv_update exported by JAX 0.10.2 (Inputs/export.py); do not edit.
module {
  mesh.mesh @mesh(shape = 2x2)
  func.func public @main(%arg0: tensor<4x16x8xf32>, %arg1: tensor<4x8xf32>, %arg2: tensor<i32>) -> tensor<4x16x8xf32> {
    %0 = mesh.sharding @mesh split_axes = [[0], [], [1]] : !mesh.sharding
    %1 = mesh.shard %arg0 to %0 : tensor<4x16x8xf32>
    %2 = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
    %3 = mesh.shard %arg1 to %2 : tensor<4x8xf32>
    %4 = mesh.sharding @mesh split_axes = [] : !mesh.sharding
    %5 = mesh.shard %arg2 to %4 : tensor<i32>
    %6 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %7 = "stablehlo.compare"(%5, %6) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %8 = "stablehlo.constant"() <{value = dense<16> : tensor<i32>}> : () -> tensor<i32>
    %9 = "stablehlo.add"(%5, %8) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %10 = "stablehlo.select"(%7, %9, %5) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<1xi32>
    %12 = "stablehlo.scatter"(%1, %11, %3) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0, 1], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1]>, unique_indices = true}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      "stablehlo.return"(%arg4) : (tensor<f32>) -> ()
    }) : (tensor<4x16x8xf32>, tensor<1xi32>, tensor<4x8xf32>) -> tensor<4x16x8xf32>
    %13 = mesh.sharding @mesh split_axes = [[0], [], [1]] : !mesh.sharding
    %14 = mesh.shard %12 to %13 : tensor<4x16x8xf32>
    return %14 : tensor<4x16x8xf32>
  }
}
