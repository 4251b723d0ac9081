// A chain of elementwise generics; the first input is annotated as produced.
mesh.mesh @mesh(shape = 2x2)
func.func @chain(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %a1 = mesh.shard %a to %s : tensor<8x16xf32>
  %e0 = tensor.empty() : tensor<8x16xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a1, %b : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e0 : tensor<8x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %v = arith.addf %x, %y : f32
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  %e1 = tensor.empty() : tensor<8x16xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%0, %b : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e1 : tensor<8x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %v = arith.mulf %x, %y : f32
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<8x16xf32>) outs(%e2 : tensor<8x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %v = math.exp %x : f32
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}
