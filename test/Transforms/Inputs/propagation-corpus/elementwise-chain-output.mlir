// Annotation on the output only: the layout has to travel backwards
// through three elementwise ops.
mesh.mesh @mesh(shape = 2x2)
func.func @chain_out(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e0 = tensor.empty() : tensor<8x16xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e0 : tensor<8x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %v = arith.subf %x, %y : f32
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  %e1 = tensor.empty() : tensor<8x16xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<8x16xf32>) outs(%e1 : tensor<8x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %v = math.tanh %x : f32
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%1, %a : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e2 : tensor<8x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %v = arith.mulf %x, %y : f32
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  %s = mesh.sharding @mesh split_axes = [[1], [0]] : !mesh.sharding
  %r = mesh.shard %2 to %s : tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
