// An elementwise op whose operand is annotated for it as row-split and
// whose result is annotated as column-split on the same mesh axis.
mesh.mesh @mesh(shape = 2)
func.func @conflict_in_out(%a: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %cols = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %a1 = mesh.shard %a to %rows annotate_for_users : tensor<8x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a1 : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %v = math.sqrt %x : f32
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  %r = mesh.shard %0 to %cols : tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
