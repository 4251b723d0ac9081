// Input of stencil-by-halo.mlir: its two stablehlo functions ending in a
// reduce as partition wrote them before hlo slices split their dimension
// (an all_to_all moving the split away, the slices, the reduce and the
// all_reduce of its partial sums), the pattern stencil-by-halo rewrites.
module {
  mesh.mesh @m4(shape = 4)
  mesh.mesh @m24(shape = 2x4)
  func.func @hlo_total_variation(%arg0: tensor<1x12x16xf32> {mesh.sharding = #mesh.sharding<@m24, [[0], [1]]>}) -> (tensor<f32> {mesh.sharding = #mesh.sharding<@m24, [[]]>}) {
    %0 = mesh.all_to_all %arg0 on @m24 mesh_axes = [1] split_axis = 2 concat_axis = 1 : tensor<1x12x16xf32> -> tensor<1x48x4xf32>
    %1 = "stablehlo.slice"(%0) <{limit_indices = array<i64: 1, 48, 4>, start_indices = array<i64: 0, 1, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<1x48x4xf32>) -> tensor<1x47x4xf32>
    %2 = "stablehlo.slice"(%0) <{limit_indices = array<i64: 1, 47, 4>, start_indices = array<i64: 0, 0, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<1x48x4xf32>) -> tensor<1x47x4xf32>
    %3 = "stablehlo.subtract"(%1, %2) : (tensor<1x47x4xf32>, tensor<1x47x4xf32>) -> tensor<1x47x4xf32>
    %4 = "stablehlo.abs"(%3) : (tensor<1x47x4xf32>) -> tensor<1x47x4xf32>
    %5 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %6 = "stablehlo.reduce"(%4, %5) <{dimensions = array<i64: 0, 1, 2>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %8 = "stablehlo.add"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%8) : (tensor<f32>) -> ()
    }) : (tensor<1x47x4xf32>, tensor<f32>) -> tensor<f32>
    %7 = mesh.all_reduce %6 on @m24 mesh_axes = [0, 1] : tensor<f32> -> tensor<f32>
    return %7 : tensor<f32>
  }
  func.func @hlo_shifted_product(%arg0: tensor<8x12xf32> {mesh.sharding = #mesh.sharding<@m4, [[], [0]]>}, %arg1: tensor<8x12xf32> {mesh.sharding = #mesh.sharding<@m4, [[], [0]]>}) -> (tensor<f32> {mesh.sharding = #mesh.sharding<@m4, [[]]>}) {
    %0 = mesh.all_to_all %arg0 on @m4 mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<8x12xf32> -> tensor<2x48xf32>
    %1 = "stablehlo.slice"(%0) <{limit_indices = array<i64: 2, 47>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<2x48xf32>) -> tensor<2x47xf32>
    %2 = mesh.all_to_all %arg1 on @m4 mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<8x12xf32> -> tensor<2x48xf32>
    %3 = "stablehlo.slice"(%2) <{limit_indices = array<i64: 2, 48>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<2x48xf32>) -> tensor<2x47xf32>
    %4 = "stablehlo.multiply"(%1, %3) : (tensor<2x47xf32>, tensor<2x47xf32>) -> tensor<2x47xf32>
    %5 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %6 = "stablehlo.reduce"(%4, %5) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %8 = "stablehlo.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%8) : (tensor<f32>) -> ()
    }) : (tensor<2x47xf32>, tensor<f32>) -> tensor<f32>
    %7 = mesh.all_reduce %6 on @m4 mesh_axes = [0] : tensor<f32> -> tensor<f32>
    return %7 : tensor<f32>
  }
}
