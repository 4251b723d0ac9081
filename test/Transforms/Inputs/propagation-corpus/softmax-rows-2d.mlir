// Attention-style scores and a row softmax: matmul, row max, exp(x - max),
// row sum, divide.  Only the query rows are annotated.
mesh.mesh @mesh(shape = 2x2)
func.func @softmax_scores(%q: tensor<8x16xf32>, %kt: tensor<16x8xf32>) -> tensor<8x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0, 1]] : !mesh.sharding
  %q1 = mesh.shard %q to %s annotate_for_users : tensor<8x16xf32>
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<8x8xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sc = linalg.matmul ins(%q1, %kt : tensor<8x16xf32>, tensor<16x8xf32>) outs(%f0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %e1 = tensor.empty() : tensor<8xf32>
  %f1 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%sc : tensor<8x8xf32>) outs(%f1 : tensor<8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %v = arith.maximumf %x, %acc : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  %e2 = tensor.empty() : tensor<8x8xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%sc, %mx : tensor<8x8xf32>, tensor<8xf32>) outs(%e2 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    %v = math.exp %d : f32
    linalg.yield %v : f32
  } -> tensor<8x8xf32>
  %e3 = tensor.empty() : tensor<8xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%ex : tensor<8x8xf32>) outs(%f3 : tensor<8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %v = arith.addf %x, %acc : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  %e4 = tensor.empty() : tensor<8x8xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ex, %sum : tensor<8x8xf32>, tensor<8xf32>) outs(%e4 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %t: f32, %o: f32):
    %v = arith.divf %x, %t : f32
    linalg.yield %v : f32
  } -> tensor<8x8xf32>
  return %p : tensor<8x8xf32>
}
