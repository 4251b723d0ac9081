// The operand is annotated with its rows whole and columns split, the
// result with rows split: an annotation's unsplit dimension does not
// forbid splitting the loop, so both splits can be kept.
mesh.mesh @mesh(shape = 2x2)
func.func @unsplit_dim(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %cols = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a1 = mesh.shard %a to %cols annotate_for_users : tensor<8x8xf32>
  %e = tensor.empty() : tensor<8x8xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a1 : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %v = math.absf %x : f32
    linalg.yield %v : f32
  } -> tensor<8x8xf32>
  %r = mesh.shard %0 to %rows : tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
