// An uneven Shardy layout (5 rows over 4 devices, 6 columns over 2 and over 4), for export-shardings-uneven.mlir.
"sdy.mesh"() <{mesh = #sdy.mesh<["x"=4, "y"=2]>, sym_name = "m"}> : () -> ()
func.func @main(%a: tensor<5x6xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>}, %b: tensor<5x6xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"x"}]>})
    -> (tensor<5xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) {
  %0 = "stablehlo.multiply"(%a, %b) : (tensor<5x6xf32>, tensor<5x6xf32>) -> tensor<5x6xf32>
  %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %1 = "stablehlo.reduce"(%0, %z) <{dimensions = array<i64: 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<5x6xf32>, tensor<f32>) -> tensor<5xf32>
  return %1 : tensor<5xf32>
}
