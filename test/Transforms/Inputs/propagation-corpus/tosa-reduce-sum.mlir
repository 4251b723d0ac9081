// tosa.reduce_sum over the split dimension, then an elementwise op.
mesh.mesh @mesh(shape = 2x2)
func.func @tosa_reduce(%a: tensor<4x8xf32>, %b: tensor<4x1xf32>) -> tensor<4x1xf32> {
  %s = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %a1 = mesh.shard %a to %s annotate_for_users : tensor<4x8xf32>
  %0 = tosa.reduce_sum %a1 {axis = 1 : i32} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %1 = tosa.add %0, %b : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  return %1 : tensor<4x1xf32>
}
