// The middle value is annotated as produced column-split, but its producer
// runs split over rows and columns (its operand is annotated row-split), so
// that annotation is resharded; its consumer wants the value row-split.
mesh.mesh @mesh(shape = 2x2)
func.func @result_loses(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %cols = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
  %a1 = mesh.shard %a to %rows annotate_for_users : tensor<8x8xf32>
  %0 = tosa.sigmoid %a1 : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = mesh.shard %0 to %cols : tensor<8x8xf32>
  %2 = tosa.sigmoid %1 : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %3 = mesh.shard %2 to %rows : tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}
