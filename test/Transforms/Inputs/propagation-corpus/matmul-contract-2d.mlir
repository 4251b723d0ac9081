// Both operands split along the contracted dimension: the product is a
// partial sum over mesh axis 1 until someone needs it whole.
mesh.mesh @mesh(shape = 2x2)
func.func @matmul_contract(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) -> tensor<8x32xf32> {
  %sa = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %sb = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
  %a1 = mesh.shard %a to %sa annotate_for_users : tensor<8x16xf32>
  %b1 = mesh.shard %b to %sb annotate_for_users : tensor<16x32xf32>
  %e = tensor.empty() : tensor<8x32xf32>
  %zero = arith.constant 0.0 : f32
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %m = linalg.matmul ins(%a1, %b1 : tensor<8x16xf32>, tensor<16x32xf32>) outs(%z : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %m : tensor<8x32xf32>
}
