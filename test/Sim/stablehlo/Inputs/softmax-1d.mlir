// softmax-1d: softmax exported by JAX 0.10.2 (Inputs/export.py); do not edit.
module {
  mesh.mesh @mesh(shape = 2)
  func.func public @main(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %0 = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
    %1 = mesh.shard %arg0 to %0 : tensor<8x16xf32>
    %2 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.reduce"(%1, %2) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %18 = "stablehlo.maximum"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%18) : (tensor<f32>) -> ()
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
    %4 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %6 = "stablehlo.maximum"(%5, %3) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %8 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x16xf32>
    %9 = "stablehlo.subtract"(%1, %8) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %10 = "stablehlo.exponential"(%9) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %11 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %12 = "stablehlo.reduce"(%10, %11) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %18 = "stablehlo.add"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%18) : (tensor<f32>) -> ()
    }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
    %13 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %14 = "stablehlo.broadcast_in_dim"(%13) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x16xf32>
    %15 = "stablehlo.divide"(%10, %14) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %16 = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
    %17 = mesh.shard %15 to %16 : tensor<8x16xf32>
    return %17 : tensor<8x16xf32>
  }
}
