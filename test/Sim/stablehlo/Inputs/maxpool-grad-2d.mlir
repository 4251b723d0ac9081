// maxpool-grad-2d: maxpool_grad exported by JAX 0.10.2 (Inputs/export.py); do not edit.
module {
  mesh.mesh @mesh(shape = 2x2)
  func.func public @main(%arg0: tensor<4x8x8x4xf32>, %arg1: tensor<4x4x4x4xf32>) -> tensor<4x8x8x4xf32> {
    %0 = mesh.sharding @mesh split_axes = [[0], [], [], [1]] : !mesh.sharding
    %1 = mesh.shard %arg0 to %0 : tensor<4x8x8x4xf32>
    %2 = mesh.sharding @mesh split_axes = [[0], [], [], [1]] : !mesh.sharding
    %3 = mesh.shard %arg1 to %2 : tensor<4x4x4x4xf32>
    %4 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %5 = "stablehlo.pad"(%1, %4) <{edge_padding_high = array<i64: 0, 1, 1, 0>, edge_padding_low = array<i64: 0, 0, 0, 0>, interior_padding = array<i64: 0, 0, 0, 0>}> : (tensor<4x8x8x4xf32>, tensor<f32>) -> tensor<4x9x9x4xf32>
    %6 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %7 = "stablehlo.select_and_scatter"(%5, %3, %6) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %11 = "stablehlo.compare"(%arg2, %arg3) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "stablehlo.return"(%11) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %11 = "stablehlo.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%11) : (tensor<f32>) -> ()
    }) : (tensor<4x9x9x4xf32>, tensor<4x4x4x4xf32>, tensor<f32>) -> tensor<4x9x9x4xf32>
    %8 = "stablehlo.slice"(%7) <{limit_indices = array<i64: 4, 8, 8, 4>, start_indices = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1, 1, 1>}> : (tensor<4x9x9x4xf32>) -> tensor<4x8x8x4xf32>
    %9 = mesh.sharding @mesh split_axes = [[0], [], [], [1]] : !mesh.sharding
    %10 = mesh.shard %8 to %9 : tensor<4x8x8x4xf32>
    return %10 : tensor<4x8x8x4xf32>
  }
}
