// One value is both operands of a matmul, whose result is annotated: the
// two uses need different layouts (rows whole on the left, columns split on
// the right).
mesh.mesh @mesh(shape = 2x2)
func.func @square(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %m = linalg.matmul ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%z : tensor<8x8xf32>) -> tensor<8x8xf32>
  %s = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
  %r = mesh.shard %m to %s : tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
