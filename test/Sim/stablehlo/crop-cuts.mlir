// Propagation may cut a size slices make (31 rows of 32 over the 4
// devices of a 2x2 mesh) where a
// slice keeps its rows in place (8, 8, 8, 7), but only where the whole
// plan then moves fewer bytes than with the default cut (7, 8, 8, 8).
// Here it does not: a loop carrying the slice keeps to even pieces, and a
// user's annotation cuts the size by default, so the slice takes its one
// row (an update_halo) and the rest stays split, as before the choice
// existed (it moved the loop's value and the user's argument instead).
// A take_along_axis whose picked rows (the vocabulary) are also split runs
// on the uneven batch and masks the rows it does not hold.
// RUN: mesh-opt --allow-unregistered-dialect --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f carried --compare-with %s --seed 1 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f beside_a_default_cut --compare-with %s --seed 2 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f vocab_split --compare-with %s --seed 3 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f vocab_split --compare-with %s --seed 4 -q | FileCheck %s --check-prefix=SIM
// SIM: match

mesh.mesh @mesh22(shape = 2x2)

// CHECK-LABEL: func.func @carried(
// CHECK-SAME:    -> (tensor<?x8xf32> {mesh.sharding = #mesh.sharding<@mesh22, {{\[\[}}0, 1]], sharded_dims_offsets = [0, 7, 15, 23, 31]>})
// CHECK:         mesh.update_halo %arg0 into %{{.*}} destination_halo_sizes = [1, 0] : tensor<8x8xf32> -> tensor<9x8xf32>
// CHECK-NOT:     mesh.all_to_all
// CHECK-NOT:     mesh.update_halo
// CHECK:         return
func.func @carried(%x: tensor<32x8xf32>) -> tensor<31x8xf32> {
  %s = mesh.sharding @mesh22 split_axes = [[0, 1]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<32x8xf32>
  %a = "stablehlo.slice"(%x0) <{start_indices = array<i64: 0, 0>, limit_indices = array<i64: 31, 8>, strides = array<i64: 1, 1>}> : (tensor<32x8xf32>) -> tensor<31x8xf32>
  %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %r:2 = "stablehlo.while"(%c0, %a) ({
  ^bb0(%i: tensor<i32>, %v: tensor<31x8xf32>):
    %n = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
    %lt = "stablehlo.compare"(%i, %n) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.return"(%lt) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>, %v: tensor<31x8xf32>):
    %t = "stablehlo.tanh"(%v) : (tensor<31x8xf32>) -> tensor<31x8xf32>
    %one = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %j = "stablehlo.add"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%j, %t) : (tensor<i32>, tensor<31x8xf32>) -> ()
  }) : (tensor<i32>, tensor<31x8xf32>) -> (tensor<i32>, tensor<31x8xf32>)
  %o = mesh.shard %r#1 to %s : tensor<31x8xf32>
  return %o : tensor<31x8xf32>
}

// CHECK-LABEL: func.func @beside_a_default_cut(
// CHECK:         mesh.update_halo %arg0 into %{{.*}} destination_halo_sizes = [1, 0] : tensor<8x16xf32> -> tensor<9x16xf32>
// CHECK-NOT:     mesh.all_to_all
// CHECK-NOT:     mesh.update_halo
// CHECK:         return
func.func @beside_a_default_cut(%x: tensor<32x16xf32>, %w: tensor<31x16xf32>) -> tensor<31x16xf32> {
  %s = mesh.sharding @mesh22 split_axes = [[0, 1]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<32x16xf32>
  %w0 = mesh.shard %w to %s : tensor<31x16xf32>
  %a = "stablehlo.slice"(%x0) <{start_indices = array<i64: 0, 0>, limit_indices = array<i64: 31, 16>, strides = array<i64: 1, 1>}> : (tensor<32x16xf32>) -> tensor<31x16xf32>
  %c = "stablehlo.add"(%a, %w0) : (tensor<31x16xf32>, tensor<31x16xf32>) -> tensor<31x16xf32>
  %r = mesh.shard %c to %s : tensor<31x16xf32>
  return %r : tensor<31x16xf32>
}

// CHECK-LABEL: func.func @vocab_split(
// CHECK:         mesh.update_halo %arg1 into %{{.*}} destination_halo_sizes = [0, 1] : tensor<4x16xi32> -> tensor<4x17xi32>
// CHECK:         "stablehlo.gather"({{.*}} : (tensor<4x?x8xf32>, tensor<4x?x1x1xi64>) -> tensor<4x?x1xf32>
// CHECK:         tensor.splat %{{.*}}[%{{.*}}] : tensor<4x?x1xf32>
// CHECK:         mesh.all_reduce %{{.*}} on @mesh22 mesh_axes = [1] : tensor<4x?x1xf32> -> tensor<4x?x1xf32>
// CHECK:         mesh.all_reduce %{{.*}} on @mesh22 mesh_axes = [0] : tensor<f32> -> tensor<f32>
func.func @vocab_split(%logits: tensor<4x32x16xf32>, %targets: tensor<4x32xi32>) -> tensor<f32> {
  %s = mesh.sharding @mesh22 split_axes = [[], [0], [1]] : !mesh.sharding
  %st = mesh.sharding @mesh22 split_axes = [[], [0]] : !mesh.sharding
  %r = mesh.sharding @mesh22 split_axes = [[]] : !mesh.sharding
  %l = mesh.shard %logits to %s : tensor<4x32x16xf32>
  %t = mesh.shard %targets to %st : tensor<4x32xi32>
  %head = "stablehlo.slice"(%l) <{start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 4, 31, 16>, strides = array<i64: 1, 1, 1>}> : (tensor<4x32x16xf32>) -> tensor<4x31x16xf32>
  %tail = "stablehlo.slice"(%t) <{start_indices = array<i64: 0, 1>, limit_indices = array<i64: 4, 32>, strides = array<i64: 1, 1>}> : (tensor<4x32xi32>) -> tensor<4x31xi32>
  %ids = "stablehlo.reshape"(%tail) : (tensor<4x31xi32>) -> tensor<4x31x1x1xi32>
  %picked = "stablehlo.gather"(%head, %ids) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [2], operand_batching_dims = [0, 1], start_indices_batching_dims = [0, 1], start_index_map = [2], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>}> : (tensor<4x31x16xf32>, tensor<4x31x1x1xi32>) -> tensor<4x31x1xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %sum = "stablehlo.reduce"(%picked, %zero) <{dimensions = array<i64: 0, 1, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%c) : (tensor<f32>) -> ()
  }) : (tensor<4x31x1xf32>, tensor<f32>) -> tensor<f32>
  %out = mesh.shard %sum to %r annotate_for_users : tensor<f32>
  return %out : tensor<f32>
}
