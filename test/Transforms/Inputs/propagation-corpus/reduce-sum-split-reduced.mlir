// A row sum whose input is split along the summed dimension, then scaled:
// the sum is partial until the scaling needs it.
mesh.mesh @mesh(shape = 4)
func.func @row_sum(%a: tensor<8x16xf32>, %scale: tensor<8xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %a1 = mesh.shard %a to %s annotate_for_users : tensor<8x16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%a1 : tensor<8x16xf32>) outs(%z : tensor<8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %v = arith.addf %x, %acc : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  %e1 = tensor.empty() : tensor<8xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%sum, %scale : tensor<8xf32>, tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %v = arith.mulf %x, %y : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  return %out : tensor<8xf32>
}
