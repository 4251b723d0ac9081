// gather-batched-2d: batched_gather exported by JAX 0.10.2 (Inputs/export.py); do not edit.
module {
  mesh.mesh @mesh(shape = 2x2)
  func.func public @main(%arg0: tensor<4x6x8xf32>, %arg1: tensor<4x3x1xi32>) -> tensor<4x3x8xf32> {
    %0 = mesh.sharding @mesh split_axes = [[0], [], [1]] : !mesh.sharding
    %1 = mesh.shard %arg0 to %0 : tensor<4x6x8xf32>
    %2 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %3 = mesh.shard %arg1 to %2 : tensor<4x3x1xi32>
    %4 = "stablehlo.gather"(%1, %3) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 8>}> : (tensor<4x6x8xf32>, tensor<4x3x1xi32>) -> tensor<4x3x8xf32>
    %5 = mesh.sharding @mesh split_axes = [[0], [], [1]] : !mesh.sharding
    %6 = mesh.shard %4 to %5 : tensor<4x3x8xf32>
    return %6 : tensor<4x3x8xf32>
  }
}
