// mesh-partition{full-arguments=true} keeps an argument split only over
// axes of one device as it came (its piece is the whole).  A gather from
// its rows split over such an axis still looks its rows up as a split table
// would, and needs the table's whole type: that argument's was never
// recorded, and partition stopped with an internal KeyError.
// RUN: mesh-opt --allow-unregistered-dialect --sharding-propagation --mesh-partition=full-arguments=true %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f one_device_axis -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f one_device_axis --seed 1 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f two_device_axis -q | FileCheck %s --check-prefix=SIM
// SIM: match

mesh.mesh @mesh(shape = 1x2)

// The table arrives whole and is read as it is: no slice, no collective
// before the gather, and the ids are shifted by the device's first row.
// CHECK-LABEL: func.func @one_device_axis(
// CHECK-SAME: %[[TABLE:.*]]: tensor<4x8xf32>, %{{.*}}: tensor<12x1xi32>)
// CHECK-NOT: mesh.all_slice
// CHECK: "stablehlo.gather"(%[[TABLE]],
func.func @one_device_axis(%t: tensor<4x8xf32>, %ids: tensor<12x1xi32>) -> tensor<12x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a = mesh.shard %t to %s annotate_for_users : tensor<4x8xf32>
  %v = "stablehlo.gather"(%a, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 8>}> : (tensor<4x8xf32>, tensor<12x1xi32>) -> tensor<12x8xf32>
  return %v : tensor<12x8xf32>
}

// The same over the axis of two devices: each device slices its two rows
// out of the whole table first.
// CHECK-LABEL: func.func @two_device_axis(
// CHECK: "stablehlo.gather"({{.*}}) {{.*}} : (tensor<2x8xf32>, tensor<12x1xi64>) -> tensor<12x8xf32>
func.func @two_device_axis(%t: tensor<4x8xf32>, %ids: tensor<12x1xi32>) -> tensor<12x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
  %a = mesh.shard %t to %s annotate_for_users : tensor<4x8xf32>
  %v = "stablehlo.gather"(%a, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 8>}> : (tensor<4x8xf32>, tensor<12x1xi32>) -> tensor<12x8xf32>
  return %v : tensor<12x8xf32>
}
