// Pooling with split outputs: tosa.max_pool2d pads with a value that never
// wins, so the edge devices fill the rows outside the input with the lowest
// value; tosa.avg_pool2d without padding splits both spatial dimensions on a
// 2x2 mesh (window 4, stride 2, 10 rows: one row and column of halo on each
// side, a slice at a per-device offset); an
// avg_pool2d that pads a dimension divides by the cells inside the input, so
// that dimension is never split (its loop is invalid): one all_to_all
// moves the rows' split to the columns, which split over both axes (no
// halo: stride 2, window 2), and another moves it back.
// linalg.pooling_nhwc_sum over rows.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: mesh-run %t.mlir -f max_pool --compare-with %s --seed 1 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f avg_pool --compare-with %s --seed 2 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f avg_pool_padded --compare-with %s --seed 3 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f sum_pool --compare-with %s --seed 4 -q | FileCheck %s --check-prefix=SIM
// CHECK-LABEL: func.func @max_pool
// CHECK: mesh.update_halo {{.*}} destination_halo_sizes = [1, 1]
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: tosa.max_pool2d {{.*}} pad = array<i64: 0, 0, 1, 1>{{.*}} -> tensor<1x2x8x2xf32>
// CHECK-LABEL: func.func @avg_pool
// CHECK: mesh.update_halo {{.*}} split_axes = {{\[\[}}], [0], [1]] destination_halo_sizes = [1, 1, 1, 1] : tensor<1x5x5x2xf32> -> tensor<1x7x7x2xf32>
// CHECK: tosa.avg_pool2d {{.*}} : (tensor<1x6x6x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x2xf32>
// CHECK-LABEL: func.func @avg_pool_padded
// CHECK-NOT: mesh.update_halo
// CHECK: mesh.all_to_all %arg0 on @mesh2 mesh_axes = [0] split_axis = 2 concat_axis = 1 : tensor<1x4x4x2xf32> -> tensor<1x8x2x2xf32>
// CHECK-NEXT: tosa.avg_pool2d {{.*}} : (tensor<1x8x2x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x1x2xf32>
// CHECK-NEXT: mesh.all_to_all %{{.*}} on @mesh2 mesh_axes = [0] split_axis = 1 concat_axis = 2 : tensor<1x8x1x2xf32> -> tensor<1x4x2x2xf32>
// CHECK-LABEL: func.func @sum_pool
// CHECK: mesh.update_halo {{.*}} destination_halo_sizes = [1, 1] : tensor<1x9x4x2xf32> -> tensor<1x11x4x2xf32>
// CHECK: linalg.pooling_nhwc_sum {{.*}} : tensor<1x10x4x2xf32>, tensor<3x3xf32>) outs(%{{.*}} : tensor<1x8x2x2xf32>)
// SIM: match

mesh.mesh @mesh(shape = 4)
mesh.mesh @mesh2(shape = 2x2)

func.func @max_pool(%x: tensor<1x8x8x2xf32>) -> tensor<1x8x8x2xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<1x8x8x2xf32>
  %p = tosa.max_pool2d %xs {kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : (tensor<1x8x8x2xf32>) -> tensor<1x8x8x2xf32>
  %ps = mesh.shard %p to %s : tensor<1x8x8x2xf32>
  return %ps : tensor<1x8x8x2xf32>
}

func.func @avg_pool(%x: tensor<1x10x10x2xf32>) -> tensor<1x4x4x2xf32> {
  %s = mesh.sharding @mesh2 split_axes = [[], [0], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<1x10x10x2xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %p = tosa.avg_pool2d %xs, %zp, %zp {acc_type = f32, kernel = array<i64: 4, 4>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>}
      : (tensor<1x10x10x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
  %ps = mesh.shard %p to %s : tensor<1x4x4x2xf32>
  return %ps : tensor<1x4x4x2xf32>
}

func.func @avg_pool_padded(%x: tensor<1x8x8x2xf32>) -> tensor<1x8x4x2xf32> {
  %s = mesh.sharding @mesh2 split_axes = [[], [0], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<1x8x8x2xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %p = tosa.avg_pool2d %xs, %zp, %zp {acc_type = f32, kernel = array<i64: 3, 2>, pad = array<i64: 1, 1, 0, 0>, stride = array<i64: 1, 2>}
      : (tensor<1x8x8x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x4x2xf32>
  %ps = mesh.shard %p to %s : tensor<1x8x4x2xf32>
  return %ps : tensor<1x8x4x2xf32>
}

func.func @sum_pool(%x: tensor<1x18x4x2xf32>) -> tensor<1x16x2x2xf32> {
  %s = mesh.sharding @mesh2 split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<1x18x4x2xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x2x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x2x2xf32>) -> tensor<1x16x2x2xf32>
  %r = linalg.pooling_nhwc_sum {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%xs, %win : tensor<1x18x4x2xf32>, tensor<3x3xf32>) outs(%z : tensor<1x16x2x2xf32>) -> tensor<1x16x2x2xf32>
  %rs = mesh.shard %r to %s : tensor<1x16x2x2xf32>
  return %rs : tensor<1x16x2x2xf32>
}
