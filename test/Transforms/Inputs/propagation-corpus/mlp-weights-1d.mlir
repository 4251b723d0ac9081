// A two-layer MLP with only the weights annotated (column split, then row
// split): the hidden activation stays split, the output is a partial sum.
mesh.mesh @mesh(shape = 2)
func.func @mlp(%x: tensor<4x8xf32>, %w1: tensor<8x32xf32>, %w2: tensor<32x8xf32>) -> tensor<4x8xf32> {
  %s_col = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %s_row = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %w1s = mesh.shard %w1 to %s_col : tensor<8x32xf32>
  %w2s = mesh.shard %w2 to %s_row : tensor<32x8xf32>
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x32xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %h = linalg.matmul ins(%x, %w1s : tensor<4x8xf32>, tensor<8x32xf32>) outs(%f0 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %e1 = tensor.empty() : tensor<4x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%h : tensor<4x32xf32>) outs(%e1 : tensor<4x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %c0 = arith.constant 0.0 : f32
    %m = arith.maximumf %v, %c0 : f32
    linalg.yield %m : f32
  } -> tensor<4x32xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = linalg.matmul ins(%r, %w2s : tensor<4x32xf32>, tensor<32x8xf32>) outs(%f2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
