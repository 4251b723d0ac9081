// A sort or top_k along a split dimension: the rule keeps that dimension
// whole, and the mesh axes on it move to a dimension the op splits, with
// one all_to_all (each device receives (n-1)/n of its piece) instead of a
// gather of the sorted dimension (n-1 pieces), XLA's plan.  A result wanted
// in the operand's layout moves back with a second all_to_all.  Meshes 2x4,
// 4 and 2x2; on 3 devices the 7 rows do not divide and hlo ops run on even
// pieces only, so the sorted dimension is gathered there.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f sort_cols -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f sort_rows_out -q --seed 2 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f sort_both -q --seed 3 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f argsort -q --seed 4 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f top_k -q --seed 5 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f sort_3d -q --seed 6 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f uneven -q --seed 7 | FileCheck %s --check-prefix=SIM
// SIM: match

mesh.mesh @mesh(shape = 2x4)
mesh.mesh @m4(shape = 4)
mesh.mesh @m22(shape = 2x2)
mesh.mesh @m3(shape = 3)

// Columns over "model" (axis 1), sorted along them and returned so: the
// rows take the split for the sort (8x16 -> 2x64), then give it back.
// CHECK-LABEL: func.func @sort_cols(
// CHECK-NEXT: %[[A:.*]] = mesh.all_to_all %arg0 on @mesh mesh_axes = [1] split_axis = 0 concat_axis = 1 : tensor<8x16xf32> -> tensor<2x64xf32>
// CHECK-NEXT: %[[S:.*]] = "stablehlo.sort"(%[[A]])
// CHECK: }) : (tensor<2x64xf32>) -> tensor<2x64xf32>
// CHECK-NEXT: %[[B:.*]] = mesh.all_to_all %[[S]] on @mesh mesh_axes = [1] split_axis = 1 concat_axis = 0 : tensor<2x64xf32> -> tensor<8x16xf32>
// CHECK-NEXT: return %[[B]] : tensor<8x16xf32>
func.func @sort_cols(%arg0: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s : tensor<8x64xf32>
  %1 = "stablehlo.sort"(%0) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = "stablehlo.compare"(%a, %b) <{compare_type = #stablehlo<comparison_type TOTALORDER>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }) : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %2 = mesh.shard %1 to %s : tensor<8x64xf32>
  return %2 : tensor<8x64xf32>
}

// Returned split over the rows: one all_to_all in, none out.
// CHECK-LABEL: func.func @sort_rows_out(
// CHECK-NEXT: %[[A:.*]] = mesh.all_to_all %arg0 on @mesh mesh_axes = [1] split_axis = 0 concat_axis = 1 : tensor<8x16xf32> -> tensor<2x64xf32>
// CHECK-NEXT: %[[S:.*]] = "stablehlo.sort"(%[[A]])
// CHECK: }) : (tensor<2x64xf32>) -> tensor<2x64xf32>
// CHECK-NEXT: return %[[S]] : tensor<2x64xf32>
func.func @sort_rows_out(%arg0: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
  %r = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s : tensor<8x64xf32>
  %1 = "stablehlo.sort"(%0) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = "stablehlo.compare"(%a, %b) <{compare_type = #stablehlo<comparison_type TOTALORDER>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }) : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %2 = mesh.shard %1 to %r : tensor<8x64xf32>
  return %2 : tensor<8x64xf32>
}

// Rows over "data", columns over "model": "model" joins "data" on the rows
// as its inner axis (4x16 -> 1x64).
// CHECK-LABEL: func.func @sort_both(
// CHECK-NEXT: %[[A:.*]] = mesh.all_to_all %arg0 on @mesh mesh_axes = [1] split_axis = 0 concat_axis = 1 : tensor<4x16xf32> -> tensor<1x64xf32>
// CHECK-NEXT: %[[S:.*]] = "stablehlo.sort"(%[[A]])
// CHECK: }) : (tensor<1x64xf32>) -> tensor<1x64xf32>
// CHECK-NEXT: %[[B:.*]] = mesh.all_to_all %[[S]] on @mesh mesh_axes = [1] split_axis = 1 concat_axis = 0 : tensor<1x64xf32> -> tensor<4x16xf32>
// CHECK-NEXT: return %[[B]] : tensor<4x16xf32>
func.func @sort_both(%arg0: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %s = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s : tensor<8x64xf32>
  %1 = "stablehlo.sort"(%0) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = "stablehlo.compare"(%a, %b) <{compare_type = #stablehlo<comparison_type TOTALORDER>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }) : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %2 = mesh.shard %1 to %s : tensor<8x64xf32>
  return %2 : tensor<8x64xf32>
}

// argsort (`jnp.argsort`) along the rows, on a 1-D mesh: the iota is built
// whole, so its piece of the moved layout is a slice.
// CHECK-LABEL: func.func @argsort(
// CHECK: %[[A:.*]] = mesh.all_to_all %arg0 on @m4 mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<16x8xf32> -> tensor<64x2xf32>
// CHECK-NEXT: %[[S:.*]]:2 = "stablehlo.sort"(%[[A]], %{{.*}})
// CHECK: }) : (tensor<64x2xf32>, tensor<64x2xi32>) -> (tensor<64x2xf32>, tensor<64x2xi32>)
// CHECK-NEXT: %[[B:.*]] = mesh.all_to_all %[[S]]#1 on @m4 mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<64x2xi32> -> tensor<16x8xi32>
// CHECK-NEXT: return %[[B]] : tensor<16x8xi32>
func.func @argsort(%arg0: tensor<64x8xf32>) -> tensor<64x8xi32> {
  %s = mesh.sharding @m4 split_axes = [[0]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s : tensor<64x8xf32>
  %i = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<64x8xi32>
  %1:2 = "stablehlo.sort"(%0, %i) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %e = "stablehlo.compare"(%a, %b) <{compare_type = #stablehlo<comparison_type TOTALORDER>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%e) : (tensor<i1>) -> ()
  }) : (tensor<64x8xf32>, tensor<64x8xi32>) -> (tensor<64x8xf32>, tensor<64x8xi32>)
  %2 = mesh.shard %1#1 to %s : tensor<64x8xi32>
  return %2 : tensor<64x8xi32>
}

// lax.top_k over a vocabulary split 4 ways, values returned whole: the
// rows take the split, and only the k picks of each are gathered.
// CHECK-LABEL: func.func @top_k(
// CHECK-NEXT: %[[A:.*]] = mesh.all_to_all %arg0 on @m4 mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<8x16xf32> -> tensor<2x64xf32>
// CHECK-NEXT: %[[T:.*]]:2 = "chlo.top_k"(%[[A]]) <{k = 4 : i64}> : (tensor<2x64xf32>) -> (tensor<2x4xf32>, tensor<2x4xi32>)
// CHECK-NEXT: %[[B:.*]] = mesh.all_gather %[[T]]#0 on @m4 mesh_axes = [0] gather_axis = 0 : tensor<2x4xf32> -> tensor<8x4xf32>
// CHECK-NEXT: return %[[B]] : tensor<8x4xf32>
func.func @top_k(%arg0: tensor<8x64xf32>) -> tensor<8x4xf32> {
  %s = mesh.sharding @m4 split_axes = [[], [0]] : !mesh.sharding
  %w = mesh.sharding @m4 split_axes = [[]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s : tensor<8x64xf32>
  %1:2 = "chlo.top_k"(%0) <{k = 4 : i64}> : (tensor<8x64xf32>) -> (tensor<8x4xf32>, tensor<8x4xi32>)
  %2 = mesh.shard %1#0 to %w : tensor<8x4xf32>
  return %2 : tensor<8x4xf32>
}

// Three dimensions on a 2x2 mesh, the sorted last one over both axes: they
// move together to the first dimension (4x8x4 -> 1x8x16).
// CHECK-LABEL: func.func @sort_3d(
// CHECK-NEXT: %[[A:.*]] = mesh.all_to_all %arg0 on @m22 mesh_axes = [0, 1] split_axis = 0 concat_axis = 2 : tensor<4x8x4xf32> -> tensor<1x8x16xf32>
// CHECK-NEXT: %[[S:.*]] = "stablehlo.sort"(%[[A]])
// CHECK: }) : (tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
// CHECK-NEXT: %[[B:.*]] = mesh.all_to_all %[[S]] on @m22 mesh_axes = [0, 1] split_axis = 2 concat_axis = 0 : tensor<1x8x16xf32> -> tensor<4x8x4xf32>
// CHECK-NEXT: return %[[B]] : tensor<4x8x4xf32>
func.func @sort_3d(%arg0: tensor<4x8x16xf32>) -> tensor<4x8x16xf32> {
  %s = mesh.sharding @m22 split_axes = [[], [], [0, 1]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s : tensor<4x8x16xf32>
  %1 = "stablehlo.sort"(%0) <{dimension = 2 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = "stablehlo.compare"(%a, %b) <{compare_type = #stablehlo<comparison_type TOTALORDER>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }) : (tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %2 = mesh.shard %1 to %s : tensor<4x8x16xf32>
  return %2 : tensor<4x8x16xf32>
}

// 7 rows on 3 devices: no even piece to move to, the sorted columns are
// gathered.
// CHECK-LABEL: func.func @uneven(
// CHECK-NEXT: %[[A:.*]] = mesh.all_gather %arg0 on @m3 mesh_axes = [0] gather_axis = 1 : tensor<7x4xf32> -> tensor<7x12xf32>
// CHECK-NEXT: %[[S:.*]] = "stablehlo.sort"(%[[A]])
// CHECK: }) : (tensor<7x12xf32>) -> tensor<7x12xf32>
// CHECK-NEXT: %[[B:.*]] = mesh.all_slice %[[S]] on @m3 mesh_axes = [0] slice_axis = 1 : tensor<7x12xf32> -> tensor<7x4xf32>
func.func @uneven(%arg0: tensor<7x12xf32>) -> tensor<7x12xf32> {
  %s = mesh.sharding @m3 split_axes = [[], [0]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s : tensor<7x12xf32>
  %1 = "stablehlo.sort"(%0) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = "stablehlo.compare"(%a, %b) <{compare_type = #stablehlo<comparison_type TOTALORDER>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }) : (tensor<7x12xf32>) -> tensor<7x12xf32>
  %2 = mesh.shard %1 to %s : tensor<7x12xf32>
  return %2 : tensor<7x12xf32>
}
