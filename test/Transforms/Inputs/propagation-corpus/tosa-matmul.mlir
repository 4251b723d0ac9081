// A batched tosa.matmul, batch split, followed by a sigmoid whose result
// is annotated too.
mesh.mesh @mesh(shape = 2x2)
func.func @tosa_matmul(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>) -> tensor<2x4x16xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a1 = mesh.shard %a to %s annotate_for_users : tensor<2x4x8xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a1, %b, %zp, %zp : (tensor<2x4x8xf32>, tensor<2x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x16xf32>
  %1 = tosa.sigmoid %0 : (tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %st = mesh.sharding @mesh split_axes = [[0], [], [1]] : !mesh.sharding
  %2 = mesh.shard %1 to %st : tensor<2x4x16xf32>
  return %2 : tensor<2x4x16xf32>
}
