// jax.ops.segment_max, segment_min and segment_prod scatter with a max, min
// or multiply into that combiner's identity (the lowest value, the highest,
// 1).  As for a scatter-add into zeros, each device scatters its own rows of
// the updates and the ids into the identity, and one all_reduce of the
// combiner's kind joins the pieces; before, the ids were gathered and the
// updates moved by an all_to_all (144 bytes a device here, now 96; JAX's
// segment_prod of 16x4 on the 2x4 mesh: 144, now 80, XLA 96).  Into another
// value the rows still move.
// RUN: mesh-opt --allow-unregistered-dialect --sharding-propagation --mesh-partition --mesh-optimize-collectives %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f segment_max -q --seed 1 --rtol 0 --atol 0 --allow-unregistered-dialect | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f segment_max -q --seed 2 --rtol 0 --atol 0 --allow-unregistered-dialect | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f segment_min_i32 -q --seed 3 --rtol 0 --atol 0 --allow-unregistered-dialect | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f segment_prod_i32 -q --seed 4 --rtol 0 --atol 0 --allow-unregistered-dialect | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f segment_min_ui64 -q --seed 6 --rtol 0 --atol 0 --allow-unregistered-dialect | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f max_into_zeros -q --seed 5 --rtol 0 --atol 0 --allow-unregistered-dialect | FileCheck %s --check-prefix=SIM
// RUN: mesh-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(mesh-analysis)' %t.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BYTES
// SIM: match

mesh.mesh @mesh(shape = 4)

// CHECK-LABEL: func.func @segment_max(
// CHECK-SAME: %arg0: tensor<4x4xf32>{{.*}}, %arg1: tensor<4xi32>
// CHECK-NOT: mesh.all_gather
// CHECK-NOT: mesh.all_to_all
// CHECK: "stablehlo.scatter"(
// CHECK: }) : (tensor<4x4xf32>, tensor<4x1xi32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0] reduction = <max> : tensor<4x4xf32>
// BYTES-LABEL: @segment_max
// BYTES: max {{.*}} 96
func.func @segment_max(%x: tensor<16x4xf32>, %ids: tensor<16xi32>) -> tensor<4x4xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<16x4xf32>
  %is = mesh.shard %ids to %rows : tensor<16xi32>
  %low = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
  %init = "stablehlo.broadcast_in_dim"(%low) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4xf32>
  %i2 = "stablehlo.broadcast_in_dim"(%is) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xi32>) -> tensor<16x1xi32>
  %r = "stablehlo.scatter"(%init, %i2, %xs) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%m) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<16x1xi32>, tensor<16x4xf32>) -> tensor<4x4xf32>
  %o = mesh.shard %r to %whole : tensor<4x4xf32>
  return %o : tensor<4x4xf32>
}

// CHECK-LABEL: func.func @segment_min_i32(
// CHECK-NOT: mesh.all_gather
// CHECK: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0] reduction = <min> : tensor<4x4xi32>
func.func @segment_min_i32(%x: tensor<16x4xi32>, %ids: tensor<16xi32>) -> tensor<4x4xi32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<16x4xi32>
  %is = mesh.shard %ids to %rows : tensor<16xi32>
  %high = "stablehlo.constant"() <{value = dense<2147483647> : tensor<i32>}> : () -> tensor<i32>
  %init = "stablehlo.broadcast_in_dim"(%high) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<4x4xi32>
  %i2 = "stablehlo.broadcast_in_dim"(%is) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xi32>) -> tensor<16x1xi32>
  %r = "stablehlo.scatter"(%init, %i2, %xs) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %m = "stablehlo.minimum"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%m) : (tensor<i32>) -> ()
  }) : (tensor<4x4xi32>, tensor<16x1xi32>, tensor<16x4xi32>) -> tensor<4x4xi32>
  %o = mesh.shard %r to %whole : tensor<4x4xi32>
  return %o : tensor<4x4xi32>
}

// Integers: their product wraps alike in any order.
// CHECK-LABEL: func.func @segment_prod_i32(
// CHECK-NOT: mesh.all_gather
// CHECK: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0] reduction = <product> : tensor<4x4xi32>
func.func @segment_prod_i32(%x: tensor<16x4xi32>, %ids: tensor<16xi32>) -> tensor<4x4xi32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<16x4xi32>
  %is = mesh.shard %ids to %rows : tensor<16xi32>
  %one = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
  %init = "stablehlo.broadcast_in_dim"(%one) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<4x4xi32>
  %i2 = "stablehlo.broadcast_in_dim"(%is) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xi32>) -> tensor<16x1xi32>
  %r = "stablehlo.scatter"(%init, %i2, %xs) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %m = "stablehlo.multiply"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%m) : (tensor<i32>) -> ()
  }) : (tensor<4x4xi32>, tensor<16x1xi32>, tensor<16x4xi32>) -> tensor<4x4xi32>
  %o = mesh.shard %r to %whole : tensor<4x4xi32>
  return %o : tensor<4x4xi32>
}

// A max into zeros: a device holding no row of a segment would give 0, not
// the max of the others' rows (which may all be negative): the rows move.
// CHECK-LABEL: func.func @max_into_zeros(
// CHECK-NOT: reduction = <max>
// CHECK: return
func.func @max_into_zeros(%x: tensor<16x4xf32>, %ids: tensor<16xi32>) -> tensor<4x4xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<16x4xf32>
  %is = mesh.shard %ids to %rows : tensor<16xi32>
  %zero = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %init = "stablehlo.broadcast_in_dim"(%zero) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4xf32>
  %i2 = "stablehlo.broadcast_in_dim"(%is) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xi32>) -> tensor<16x1xi32>
  %r = "stablehlo.scatter"(%init, %i2, %xs) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%m) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<16x1xi32>, tensor<16x4xf32>) -> tensor<4x4xf32>
  %o = mesh.shard %r to %whole : tensor<4x4xf32>
  return %o : tensor<4x4xf32>
}

// The highest ui64 (all ones): the bindings read the splat as -1, which
// was no identity to the rule and crashed the simulator (helper-195).
// CHECK-LABEL: func.func @segment_min_ui64(
// CHECK-NOT: mesh.all_gather
// CHECK: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0] reduction = <min> : tensor<4x4xui64>
func.func @segment_min_ui64(%x: tensor<16x4xui64>, %ids: tensor<16xi32>) -> tensor<4x4xui64> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<16x4xui64>
  %is = mesh.shard %ids to %rows : tensor<16xi32>
  %high = "stablehlo.constant"() <{value = dense<18446744073709551615> : tensor<ui64>}> : () -> tensor<ui64>
  %init = "stablehlo.broadcast_in_dim"(%high) <{broadcast_dimensions = array<i64>}> : (tensor<ui64>) -> tensor<4x4xui64>
  %i2 = "stablehlo.broadcast_in_dim"(%is) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xi32>) -> tensor<16x1xi32>
  %r = "stablehlo.scatter"(%init, %i2, %xs) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<ui64>, %b: tensor<ui64>):
    %m = "stablehlo.minimum"(%a, %b) : (tensor<ui64>, tensor<ui64>) -> tensor<ui64>
    "stablehlo.return"(%m) : (tensor<ui64>) -> ()
  }) : (tensor<4x4xui64>, tensor<16x1xi32>, tensor<16x4xui64>) -> tensor<4x4xui64>
  %o = mesh.shard %r to %whole : tensor<4x4xui64>
  return %o : tensor<4x4xui64>
}
