// tosa.mul has a rank-1 shift operand that no loop indexes.
mesh.mesh @mesh(shape = 2)
func.func @tosa_mul(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a1 = mesh.shard %a to %s annotate_for_users : tensor<4x8xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.mul %a1, %b, %shift : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<1xi8>) -> tensor<4x8xf32>
  %1 = tosa.sigmoid %0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
