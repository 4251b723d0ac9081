// Two values annotated as produced, row-split and column-split, meet in an
// elementwise add: neither annotation targets the add, so it may pick.
mesh.mesh @mesh(shape = 2)
func.func @conflict_optional(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %cols = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %a1 = mesh.shard %a to %rows : tensor<8x16xf32>
  %b1 = mesh.shard %b to %cols : tensor<8x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a1, %b1 : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %v = arith.addf %x, %y : f32
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
