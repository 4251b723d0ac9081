// embedding-vocab-uneven-2d: embedding exported by JAX 0.10.2 (Inputs/export.py); do not edit.
module {
  mesh.mesh @mesh(shape = 2x2)
  func.func public @main(%arg0: tensor<4x3xi32>, %arg1: tensor<15x8xf32>) -> tensor<4x3x8xf32> {
    %0 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %1 = mesh.shard %arg0 to %0 : tensor<4x3xi32>
    %2 = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
    %3 = mesh.shard %arg1 to %2 : tensor<15x8xf32>
    %4 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<4x3xi32>
    %6 = "stablehlo.compare"(%1, %5) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<4x3xi32>, tensor<4x3xi32>) -> tensor<4x3xi1>
    %7 = "stablehlo.constant"() <{value = dense<15> : tensor<i32>}> : () -> tensor<i32>
    %8 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<4x3xi32>
    %9 = "stablehlo.add"(%1, %8) : (tensor<4x3xi32>, tensor<4x3xi32>) -> tensor<4x3xi32>
    %10 = "stablehlo.select"(%6, %9, %1) : (tensor<4x3xi1>, tensor<4x3xi32>, tensor<4x3xi32>) -> tensor<4x3xi32>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<4x3xi32>) -> tensor<4x3x1xi32>
    %12 = "stablehlo.constant"() <{value = dense<14> : tensor<1xi32>}> : () -> tensor<1xi32>
    %13 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %14 = "stablehlo.broadcast_in_dim"(%13) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<4x3x1xi32>
    %15 = "stablehlo.compare"(%11, %14) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<4x3x1xi32>, tensor<4x3x1xi32>) -> tensor<4x3x1xi1>
    %16 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64: 2>}> : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %17 = "stablehlo.broadcast_in_dim"(%16) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x1xi32>) -> tensor<4x3x1xi32>
    %18 = "stablehlo.compare"(%11, %17) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<4x3x1xi32>, tensor<4x3x1xi32>) -> tensor<4x3x1xi1>
    %19 = "stablehlo.and"(%15, %18) : (tensor<4x3x1xi1>, tensor<4x3x1xi1>) -> tensor<4x3x1xi1>
    %20 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %21 = "stablehlo.reduce"(%19, %20) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg2: tensor<i1>, %arg3: tensor<i1>):
      %29 = "stablehlo.and"(%arg2, %arg3) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%29) : (tensor<i1>) -> ()
    }) : (tensor<4x3x1xi1>, tensor<i1>) -> tensor<4x3xi1>
    %22 = "stablehlo.gather"(%3, %11) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 8>}> : (tensor<15x8xf32>, tensor<4x3x1xi32>) -> tensor<4x3x8xf32>
    %23 = "stablehlo.broadcast_in_dim"(%21) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<4x3xi1>) -> tensor<4x3x8xi1>
    %24 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %25 = "stablehlo.broadcast_in_dim"(%24) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x3x8xf32>
    %26 = "stablehlo.select"(%23, %22, %25) : (tensor<4x3x8xi1>, tensor<4x3x8xf32>, tensor<4x3x8xf32>) -> tensor<4x3x8xf32>
    %27 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %28 = mesh.shard %26 to %27 : tensor<4x3x8xf32>
    return %28 : tensor<4x3x8xf32>
  }
}
