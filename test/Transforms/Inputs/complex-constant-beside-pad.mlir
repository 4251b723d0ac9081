module {
  mesh.mesh @m4(shape = 4)
  func.func @pad_rows(%arg0: tensor<10x8xi32> {mesh.sharding = #mesh.sharding<@m4, [[0]]>}, %arg1: tensor<i32> {mesh.sharding = #mesh.sharding<@m4, [[]]>}) -> (tensor<12x8xi32> {mesh.sharding = #mesh.sharding<@m4, [[0]]>}) {
    %0 = mesh.all_to_all %arg0 on @m4 mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<10x8xi32> -> tensor<40x2xi32>
    %1 = "mhlo.pad"(%0, %arg1) {edge_padding_high = dense<0> : tensor<2xi32>, edge_padding_low = dense<[8, 0]> : tensor<2xi32>, interior_padding = dense<0> : tensor<2xi32>} : (tensor<40x2xi32>, tensor<i32>) -> tensor<48x2xi32>
    %2 = mesh.all_to_all %1 on @m4 mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<48x2xi32> -> tensor<12x8xi32>
    return %2 : tensor<12x8xi32>
  }
  func.func @complex_constant() -> tensor<2xcomplex<f32>> {
    %t = arith.constant dense<(5.000000e-01,2.000000e+00)> : tensor<2xcomplex<f32>>
    return %t : tensor<2xcomplex<f32>>
  }
}
