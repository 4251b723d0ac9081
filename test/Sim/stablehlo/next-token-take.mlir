// A next-token loss as LM code writes it (`take_along_axis(log_probs,
// targets[:, 1:, None])`: a reshape adding unit dimensions and a batched
// gather) over a sequence of 32 split over 4 devices.  The slices' results
// have 31 rows: propagation cuts that size where the logits' slice
// `[:, :-1]` keeps each device's rows in place (8, 8, 8, 7; the default
// cut, 7, 8, 8, 8, brings a row of logits to three devices), so only the
// targets' slice `[:, 1:]` takes its next row (one update_halo of i32
// rows); the reshape and the gather run on those uneven pieces (the
// reshape as tensor.expand_shape), and the sum is all-reduced.  Before,
// the split moved to the batch (two all_to_alls of the logits and targets,
// 1,640 bytes); XLA's plan moves 24.
// RUN: mesh-opt --allow-unregistered-dialect --sharding-propagation %s | FileCheck %s --check-prefix=PROP
// RUN: mesh-opt --allow-unregistered-dialect --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f loss --compare-with %s --seed 1 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f loss --compare-with %s --seed 2 -q | FileCheck %s --check-prefix=SIM
// SIM: match

mesh.mesh @mesh(shape = 4)
func.func @loss(%logits: tensor<4x32x16xf32>, %targets: tensor<4x32xi32>) -> tensor<f32> {
  %s = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %r = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %l = mesh.shard %logits to %s : tensor<4x32x16xf32>
  %t = mesh.shard %targets to %s : tensor<4x32xi32>
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

// PROP-LABEL: func.func @loss(
// PROP:         %[[CUT:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}], [0]] sharded_dims_offsets = [0, 8, 16, 24, 31] : !mesh.sharding
// PROP:         "stablehlo.slice"
// PROP-NEXT:    mesh.shard %{{.*}} to %[[CUT]] : tensor<4x31x16xf32>

// CHECK-LABEL: func.func @loss(%arg0: tensor<4x8x16xf32> {{.*}}, %arg1: tensor<4x8xi32>
// CHECK-NOT:     mesh.all_to_all
// CHECK:         mesh.update_halo %arg1 into %{{.*}} on @mesh split_axes = {{\[\[}}], [0]] destination_halo_sizes = [0, 1] : tensor<4x8xi32> -> tensor<4x9xi32>
// CHECK-NOT:     mesh.update_halo
// CHECK:         tensor.expand_shape
// CHECK:         "stablehlo.gather"(%{{.*}}, %{{.*}}) {{.*}} : (tensor<4x?x16xf32>, tensor<4x?x1x1xi32>) -> tensor<4x?x1xf32>
// CHECK:         mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0] : tensor<f32> -> tensor<f32>
// CHECK-NOT:     mesh.all_to_all
// CHECK:         return
