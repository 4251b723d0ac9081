// A gather from a table split along the rows its ids pick (partition alone,
// so every layout is the one written): each device clamps the ids as
// StableHLO does, looks up the ones whose row it holds at their local
// position and gives 0 for the others; the result is a partial sum.  Rows
// over both axes of the mesh, an integer table, ids with an implicit index
// vector dimension, and ids in range (an `and`) or mostly clamped (random).
// RUN: mesh-opt --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f two_axes -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f two_axes -q --seed 2 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f integers -q --seed 3 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f clamped -q --seed 4 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f xla_cut -q --seed 5 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f xla_cut -q --seed 6 | FileCheck %s --check-prefix=SIM
// SIM: match

mesh.mesh @mesh(shape = 2x2)

// CHECK-LABEL: func.func @two_axes(
// CHECK-SAME: %arg1: tensor<4x6xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0, 1]]>}
// CHECK: %[[S:.*]] = arith.select
// CHECK: mesh.all_reduce %[[S]] on @mesh mesh_axes = [0, 1] : tensor<5x6xf32>
func.func @two_axes(%ids: tensor<5xi32>, %table: tensor<16x6xf32>) -> tensor<5x6xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0, 1]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %sum = mesh.sharding @mesh split_axes = [[]] partial = sum [0, 1] : !mesh.sharding
  %t = mesh.shard %table to %rows annotate_for_users : tensor<16x6xf32>
  %m = "stablehlo.constant"() <{value = dense<15> : tensor<5xi32>}> : () -> tensor<5xi32>
  %k = "stablehlo.and"(%ids, %m) : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
  %g = "stablehlo.gather"(%t, %k) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 6>}> : (tensor<16x6xf32>, tensor<5xi32>) -> tensor<5x6xf32>
  %p = mesh.shard %g to %sum : tensor<5x6xf32>
  %r = mesh.shard %p to %whole annotate_for_users : tensor<5x6xf32>
  return %r : tensor<5x6xf32>
}

// CHECK-LABEL: func.func @integers(
// CHECK: arith.constant dense<0> : tensor<2x2x3xi32>
// CHECK: mesh.all_reduce {{.*}} mesh_axes = [1] : tensor<2x2x3xi32> -> tensor<2x2x3xi32>
func.func @integers(%ids: tensor<2x2x1xi32>, %table: tensor<8x3xi32>) -> tensor<2x2x3xi32> {
  %rows = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %sum = mesh.sharding @mesh split_axes = [[]] partial = sum [1] : !mesh.sharding
  %t = mesh.shard %table to %rows annotate_for_users : tensor<8x3xi32>
  %m = "stablehlo.constant"() <{value = dense<7> : tensor<2x2x1xi32>}> : () -> tensor<2x2x1xi32>
  %k = "stablehlo.and"(%ids, %m) : (tensor<2x2x1xi32>, tensor<2x2x1xi32>) -> tensor<2x2x1xi32>
  %g = "stablehlo.gather"(%t, %k) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 3>}> : (tensor<8x3xi32>, tensor<2x2x1xi32>) -> tensor<2x2x3xi32>
  %p = mesh.shard %g to %sum : tensor<2x2x3xi32>
  %r = mesh.shard %p to %whole annotate_for_users : tensor<2x2x3xi32>
  return %r : tensor<2x2x3xi32>
}

// Random i32 ids, almost all out of range: clamped to the first or last row
// before the device holding it is chosen.
// CHECK-LABEL: func.func @clamped(
// CHECK: arith.maxsi
// CHECK: arith.minsi
func.func @clamped(%ids: tensor<6x1xi32>, %table: tensor<8x2xf32>) -> tensor<6x2xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %sum = mesh.sharding @mesh split_axes = [[]] partial = sum [0] : !mesh.sharding
  %t = mesh.shard %table to %rows annotate_for_users : tensor<8x2xf32>
  %g = "stablehlo.gather"(%t, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2>}> : (tensor<8x2xf32>, tensor<6x1xi32>) -> tensor<6x2xf32>
  %p = mesh.shard %g to %sum : tensor<6x2xf32>
  %r = mesh.shard %p to %whole annotate_for_users : tensor<6x2xf32>
  return %r : tensor<6x2xf32>
}

// Rows cut as XLA cuts 15 over four devices (4, 4, 4, 3): each device's
// first row and row count are read from tables at its place on the mesh.
// CHECK-LABEL: func.func @xla_cut(
// CHECK-SAME: %arg1: tensor<?x5xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0, 1]], sharded_dims_offsets = [0, 4, 8, 12, 15]>}
// CHECK: arith.constant dense<[0, 4, 8, 12]> : tensor<4xindex>
// CHECK: arith.constant dense<[4, 4, 4, 3]> : tensor<4xindex>
// CHECK: "stablehlo.gather"(%arg1, {{.*}} : (tensor<?x5xf32>, tensor<7x1xi64>) -> tensor<7x5xf32>
// CHECK: mesh.all_reduce {{.*}} mesh_axes = [0, 1] : tensor<7x5xf32>
func.func @xla_cut(%ids: tensor<7x1xi32>, %table: tensor<15x5xf32>) -> tensor<7x5xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0, 1]] sharded_dims_offsets = [0, 4, 8, 12, 15] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %sum = mesh.sharding @mesh split_axes = [[]] partial = sum [0, 1] : !mesh.sharding
  %t = mesh.shard %table to %rows annotate_for_users : tensor<15x5xf32>
  %m = "stablehlo.constant"() <{value = dense<15> : tensor<7x1xi32>}> : () -> tensor<7x1xi32>
  %k = "stablehlo.and"(%ids, %m) : (tensor<7x1xi32>, tensor<7x1xi32>) -> tensor<7x1xi32>
  %g = "stablehlo.gather"(%t, %k) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 5>}> : (tensor<15x5xf32>, tensor<7x1xi32>) -> tensor<7x5xf32>
  %p = mesh.shard %g to %sum : tensor<7x5xf32>
  %r = mesh.shard %p to %whole annotate_for_users : tensor<7x5xf32>
  return %r : tensor<7x5xf32>
}
