// The unpartitioned 2-layer MLP: y = relu(x @ W1) @ W2.
func.func @mlp(%x: tensor<8x16xf32>, %w1: tensor<16x32xf32>, %w2: tensor<32x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<8x32xf32>
  %acc1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<8x16xf32>, tensor<16x32xf32>) outs(%acc1 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %relu = arith.maximumf %h, %acc1 : tensor<8x32xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %acc2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = linalg.matmul ins(%relu, %w2 : tensor<8x32xf32>, tensor<32x16xf32>) outs(%acc2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}
