// tosa.mul on a 2-D mesh with both dimensions split: the rank-1 shift
// operand cannot follow the loops of the rank-2 result.
mesh.mesh @mesh(shape = 2x2)
func.func @tosa_mul_2d(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %a1 = mesh.shard %a to %s annotate_for_users : tensor<4x8xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.mul %a1, %b, %shift : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<1xi8>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
