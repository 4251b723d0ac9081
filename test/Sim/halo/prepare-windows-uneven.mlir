// Window ops over sizes their devices do not divide, cut as XLA cuts them
// (the offsets JAX programs carry: 10 rows over 4 devices as 3, 3, 3, 1):
// prepare-windows pads each one's input to equal pieces, so propagation
// keeps the dimension split and partition exchanges halos (a row each
// way) where the program as written moves the split to another dimension
// and back, or gathers the input.  Empty pieces (10 rows over 8 devices, 2
// a piece) and two dimensions cut unevenly at once pad alike.  Each
// partitioned program runs equal to the original.
// RUN: mesh-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(prepare-windows, sharding-propagation, mesh-partition, mesh-optimize-collectives)' %s -o %t.mlir
// RUN: mesh-run %t.mlir -f sum_pool --compare-with %s --seed 1 -q --rtol 0 --atol 0 --allow-unregistered-dialect | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f conv1d --compare-with %s --seed 2 -q --rtol 0 --atol 0 --allow-unregistered-dialect | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f causal_empty_pieces --compare-with %s --seed 3 -q --rtol 0 --atol 0 --allow-unregistered-dialect | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f max_pool_2d --compare-with %s --seed 4 -q --rtol 0 --atol 0 --allow-unregistered-dialect | FileCheck %s --check-prefix=SIM
// RUN: mesh-opt --allow-unregistered-dialect --mesh-analysis %t.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BYTES
// RUN: mesh-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(sharding-propagation, mesh-partition, mesh-optimize-collectives, mesh-analysis)' %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BEFORE
// SIM: match

// BYTES-LABEL: @sum_pool on @mesh
// BYTES:       max     update_halo 1           256
// BYTES-LABEL: @conv1d on @mesh
// BYTES:       max     update_halo 1           256
// BYTES-LABEL: @causal_empty_pieces on @line
// BYTES:       max     update_halo 1            32
// BYTES-LABEL: @max_pool_2d on @mesh
// BYTES:       max     update_halo 1            52
// BEFORE-LABEL: @sum_pool on @mesh
// BEFORE:       max     all_to_all 2            576
// BEFORE-LABEL: @conv1d on @mesh
// BEFORE:       max     all_gather 1         1,152
// BEFORE-LABEL: @causal_empty_pieces on @line
// BEFORE:       max     all_gather 1           224
// BEFORE-LABEL: @max_pool_2d on @mesh
// BEFORE:       max     all_gather 2            300

mesh.mesh @mesh(shape = 2x4)
mesh.mesh @line(shape = 8)

// A 3-row sum pool (same padding) of a sequence of 10 cut 3, 3, 3, 1 over
// the second axis, its batch over the first.
func.func @sum_pool(%x: tensor<4x10x16xf32>) -> tensor<4x10x16xf32> {
  %s = mesh.sharding @mesh split_axes = [[0], [1]] sharded_dims_offsets = [0, 2, 4, 0, 3, 6, 9, 10] : !mesh.sharding
  %a = mesh.shard %x to %s annotate_for_users : tensor<4x10x16xf32>
  %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %r = "stablehlo.reduce_window"(%a, %z) <{padding = dense<[[0, 0], [1, 1], [0, 0]]> : tensor<3x2xi64>, window_dimensions = array<i64: 1, 3, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %t = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%t) : (tensor<f32>) -> ()
  }) : (tensor<4x10x16xf32>, tensor<f32>) -> tensor<4x10x16xf32>
  %b = mesh.shard %r to %s : tensor<4x10x16xf32>
  return %b : tensor<4x10x16xf32>
}

// A 1-D convolution (kernel 3, same padding) of the same sequence.
func.func @conv1d(%x: tensor<4x10x16xf32>, %k: tensor<3x16x16xf32>) -> tensor<4x10x16xf32> {
  %s = mesh.sharding @mesh split_axes = [[0], [1]] sharded_dims_offsets = [0, 2, 4, 0, 3, 6, 9, 10] : !mesh.sharding
  %a = mesh.shard %x to %s annotate_for_users : tensor<4x10x16xf32>
  %y = "stablehlo.convolution"(%a, %k) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, padding = dense<1> : tensor<1x2xi64>}> : (tensor<4x10x16xf32>, tensor<3x16x16xf32>) -> tensor<4x10x16xf32>
  %b = mesh.shard %y to %s : tensor<4x10x16xf32>
  return %b : tensor<4x10x16xf32>
}

// A causal convolution (padding 2 before) of 10 rows over 8 devices, cut
// 2 rows a piece and three empty pieces: padded to 16.
func.func @causal_empty_pieces(%x: tensor<1x10x4xf32>, %k: tensor<3x4x4xf32>) -> tensor<1x10x4xf32> {
  %s = mesh.sharding @line split_axes = [[], [0]] sharded_dims_offsets = [0, 2, 4, 6, 8, 10, 10, 10, 10] : !mesh.sharding
  %a = mesh.shard %x to %s annotate_for_users : tensor<1x10x4xf32>
  %y = "stablehlo.convolution"(%a, %k) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, padding = dense<[[2, 0]]> : tensor<1x2xi64>}> : (tensor<1x10x4xf32>, tensor<3x4x4xf32>) -> tensor<1x10x4xf32>
  %b = mesh.shard %y to %s : tensor<1x10x4xf32>
  return %b : tensor<1x10x4xf32>
}

// A 3x3 max pool (same padding, init -inf) of an image whose rows (7) and
// columns (10) are both cut unevenly, over both axes.
func.func @max_pool_2d(%x: tensor<7x10xf32>) -> tensor<7x10xf32> {
  %s = mesh.sharding @mesh split_axes = [[0], [1]] sharded_dims_offsets = [0, 4, 7, 0, 3, 6, 9, 10] : !mesh.sharding
  %a = mesh.shard %x to %s annotate_for_users : tensor<7x10xf32>
  %z = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
  %r = "stablehlo.reduce_window"(%a, %z) <{padding = dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 3>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %t = "stablehlo.maximum"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%t) : (tensor<f32>) -> ()
  }) : (tensor<7x10xf32>, tensor<f32>) -> tensor<7x10xf32>
  %b = mesh.shard %r to %s : tensor<7x10xf32>
  return %b : tensor<7x10xf32>
}
