// reshapes-2d: reshapes exported by JAX 0.10.2 (Inputs/export.py); do not edit.
module {
  mesh.mesh @mesh(shape = 2x2)
  func.func public @main(%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32>) -> tensor<26x2x2xf32> {
    %0 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %1 = mesh.shard %arg0 to %0 : tensor<8x16xf32>
    %2 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %3 = mesh.shard %arg1 to %2 : tensor<8x16xf32>
    %4 = "stablehlo.concatenate"(%1, %3) <{dimension = 1 : i64}> : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x32xf32>
    %5 = "stablehlo.slice"(%4) <{limit_indices = array<i64: 8, 28>, start_indices = array<i64: 0, 4>, strides = array<i64: 1, 1>}> : (tensor<8x32xf32>) -> tensor<8x24xf32>
    %6 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %7 = "stablehlo.convert"(%6) : (tensor<i32>) -> tensor<f32>
    %8 = "stablehlo.pad"(%5, %7) <{edge_padding_high = array<i64: 0, 1>, edge_padding_low = array<i64: 0, 1>, interior_padding = array<i64: 0, 0>}> : (tensor<8x24xf32>, tensor<f32>) -> tensor<8x26xf32>
    %9 = "stablehlo.transpose"(%8) <{permutation = array<i64: 1, 0>}> : (tensor<8x26xf32>) -> tensor<26x8xf32>
    %10 = "stablehlo.reshape"(%9) : (tensor<26x8xf32>) -> tensor<26x2x4xf32>
    %11 = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
    %12 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %13 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %14 = "stablehlo.dynamic_slice"(%10, %11, %12, %13) <{slice_sizes = array<i64: 26, 2, 2>}> : (tensor<26x2x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<26x2x2xf32>
    %15 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %16 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<26x2x2xf32>
    %17 = "stablehlo.multiply"(%14, %16) : (tensor<26x2x2xf32>, tensor<26x2x2xf32>) -> tensor<26x2x2xf32>
    %18 = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
    %19 = mesh.shard %17 to %18 : tensor<26x2x2xf32>
    return %19 : tensor<26x2x2xf32>
  }
}
