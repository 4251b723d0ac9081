// linalg.transpose then an elementwise op, annotated on the input and the
// output consistently.
mesh.mesh @mesh(shape = 2x2)
func.func @transpose(%a: tensor<8x16xf32>) -> tensor<16x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %st = mesh.sharding @mesh split_axes = [[1], [0]] : !mesh.sharding
  %a1 = mesh.shard %a to %s annotate_for_users : tensor<8x16xf32>
  %e = tensor.empty() : tensor<16x8xf32>
  %t = linalg.transpose ins(%a1 : tensor<8x16xf32>) outs(%e : tensor<16x8xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<16x8xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<16x8xf32>) outs(%e1 : tensor<16x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %v = arith.negf %x : f32
    linalg.yield %v : f32
  } -> tensor<16x8xf32>
  %r = mesh.shard %n to %st : tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}
