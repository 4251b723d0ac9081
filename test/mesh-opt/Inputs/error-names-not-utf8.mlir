mesh.mesh @m(shape = 4)
func.func @"f\ff"(%x: tensor<8xf32>) -> tensor<5xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %y = mesh.shard %x to %s : tensor<8xf32>
  return %y : tensor<8xf32>
}
