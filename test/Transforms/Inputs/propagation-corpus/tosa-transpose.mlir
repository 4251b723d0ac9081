// tosa.transpose between two elementwise ops, output annotated.
mesh.mesh @mesh(shape = 2x2)
func.func @tosa_transpose(%a: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %0 = tosa.sigmoid %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = tosa.transpose %0 {perms = array<i32: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %2 = tosa.sigmoid %1 : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %3 = mesh.shard %2 to %s : tensor<8x4xf32>
  return %3 : tensor<8x4xf32>
}
