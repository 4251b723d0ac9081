// A convolution whose input every device holds whole and whose output is
// wanted split: each device slices its piece and halos locally (no
// collective; the cost solver prices whole values at zero, and partition
// keeps it so).  An unannotated input instead arrives in the layout its
// users want, halos included (the signature says so).
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: mesh-run %t.mlir -f whole --compare-with %s --seed 1 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f unannotated --compare-with %s --seed 2 -q | FileCheck %s --check-prefix=SIM
// CHECK-LABEL: func.func @whole
// CHECK-NOT: mesh.update_halo
// CHECK-NOT: mesh.all_
// CHECK: tensor.insert_slice {{.*}} into tensor<1x7x7x3xf32>
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} outs(%{{.*}} : tensor<1x4x4x4xf32>)
// CHECK-LABEL: func.func @unannotated
// CHECK-SAME: tensor<1x7x7x3xf32> {mesh.sharding = #mesh.sharding<@m, {{\[\[}}], [0], [1]], halo_sizes = [1, 1, 1, 1]>}
// CHECK-NOT: mesh.update_halo
// SIM: match

mesh.mesh @m(shape = 2x2)

func.func @whole(%x: tensor<1x10x10x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32> {
  %r = mesh.sharding @m split_axes = [[]] : !mesh.sharding
  %s = mesh.sharding @m split_axes = [[], [0], [1]] : !mesh.sharding
  %xr = mesh.shard %x to %r : tensor<1x10x10x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %c = linalg.conv_2d_nhwc_hwcf ins(%xr, %w : tensor<1x10x10x3xf32>, tensor<3x3x3x4xf32>) outs(%z : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %cs = mesh.shard %c to %s : tensor<1x8x8x4xf32>
  return %cs : tensor<1x8x8x4xf32>
}

func.func @unannotated(%x: tensor<1x10x10x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32> {
  %s = mesh.sharding @m split_axes = [[], [0], [1]] : !mesh.sharding
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %c = linalg.conv_2d_nhwc_hwcf ins(%x, %w : tensor<1x10x10x3xf32>, tensor<3x3x3x4xf32>) outs(%z : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %cs = mesh.shard %c to %s : tensor<1x8x8x4xf32>
  return %cs : tensor<1x8x8x4xf32>
}
