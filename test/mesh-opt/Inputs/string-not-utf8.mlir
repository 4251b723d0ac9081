mesh.mesh @m(shape = 4)
func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %y = mesh.shard %x to %s : tensor<8xf32>
  %z = arith.addf %y, %y {note = "\c3\28"} : tensor<8xf32>
  %w = mesh.shard %z to %s : tensor<8xf32>
  return %w : tensor<8xf32>
}
