// A size smaller than the devices it is split over, cut as JAX programs
// arrive (XLA's cut of 4 rows over 8 devices gives the first four one
// row each and the rest none; import-shardings writes it as offsets):
// ops that run on pieces of unequal sizes take that cut, so a row sum
// runs on each device's own row and only the four sums move, where the
// whole 4x32 operand was resharded to a cut of non-empty pieces first
// (272 bytes a device; XLA 16). A dynamic_update_slice, whose pieces each
// need a row, does not run on it: the operand is resharded as before.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir -f row_sums --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f row_sums --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f mean_of_rows --compare-with %s -q --seed 3 | FileCheck %s
// RUN: mesh-run %t.mlir -f mean_of_rows --compare-with %s -q --seed 4 | FileCheck %s
// RUN: mesh-run %t.mlir -f update_row --compare-with %s -q --seed 5 | FileCheck %s
// RUN: mesh-run %t.mlir -f update_row --compare-with %s -q --seed 6 | FileCheck %s
// RUN: mesh-opt --mesh-analysis %t.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=ANALYSIS
// CHECK: match

mesh.mesh @mesh(shape = 2x4)

// IR-LABEL: func.func @row_sums(
// IR: %[[S:.*]] = "stablehlo.reduce"
// IR: }) : (tensor<?x32xf32>, tensor<f32>) -> tensor<?xf32>
// IR: mesh.all_gather %{{.*}} on @mesh mesh_axes = [1, 0] gather_axis = 0 : tensor<1xf32> -> tensor<8xf32>
// IR-NOT: mesh.all_to_all
// IR: return
// ANALYSIS-LABEL: @row_sums on @mesh
// ANALYSIS: max all_gather 1, all_slice 1 28
func.func @row_sums(%x: tensor<4x32xf32>) -> tensor<4xf32> {
  %xla = mesh.sharding @mesh split_axes = [[1, 0]] sharded_dims_offsets = [0, 1, 2, 3, 4, 4, 4, 4, 4] : !mesh.sharding
  %xs = mesh.shard %x to %xla annotate_for_users : tensor<4x32xf32>
  %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %s = "stablehlo.reduce"(%xs, %z) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%t) : (tensor<f32>) -> ()
  }) : (tensor<4x32xf32>, tensor<f32>) -> tensor<4xf32>
  %model = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
  %out = mesh.shard %s to %model annotate_for_users : tensor<4xf32>
  return %out : tensor<4xf32>
}

// Six rows over the 8 devices of the mesh's both axes, then a mean over
// the rows and the third dimension: each device sums its row (XLA's cut
// 1, 1, 1, 1, 1, 1, 0, 0), and one all_reduce of the 3 sums finishes it.
// IR-LABEL: func.func @mean_of_rows(
// IR-NOT: mesh.all_to_all
// IR: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0, 1] : tensor<3xf32> -> tensor<3xf32>
// ANALYSIS-LABEL: @mean_of_rows on @mesh
// ANALYSIS: max all_reduce 1 24
func.func @mean_of_rows(%x: tensor<6x3x10xf32>) -> tensor<3xf32> {
  %xla = mesh.sharding @mesh split_axes = [[0, 1]] sharded_dims_offsets = [0, 1, 2, 3, 4, 5, 6, 6, 6] : !mesh.sharding
  %xs = mesh.shard %x to %xla annotate_for_users : tensor<6x3x10xf32>
  %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %s = "stablehlo.reduce"(%xs, %z) <{dimensions = array<i64: 0, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%t) : (tensor<f32>) -> ()
  }) : (tensor<6x3x10xf32>, tensor<f32>) -> tensor<3xf32>
  %n = "stablehlo.constant"() <{value = dense<60.0> : tensor<3xf32>}> : () -> tensor<3xf32>
  %m = "stablehlo.divide"(%s, %n) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %out = mesh.shard %m to %whole annotate_for_users : tensor<3xf32>
  return %out : tensor<3xf32>
}

// The rows moved to their columns' cut: each device writes its columns of
// the row.
// IR-LABEL: func.func @update_row(
// IR: "stablehlo.dynamic_update_slice"
// IR-SAME: (tensor<4x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<4x4xf32>
func.func @update_row(%x: tensor<4x32xf32>, %row: tensor<1x32xf32>) -> tensor<4x32xf32> {
  %xla = mesh.sharding @mesh split_axes = [[1, 0]] sharded_dims_offsets = [0, 1, 2, 3, 4, 4, 4, 4, 4] : !mesh.sharding
  %xs = mesh.shard %x to %xla annotate_for_users : tensor<4x32xf32>
  %i = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
  %j = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %u = "stablehlo.dynamic_update_slice"(%xs, %row, %i, %j) : (tensor<4x32xf32>, tensor<1x32xf32>, tensor<i32>, tensor<i32>) -> tensor<4x32xf32>
  %model = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
  %out = mesh.shard %u to %model annotate_for_users : tensor<4x32xf32>
  return %out : tensor<4x32xf32>
}
