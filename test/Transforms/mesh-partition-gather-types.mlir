// The rows of a table split over them are looked up where they live only
// when each device can give a 0 for the ids it lacks (not for complex
// numbers) and shift ids in i64 (not wider ids): otherwise the table is
// gathered.  A complex table aborted the process; i128 ids failed the
// verifier.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s 2>/dev/null | FileCheck %s

mesh.mesh @mesh(shape = 4)

// CHECK-LABEL: func.func @complex_table(
// CHECK: mesh.all_gather
// CHECK-NOT: arith.select
// CHECK: "stablehlo.gather"
func.func @complex_table(%ids: tensor<5xi32>, %table: tensor<16x6xcomplex<f32>>) -> tensor<5x6xcomplex<f32>> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %t = mesh.shard %table to %rows annotate_for_users : tensor<16x6xcomplex<f32>>
  %g = "stablehlo.gather"(%t, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 6>}> : (tensor<16x6xcomplex<f32>>, tensor<5xi32>) -> tensor<5x6xcomplex<f32>>
  return %g : tensor<5x6xcomplex<f32>>
}

// CHECK-LABEL: func.func @wide_ids(
// CHECK: mesh.all_gather
// CHECK-NOT: arith.select
// CHECK: "stablehlo.gather"
func.func @wide_ids(%ids: tensor<5xi128>, %table: tensor<16x6xf32>) -> tensor<5x6xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %t = mesh.shard %table to %rows annotate_for_users : tensor<16x6xf32>
  %g = "stablehlo.gather"(%t, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 6>}> : (tensor<16x6xf32>, tensor<5xi128>) -> tensor<5x6xf32>
  return %g : tensor<5x6xf32>
}
