// stablehlo ops are not verified here (the dialect is not registered), so a
// slice may claim to drop a dimension it keeps.  stencil-by-halo leaves such
// a chain alone instead of ending in an internal error (an IndexError in its
// reading of the reduce).  Found by the fuzzer on a mutated partitioned program.
// RUN: mesh-opt --allow-unregistered-dialect --mesh-optimize-collectives %s | FileCheck %s

// CHECK-LABEL: func.func @rank_dropping_slice
// CHECK-COUNT-2: mesh.all_to_all
// CHECK-NOT:     mesh.update_halo
mesh.mesh @m(shape = 4)
func.func @rank_dropping_slice(%a: tensor<8x12xf32>, %b: tensor<8x12xf32>) -> tensor<f32> {
  %ga = mesh.all_to_all %a on @m mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<8x12xf32> -> tensor<2x48xf32>
  %sa = "stablehlo.slice"(%ga) <{start_indices = array<i64: 0, 0>, limit_indices = array<i64: 2, 47>, strides = array<i64: 1, 1>}> : (tensor<2x48xf32>) -> tensor<47xf32>
  %gb = mesh.all_to_all %b on @m mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<8x12xf32> -> tensor<2x48xf32>
  %sb = "stablehlo.slice"(%gb) <{start_indices = array<i64: 0, 1>, limit_indices = array<i64: 2, 48>, strides = array<i64: 1, 1>}> : (tensor<2x48xf32>) -> tensor<47xf32>
  %p = "stablehlo.multiply"(%sa, %sb) : (tensor<47xf32>, tensor<47xf32>) -> tensor<47xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %r = "stablehlo.reduce"(%p, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<47xf32>, tensor<f32>) -> tensor<f32>
  %t = mesh.all_reduce %r on @m mesh_axes = [0] : tensor<f32> -> tensor<f32>
  return %t : tensor<f32>
}
