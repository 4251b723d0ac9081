// The per-device program of f16-tolerance.mlir, negating what it should copy.
mesh.mesh @m(shape = 2)
func.func @f(%x: tensor<1x1024xf16> {mesh.sharding = #mesh.sharding<@m, [[0]]>}) -> (tensor<1x1024xf16> {mesh.sharding = #mesh.sharding<@m, [[0]]>}) {
  %n = arith.negf %x : tensor<1x1024xf16>
  return %n : tensor<1x1024xf16>
}
