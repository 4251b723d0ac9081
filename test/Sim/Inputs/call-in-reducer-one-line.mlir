// (call-in-reducer.mlir: a reducer on one line with the op after it, whose error must point at that op)
mesh.mesh @mesh(shape = 2)
func.func @main(%x: tensor<4xf32>) -> tensor<f32> {
  %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %r = "stablehlo.reduce"(%x, %z) <{dimensions = array<i64: 0>}> ({ ^bb0(%a: tensor<f32>, %b: tensor<f32>): %s = "func.call"(%a, %b) <{callee = @plus}> : (tensor<f32>, tensor<f32>) -> tensor<f32> "stablehlo.return"(%s) : (tensor<f32>) -> () }) : (tensor<4xf32>, tensor<f32>) -> tensor<f32> %sh = mesh.sharding @mesh split_axes = [[], [3]] : !mesh.sharding
  return %r : tensor<f32>
}
func.func private @plus(%p: tensor<f32>, %q: tensor<f32>) -> tensor<f32> {
  %r = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
