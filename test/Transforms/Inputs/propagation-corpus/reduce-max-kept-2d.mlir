// A row maximum with the kept dimension split: no communication at all.
mesh.mesh @mesh(shape = 2x2)
func.func @row_max(%a: tensor<8x16xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0, 1]] : !mesh.sharding
  %a1 = mesh.shard %a to %s annotate_for_users : tensor<8x16xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<8xf32>
  %z = linalg.fill ins(%ninf : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%a1 : tensor<8x16xf32>) outs(%z : tensor<8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %v = arith.maximumf %x, %acc : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  return %max : tensor<8xf32>
}
