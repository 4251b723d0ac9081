// Input of pad-by-shift.mlir: its four tensor.pad functions and three hlo
// pads as partition wrote them before pads split their padded dimensions
// (a collective moving the split away, the pad, one moving it back), the
// pattern mesh-optimize-collectives' pad-by-shift rewrites.
module {
  mesh.mesh @m4(shape = 4)
  mesh.mesh @m24(shape = 2x4)
  func.func @rows_high16(%arg0: tensor<2x12x16xf32> {mesh.sharding = #mesh.sharding<@m24, [[0], [1]]>}) -> (tensor<2x16x16xf32> {mesh.sharding = #mesh.sharding<@m24, [[0], [1]]>}) {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = mesh.all_to_all %arg0 on @m24 mesh_axes = [1] split_axis = 2 concat_axis = 1 : tensor<2x12x16xf32> -> tensor<2x48x4xf32>
    %padded = tensor.pad %0 low[0, 0, 0] high[0, 16, 0] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index):
      tensor.yield %cst : f32
    } : tensor<2x48x4xf32> to tensor<2x64x4xf32>
    %1 = mesh.all_to_all %padded on @m24 mesh_axes = [1] split_axis = 1 concat_axis = 2 : tensor<2x64x4xf32> -> tensor<2x16x16xf32>
    return %1 : tensor<2x16x16xf32>
  }
  func.func @both_sides_1d(%arg0: tensor<10xf32> {mesh.sharding = #mesh.sharding<@m4, [[0]]>}) -> (tensor<12xf32> {mesh.sharding = #mesh.sharding<@m4, [[0]]>}) {
    %cst = arith.constant 2.500000e+00 : f32
    %0 = mesh.all_gather %arg0 on @m4 mesh_axes = [0] gather_axis = 0 : tensor<10xf32> -> tensor<40xf32>
    %padded = tensor.pad %0 low[3] high[5] {
    ^bb0(%arg1: index):
      tensor.yield %cst : f32
    } : tensor<40xf32> to tensor<48xf32>
    %1 = mesh.all_slice %padded on @m4 mesh_axes = [0] slice_axis = 0 : tensor<48xf32> -> tensor<12xf32>
    return %1 : tensor<12xf32>
  }
  func.func @cols_low16_i32(%arg0: tensor<8x16xi32> {mesh.sharding = #mesh.sharding<@m4, [[], [0]]>}) -> (tensor<8x20xi32> {mesh.sharding = #mesh.sharding<@m4, [[], [0]]>}) {
    %0 = mesh.all_to_all %arg0 on @m4 mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<8x16xi32> -> tensor<2x64xi32>
    %padded = tensor.pad %0 low[0, 16] high[0, 0] {
    ^bb0(%arg1: index, %arg2: index):
      %c7_i32 = arith.constant 7 : i32
      tensor.yield %c7_i32 : i32
    } : tensor<2x64xi32> to tensor<2x80xi32>
    %1 = mesh.all_to_all %padded on @m4 mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<2x80xi32> -> tensor<8x20xi32>
    return %1 : tensor<8x20xi32>
  }
  func.func @two_dims(%arg0: tensor<8x16xf32> {mesh.sharding = #mesh.sharding<@m4, [[], [0]]>}) -> (tensor<10x20xf32> {mesh.sharding = #mesh.sharding<@m4, [[], [0]]>}) {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = mesh.all_gather %arg0 on @m4 mesh_axes = [0] gather_axis = 1 : tensor<8x16xf32> -> tensor<8x64xf32>
    %padded = tensor.pad %0 low[1, 16] high[1, 0] {
    ^bb0(%arg1: index, %arg2: index):
      tensor.yield %cst : f32
    } : tensor<8x64xf32> to tensor<10x80xf32>
    %1 = mesh.all_slice %padded on @m4 mesh_axes = [0] slice_axis = 1 : tensor<10x80xf32> -> tensor<10x20xf32>
    return %1 : tensor<10x20xf32>
  }
  func.func @hlo_rows_high16(%arg0: tensor<2x12x16xf32> {mesh.sharding = #mesh.sharding<@m24, [[0], [1]]>}) -> (tensor<2x16x16xf32> {mesh.sharding = #mesh.sharding<@m24, [[0], [1]]>}) {
    %0 = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
    %1 = "stablehlo.convert"(%0) : (tensor<i32>) -> tensor<f32>
    %2 = mesh.all_to_all %arg0 on @m24 mesh_axes = [1] split_axis = 2 concat_axis = 1 : tensor<2x12x16xf32> -> tensor<2x48x4xf32>
    %3 = "stablehlo.pad"(%2, %1) <{edge_padding_high = array<i64: 0, 16, 0>, edge_padding_low = array<i64: 0, 0, 0>, interior_padding = array<i64: 0, 0, 0>}> : (tensor<2x48x4xf32>, tensor<f32>) -> tensor<2x64x4xf32>
    %4 = mesh.all_to_all %3 on @m24 mesh_axes = [1] split_axis = 1 concat_axis = 2 : tensor<2x64x4xf32> -> tensor<2x16x16xf32>
    return %4 : tensor<2x16x16xf32>
  }
  func.func @mhlo_low8_i32(%arg0: tensor<10x8xi32> {mesh.sharding = #mesh.sharding<@m4, [[0]]>}, %arg1: tensor<i32> {mesh.sharding = #mesh.sharding<@m4, [[]]>}) -> (tensor<12x8xi32> {mesh.sharding = #mesh.sharding<@m4, [[0]]>}) {
    %0 = mesh.all_to_all %arg0 on @m4 mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<10x8xi32> -> tensor<40x2xi32>
    %1 = "mhlo.pad"(%0, %arg1) {edge_padding_high = dense<0> : tensor<2xi32>, edge_padding_low = dense<[8, 0]> : tensor<2xi32>, interior_padding = dense<0> : tensor<2xi32>} : (tensor<40x2xi32>, tensor<i32>) -> tensor<48x2xi32>
    %2 = mesh.all_to_all %1 on @m4 mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<48x2xi32> -> tensor<12x8xi32>
    return %2 : tensor<12x8xi32>
  }
  func.func @mhlo_dearer(%arg0: tensor<10x8xi32> {mesh.sharding = #mesh.sharding<@m4, [[0]]>}, %arg1: tensor<i32> {mesh.sharding = #mesh.sharding<@m4, [[]]>}) -> (tensor<12x8xi32> {mesh.sharding = #mesh.sharding<@m4, [[0]]>}) {
    %0 = mesh.all_to_all %arg0 on @m4 mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<10x8xi32> -> tensor<40x2xi32>
    %1 = "mhlo.pad"(%0, %arg1) {edge_padding_high = dense<[3, 0]> : tensor<2xi32>, edge_padding_low = dense<[5, 0]> : tensor<2xi32>, interior_padding = dense<0> : tensor<2xi32>} : (tensor<40x2xi32>, tensor<i32>) -> tensor<48x2xi32>
    %2 = mesh.all_to_all %1 on @m4 mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<48x2xi32> -> tensor<12x8xi32>
    return %2 : tensor<12x8xi32>
  }
}
