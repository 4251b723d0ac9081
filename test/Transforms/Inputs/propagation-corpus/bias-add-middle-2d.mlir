// matmul + broadcast bias add + relu, annotated only in the middle (the
// biased activation, as produced): information must flow both ways.
mesh.mesh @mesh(shape = 2x2)
func.func @bias_middle(%x: tensor<8x16xf32>, %w: tensor<16x32xf32>, %bias: tensor<32xf32>) -> tensor<8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<8x32xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %m = linalg.matmul ins(%x, %w : tensor<8x16xf32>, tensor<16x32xf32>) outs(%f0 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %e1 = tensor.empty() : tensor<8x32xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%m, %bias : tensor<8x32xf32>, tensor<32xf32>) outs(%e1 : tensor<8x32xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %r = arith.addf %v, %c : f32
    linalg.yield %r : f32
  } -> tensor<8x32xf32>
  %s = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %b1 = mesh.shard %b to %s : tensor<8x32xf32>
  %e2 = tensor.empty() : tensor<8x32xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%b1 : tensor<8x32xf32>) outs(%e2 : tensor<8x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  } -> tensor<8x32xf32>
  return %y : tensor<8x32xf32>
}
