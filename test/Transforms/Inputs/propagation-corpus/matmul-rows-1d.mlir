// Annotation on an input only: the rows of the LHS are split for the matmul.
mesh.mesh @mesh(shape = 4)
func.func @matmul_rows(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) -> tensor<8x32xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a1 = mesh.shard %a to %s annotate_for_users : tensor<8x16xf32>
  %e = tensor.empty() : tensor<8x32xf32>
  %zero = arith.constant 0.0 : f32
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %m = linalg.matmul ins(%a1, %b : tensor<8x16xf32>, tensor<16x32xf32>) outs(%z : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %m : tensor<8x32xf32>
}
