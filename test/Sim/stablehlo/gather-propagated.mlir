// Gathers through sharding-propagation (both solvers) and partition, each
// simulated:
// - i8 ids into a table of 200 rows split over its rows: the ids are
//   clamped and shifted in i64 (in i8, 199 wrapped to -57 and a device's
//   first row 100 fitted, 256 would not: every id missed);
// - ui32 ids: arith cannot shift unsigned ids, so the rule offers no row
//   split and the table's split moves to its columns, whole rows for the
//   lookup (the solver had planned a split that partition refused);
// - a slice narrower than its dimension (4 of 6 columns) wanted split over
//   its columns: no operand dimension follows that result dimension, so it
//   is never split (partition wrote a gather of a wrong type);
// - a table cut by explicit offsets (3 and 5 rows): hlo ops run on even
//   pieces, so the gather keeps the default cut and the table is resharded
//   (the cut was passed on, and partition refused it).
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.cost.mlir 2>/dev/null
// RUN: mesh-opt --sharding-propagation=solver=sweep --mesh-partition %s -o %t.sweep.mlir 2>/dev/null
// RUN: FileCheck %s < %t.cost.mlir
// RUN: mesh-run %t.cost.mlir --compare-with %s -f narrow_ids -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.cost.mlir --compare-with %s -f narrow_ids -q --seed 2 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.sweep.mlir --compare-with %s -f narrow_ids -q --seed 3 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.cost.mlir --compare-with %s -f unsigned_ids -q --seed 4 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.sweep.mlir --compare-with %s -f unsigned_ids -q --seed 5 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.cost.mlir --compare-with %s -f narrow_slice -q --seed 6 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.sweep.mlir --compare-with %s -f narrow_slice -q --seed 7 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.cost.mlir --compare-with %s -f offsets -q --seed 8 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.sweep.mlir --compare-with %s -f offsets -q --seed 9 | FileCheck %s --check-prefix=SIM
// SIM: match

mesh.mesh @m2(shape = 2)
mesh.mesh @m4(shape = 4)


// CHECK-LABEL: func.func @narrow_ids(
// CHECK: arith.extsi %{{.*}} : tensor<6xi8> to tensor<6xi64>
// CHECK: arith.constant 199 : i64
func.func @narrow_ids(%ids: tensor<6xi8>, %table: tensor<200x16xf32>) -> tensor<6x16xf32> {
  %rows = mesh.sharding @m2 split_axes = [[0]] : !mesh.sharding
  %t = mesh.shard %table to %rows : tensor<200x16xf32>
  %g = "stablehlo.gather"(%t, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 16>}> : (tensor<200x16xf32>, tensor<6xi8>) -> tensor<6x16xf32>
  return %g : tensor<6x16xf32>
}

// CHECK-LABEL: func.func @unsigned_ids(
// CHECK-NEXT: %[[T:.*]] = mesh.all_to_all %arg1 on @m4 mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<16x16xf32> -> tensor<64x4xf32>
// CHECK-NEXT: "stablehlo.gather"(%[[T]], %arg0)
// CHECK-SAME: (tensor<64x4xf32>, tensor<2xui32>) -> tensor<2x4xf32>
func.func @unsigned_ids(%ids: tensor<2xui32>, %table: tensor<64x16xf32>) -> tensor<2x16xf32> {
  %rows = mesh.sharding @m4 split_axes = [[0]] : !mesh.sharding
  %t = mesh.shard %table to %rows : tensor<64x16xf32>
  %g = "stablehlo.gather"(%t, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 16>}> : (tensor<64x16xf32>, tensor<2xui32>) -> tensor<2x16xf32>
  return %g : tensor<2x16xf32>
}

// CHECK-LABEL: func.func @narrow_slice(
// CHECK: "stablehlo.gather"({{.*}}slice_sizes = array<i64: 1, 4>}> : (tensor<8x6xf32>, tensor<5xi32>) -> tensor<5x4xf32>
func.func @narrow_slice(%ids: tensor<5xi32>, %table: tensor<8x6xf32>) -> tensor<5x4xf32> {
  %g = "stablehlo.gather"(%table, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> : (tensor<8x6xf32>, tensor<5xi32>) -> tensor<5x4xf32>
  %cols = mesh.sharding @m2 split_axes = [[], [0]] : !mesh.sharding
  %r = mesh.shard %g to %cols : tensor<5x4xf32>
  return %r : tensor<5x4xf32>
}

// CHECK-LABEL: func.func @offsets(
// CHECK-NOT: sharded_dims_offsets = {{.*}} -> tensor
func.func @offsets(%ids: tensor<5xi32>, %table: tensor<8x6xf32>) -> tensor<5x6xf32> {
  %rows = mesh.sharding @m2 split_axes = [[0]] sharded_dims_offsets = [0, 3, 8] : !mesh.sharding
  %t = mesh.shard %table to %rows : tensor<8x6xf32>
  %g = "stablehlo.gather"(%t, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 6>}> : (tensor<8x6xf32>, tensor<5xi32>) -> tensor<5x6xf32>
  return %g : tensor<5x6xf32>
}
