// The per-device program of unfilled-init.mlir with its init's fill left out.
mesh.mesh @m(shape = 2)
func.func @f(%x: tensor<2x8xi32> {mesh.sharding = #mesh.sharding<@m, [[0]]>}) -> (tensor<2xi32> {mesh.sharding = #mesh.sharding<@m, [[0]]>}) {
  %e = tensor.empty() : tensor<2xi32>
  %r = linalg.reduce ins(%x : tensor<2x8xi32>) outs(%e : tensor<2xi32>) dimensions = [1]
    (%in: i32, %acc: i32) {
      %m = arith.maxsi %in, %acc : i32
      linalg.yield %m : i32
    }
  return %r : tensor<2xi32>
}
