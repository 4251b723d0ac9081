// A 3-D convolution on a 2x2x2 mesh, each spatial dimension of its output
// split over one mesh axis: one mesh.update_halo brings faces, edges and
// corners of the seven neighbours at once.  The strided, dilated one
// (stride 2, dilation 2, window 3) splits depth over axes [0, 1] (4 pieces)
// and rows over axis 2, with integer elements (exact sums); a tosa.conv3d
// pads ("same") and splits all three spatial dimensions.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: mesh-run %t.mlir -f conv3d --compare-with %s --seed 1 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f strided --compare-with %s --seed 2 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f tosa3d --compare-with %s --seed 3 -q | FileCheck %s --check-prefix=SIM
// CHECK-LABEL: func.func @conv3d
// CHECK: mesh.update_halo {{.*}} split_axes = {{\[\[}}], [0], [1], [2]] destination_halo_sizes = [1, 1, 1, 1, 1, 1] : tensor<1x5x5x5x2xf32> -> tensor<1x7x7x7x2xf32>
// CHECK: linalg.conv_3d_ndhwc_dhwcf {{.*}} ins(%{{.*}}, %arg1 : tensor<1x6x6x6x2xf32>, tensor<3x3x3x2x3xf32>) outs(%{{.*}} : tensor<1x4x4x4x3xf32>)
// CHECK-LABEL: func.func @strided
// CHECK: mesh.update_halo {{.*}} split_axes = {{\[\[}}], [0, 1], [2]]
// CHECK: linalg.conv_3d_ndhwc_dhwcf {{.*}} outs(%{{.*}} : tensor<1x2x4x8x2xi32>)
// CHECK-LABEL: func.func @tosa3d
// CHECK: tosa.conv3d {{.*}} pad = array<i64: 0, 0, 0, 0, 0, 0>
// SIM: match

mesh.mesh @mesh(shape = 2x2x2)

func.func @conv3d(%x: tensor<1x10x10x10x2xf32>, %w: tensor<3x3x3x2x3xf32>) -> tensor<1x8x8x8x3xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [0], [1], [2]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<1x10x10x10x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x8x3xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x8x3xf32>) -> tensor<1x8x8x8x3xf32>
  %c = linalg.conv_3d_ndhwc_dhwcf {strides = dense<1> : tensor<3xi64>, dilations = dense<1> : tensor<3xi64>}
      ins(%xs, %w : tensor<1x10x10x10x2xf32>, tensor<3x3x3x2x3xf32>) outs(%z : tensor<1x8x8x8x3xf32>) -> tensor<1x8x8x8x3xf32>
  %cs = mesh.shard %c to %s : tensor<1x8x8x8x3xf32>
  return %cs : tensor<1x8x8x8x3xf32>
}

// depth: 8 outputs read up to 2*7 + 2*2 + 1 = 19 rows of 20; rows: 8 outputs of 20 rows
func.func @strided(%x: tensor<1x20x20x8x2xi32>, %w: tensor<3x3x1x2x2xi32>) -> tensor<1x8x8x8x2xi32> {
  %s = mesh.sharding @mesh split_axes = [[], [0, 1], [2]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<1x20x20x8x2xi32>
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x8x8x8x2xi32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<1x8x8x8x2xi32>) -> tensor<1x8x8x8x2xi32>
  %c = linalg.conv_3d_ndhwc_dhwcf {strides = dense<[2, 2, 1]> : tensor<3xi64>, dilations = dense<[2, 2, 1]> : tensor<3xi64>}
      ins(%xs, %w : tensor<1x20x20x8x2xi32>, tensor<3x3x1x2x2xi32>) outs(%z : tensor<1x8x8x8x2xi32>) -> tensor<1x8x8x8x2xi32>
  %cs = mesh.shard %c to %s : tensor<1x8x8x8x2xi32>
  return %cs : tensor<1x8x8x8x2xi32>
}

func.func @tosa3d(%x: tensor<1x4x4x4x2xf32>, %w: tensor<3x3x3x3x2xf32>, %b: tensor<3xf32>) -> tensor<1x4x4x4x3xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [0], [1], [2]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<1x4x4x4x2xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %c = tosa.conv3d %xs, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1, 1>, pad = array<i64: 1, 1, 1, 1, 1, 1>, stride = array<i64: 1, 1, 1>}
      : (tensor<1x4x4x4x2xf32>, tensor<3x3x3x3x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x4x3xf32>
  %cs = mesh.shard %c to %s : tensor<1x4x4x4x3xf32>
  return %cs : tensor<1x4x4x4x3xf32>
}
