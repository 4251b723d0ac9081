// gather-windows-1d: windows exported by JAX 0.10.2 (Inputs/export.py); do not edit.
module {
  mesh.mesh @mesh(shape = 2)
  func.func public @main(%arg0: tensor<6x7xf32>, %arg1: tensor<4x2xi32>) -> tensor<4x2x3xf32> {
    %0 = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
    %1 = mesh.shard %arg0 to %0 : tensor<6x7xf32>
    %2 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %3 = mesh.shard %arg1 to %2 : tensor<4x2xi32>
    %4 = "stablehlo.gather"(%1, %3) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 2, 3>}> : (tensor<6x7xf32>, tensor<4x2xi32>) -> tensor<4x2x3xf32>
    %5 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %6 = mesh.shard %4 to %5 : tensor<4x2x3xf32>
    return %6 : tensor<4x2x3xf32>
  }
}
