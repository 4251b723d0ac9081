// One value feeds two consumers that want it laid out differently: a
// matmul with column-split weights and an elementwise op annotated for rows.
mesh.mesh @mesh(shape = 2)
func.func @fan_out(%x: tensor<8x16xf32>, %w: tensor<16x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %cols = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %ws = mesh.shard %w to %cols annotate_for_users : tensor<16x16xf32>
  %e0 = tensor.empty() : tensor<8x16xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x16xf32>) outs(%e0 : tensor<8x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.tanh %v : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<8x16xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %m = linalg.matmul ins(%t, %ws : tensor<8x16xf32>, tensor<16x16xf32>) outs(%f1 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %t1 = mesh.shard %t to %rows annotate_for_users : tensor<8x16xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%t1 : tensor<8x16xf32>) outs(%e2 : tensor<8x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.negf %v : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  return %m, %n : tensor<8x16xf32>, tensor<8x16xf32>
}
