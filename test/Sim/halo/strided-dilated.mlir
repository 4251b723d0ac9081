// Windows with strides, dilations and a constant offset, split over a mesh
// of 4.  Output piece p (2 outputs) of a stride-2, dilation-3, window-3 read
// covers rows [4p, 4p + 9) of the 24 inputs, whose piece p is [6p, 6p + 6):
// the first device lacks 3 rows above its piece, the last 6 below it, so
// every device carries halos [6, 3] and cuts its 9 rows at offset 6 - 2p.
// The generic's `d0 + d1 + 1` reads one row past its window's start: the
// halos account for it and the local map drops the constant.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: mesh-run %t.mlir -f strided --compare-with %s --seed 1 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f conv1d --compare-with %s --seed 2 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f shifted --compare-with %s --seed 3 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f pooled --compare-with %s --seed 4 -q | FileCheck %s --check-prefix=SIM
// CHECK: #[[$PLAIN:.*]] = affine_map<(d0, d1) -> (d0 + d1)>
// CHECK-LABEL: func.func @strided
// CHECK: mesh.update_halo {{.*}} destination_halo_sizes = [6, 3] : tensor<6xf32> -> tensor<15xf32>
// CHECK: tensor.extract_slice {{.*}} [9] [1] : tensor<15xf32> to tensor<9xf32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %arg1 : tensor<9xf32>, tensor<3xf32>) outs(%{{.*}} : tensor<2xf32>)
// CHECK-LABEL: func.func @conv1d
// CHECK: linalg.conv_1d_nwc_wcf {{.*}} ins(%{{.*}}, %arg1 : tensor<1x9x2xf32>, tensor<3x2x3xf32>) outs(%{{.*}} : tensor<1x2x3xf32>)
// CHECK-LABEL: func.func @shifted
// CHECK: mesh.update_halo {{.*}} destination_halo_sizes = [2, 2] : tensor<5xf32> -> tensor<9xf32>
// CHECK: linalg.generic {indexing_maps = [#[[$PLAIN]], #{{.*}}, #{{.*}}]{{.*}} ins(%{{.*}}, %arg1 : tensor<6xf32>, tensor<3xf32>) outs(%{{.*}} : tensor<4xf32>)
// CHECK-LABEL: func.func @pooled
// CHECK: mesh.update_halo {{.*}} destination_halo_sizes = [3, 0]
// CHECK: linalg.pooling_nhwc_max {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x5x12x2xf32>, tensor<3x3xf32>) outs(%{{.*}} : tensor<1x2x10x2xf32>)
// SIM: match

#strided = affine_map<(i, k) -> (2 * i + 3 * k)>
#shifted = affine_map<(i, k) -> (i + k + 1)>
#w = affine_map<(i, k) -> (k)>
#out = affine_map<(i, k) -> (i)>
mesh.mesh @m(shape = 4)

func.func @strided(%x: tensor<24xf32>, %k: tensor<3xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<24xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#strided, #w, #out], iterator_types = ["parallel", "reduction"]}
      ins(%xs, %k : tensor<24xf32>, tensor<3xf32>) outs(%z : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %t = arith.addf %c, %m : f32
    linalg.yield %t : f32
  } -> tensor<8xf32>
  %rs = mesh.shard %r to %s : tensor<8xf32>
  return %rs : tensor<8xf32>
}

func.func @conv1d(%x: tensor<1x24x2xf32>, %w: tensor<3x2x3xf32>) -> tensor<1x8x3xf32> {
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<1x24x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x3xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x3xf32>) -> tensor<1x8x3xf32>
  %r = linalg.conv_1d_nwc_wcf {strides = dense<2> : tensor<1xi64>, dilations = dense<3> : tensor<1xi64>}
      ins(%xs, %w : tensor<1x24x2xf32>, tensor<3x2x3xf32>) outs(%z : tensor<1x8x3xf32>) -> tensor<1x8x3xf32>
  %rs = mesh.shard %r to %s : tensor<1x8x3xf32>
  return %rs : tensor<1x8x3xf32>
}

func.func @shifted(%x: tensor<20xf32>, %k: tensor<3xf32>) -> tensor<16xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<20xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %r = linalg.generic {indexing_maps = [#shifted, #w, #out], iterator_types = ["parallel", "reduction"]}
      ins(%xs, %k : tensor<20xf32>, tensor<3xf32>) outs(%z : tensor<16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %t = arith.addf %c, %m : f32
    linalg.yield %t : f32
  } -> tensor<16xf32>
  %rs = mesh.shard %r to %s : tensor<16xf32>
  return %rs : tensor<16xf32>
}

// max pooling, window 3x3, stride 2 on rows (split) and 1 on columns
func.func @pooled(%x: tensor<1x20x12x2xf32>) -> tensor<1x8x10x2xf32> {
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<1x20x12x2xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %low = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x8x10x2xf32>
  %z = linalg.fill ins(%low : f32) outs(%e : tensor<1x8x10x2xf32>) -> tensor<1x8x10x2xf32>
  %r = linalg.pooling_nhwc_max {strides = dense<[2, 1]> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%xs, %win : tensor<1x20x12x2xf32>, tensor<3x3xf32>) outs(%z : tensor<1x8x10x2xf32>) -> tensor<1x8x10x2xf32>
  %rs = mesh.shard %r to %s : tensor<1x8x10x2xf32>
  return %rs : tensor<1x8x10x2xf32>
}
