// tosa.add, tosa.sigmoid, tosa.add with the first input annotated.
mesh.mesh @mesh(shape = 2x2)
func.func @tosa_chain(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[1], [0]] : !mesh.sharding
  %a1 = mesh.shard %a to %s annotate_for_users : tensor<4x8xf32>
  %0 = tosa.add %a1, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = tosa.sigmoid %0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = tosa.add %1, %0 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}
