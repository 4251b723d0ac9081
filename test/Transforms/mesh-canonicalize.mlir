// RUN: mesh-opt --split-input-file --mesh-canonicalize %s | FileCheck %s
// RUN: mesh-opt --split-input-file --pass-pipeline='builtin.module(mesh-canonicalize{fold-collectives=false dce=false})' %s | FileCheck %s --check-prefix=NOFOLD

mesh.mesh @m(shape = 2x1x?)

// A collective over a one-device group with unchanged type is its input.
// CHECK-LABEL: func.func @single_device_groups
// CHECK-NEXT:    %0 = mesh.all_reduce %arg0 on @m mesh_axes = [0, 1] : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:    %1 = mesh.all_reduce %0 on @m mesh_axes = [1] : tensor<4xf32> -> tensor<4xf64>
// CHECK-NEXT:    %2 = mesh.all_reduce %arg0 on @m mesh_axes = [2] : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:    %3 = mesh.shift %0 on @m mesh_axes = [1] shift_axis = 1 offset = 1 : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:    return %0, %1, %2, %3, %0
// NOFOLD-LABEL: func.func @single_device_groups
// NOFOLD-COUNT-4: mesh.all_reduce
// NOFOLD: mesh.broadcast
func.func @single_device_groups(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf64>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = mesh.all_reduce %x on @m mesh_axes = [1] : tensor<4xf32> -> tensor<4xf32>
  %1 = mesh.all_reduce %0 on @m : tensor<4xf32> -> tensor<4xf32>
  %2 = mesh.all_reduce %1 on @m mesh_axes = [0, 1] : tensor<4xf32> -> tensor<4xf32>
  // The element type changes: not an identity.
  %3 = mesh.all_reduce %2 on @m mesh_axes = [1] : tensor<4xf32> -> tensor<4xf64>
  // Axis 2 has a dynamic size: the group size is unknown.
  %4 = mesh.all_reduce %x on @m mesh_axes = [2] : tensor<4xf32> -> tensor<4xf32>
  // A non-rotating shift by 1 in a one-device group leaves an undefined value.
  %5 = mesh.shift %2 on @m mesh_axes = [1] shift_axis = 1 offset = 1 : tensor<4xf32> -> tensor<4xf32>
  %6 = mesh.broadcast %2 on @m mesh_axes = [1] root = [0] : (tensor<4xf32>) -> tensor<4xf32>
  return %2, %3, %4, %5, %6 : tensor<4xf32>, tensor<4xf64>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

mesh.mesh @m(shape = 2x1x?)

// Static mesh sizes and indices along size-1 axes become constants.
// CHECK-LABEL: func.func @queries
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %0 = mesh.mesh_shape @m axes = [2] : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %1 = mesh.process_linear_index on @m : index
// CHECK-NEXT:    return %c2, %c1, %0, %c0, %1
func.func @queries() -> (index, index, index, index, index) {
  %0:2 = mesh.mesh_shape @m axes = [0, 1] : index, index
  %1 = mesh.mesh_shape @m axes = [2] : index
  %2 = mesh.process_multi_index on @m axes = [1] : index
  %3 = mesh.process_linear_index on @m : index
  return %0#0, %0#1, %1, %2, %3 : index, index, index, index, index
}

// -----

mesh.mesh @m(shape = 4)

// Identical shardings in one block merge; unused pure ops go, and so do the
// ops only they used. Sends and receives stay: they have effects.
// CHECK-LABEL: func.func @cse_and_dce
// CHECK-NEXT:    %0 = mesh.sharding @m split_axes = {{\[\[}}0]] : !mesh.sharding
// CHECK-NEXT:    %1 = mesh.shard %arg0 to %0 : tensor<8xf32>
// CHECK-NEXT:    %2 = mesh.shard %1 to %0 annotate_for_users : tensor<8xf32>
// CHECK-NEXT:    %3 = mesh.send %arg0 on @m mesh_axes = [0] destination = [1]
// CHECK-NEXT:    scf.if %arg1 {
// CHECK-NEXT:      %4 = mesh.sharding @m split_axes = {{\[\[}}0]] : !mesh.sharding
// CHECK-NEXT:      %5 = mesh.shard %2 to %4 annotate_for_users : tensor<8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return %2
// NOFOLD-LABEL: func.func @cse_and_dce
// NOFOLD: mesh.all_gather
func.func @cse_and_dce(%x: tensor<8xf32>, %c: i1) -> tensor<8xf32> {
  %s0 = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %s1 = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %a = mesh.shard %x to %s0 : tensor<8xf32>
  %b = mesh.shard %a to %s1 annotate_for_users : tensor<8xf32>
  %unused = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %g = mesh.all_gather %x on @m mesh_axes = [0] gather_axis = 0 : tensor<8xf32> -> tensor<32xf32>
  %r = mesh.all_reduce %g on @m mesh_axes = [0] : tensor<32xf32> -> tensor<32xf32>
  %sent = mesh.send %x on @m mesh_axes = [0] destination = [1] : (tensor<8xf32>) -> tensor<8xf32>
  // Another block: not merged with the shardings above.
  scf.if %c {
    %s2 = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
    %inner = mesh.shard %b to %s2 annotate_for_users : tensor<8xf32>
  }
  return %b : tensor<8xf32>
}

// -----

mesh.mesh @m(shape = 2)

// A one-device collective between annotations stays: folding it would make
// the result's annotation annotate an annotation (@annotated_operand) or
// annotate its operand a second time (@annotated_twice). Unannotated, or
// with only one side annotated, it folds.
// CHECK-LABEL: func.func @annotated_operand
// CHECK:         %[[A:.*]] = mesh.shard %arg0 to %{{.*}} : tensor<4xf32>
// CHECK-NEXT:    %[[R:.*]] = mesh.all_reduce %[[A]] on @m : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:    %[[B:.*]] = mesh.shard %[[R]] to %{{.*}} : tensor<4xf32>
// CHECK-NEXT:    %[[C:.*]] = mesh.shard %arg0 to %{{.*}} annotate_for_users : tensor<4xf32>
// CHECK-NEXT:    %[[R2:.*]] = mesh.all_slice %[[C]] on @m slice_axis = 0 : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:    %[[D:.*]] = mesh.shard %[[R2]] to %{{.*}} annotate_for_users : tensor<4xf32>
// CHECK-NEXT:    return %[[B]], %[[D]], %[[A]]
func.func @annotated_operand(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %s0 = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %s1 = mesh.sharding @m split_axes = [[]] : !mesh.sharding
  %a = mesh.shard %x to %s0 : tensor<4xf32>
  %r = mesh.all_reduce %a on @m mesh_axes = [] : tensor<4xf32> -> tensor<4xf32>
  %b = mesh.shard %r to %s1 : tensor<4xf32>
  %c = mesh.shard %x to %s1 annotate_for_users : tensor<4xf32>
  %r2 = mesh.all_slice %c on @m mesh_axes = [] slice_axis = 0 : tensor<4xf32> -> tensor<4xf32>
  %d = mesh.shard %r2 to %s0 annotate_for_users : tensor<4xf32>
  // Only the operand is annotated: folds.
  %r3 = mesh.all_gather %a on @m mesh_axes = [] gather_axis = 0 : tensor<4xf32> -> tensor<4xf32>
  return %b, %d, %r3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @annotated_twice
// CHECK-NEXT:    %[[S0:.*]] = mesh.sharding @m split_axes = {{\[\[}}0]] : !mesh.sharding
// CHECK-NEXT:    %[[S1:.*]] = mesh.sharding @m split_axes = {{\[\[}}]] : !mesh.sharding
// CHECK-NEXT:    %[[R:.*]] = mesh.all_reduce %arg0 on @m : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:    %[[A:.*]] = mesh.shard %arg0 to %[[S0]] : tensor<4xf32>
// CHECK-NEXT:    %[[B:.*]] = mesh.shard %[[R]] to %[[S1]] : tensor<4xf32>
// CHECK-NEXT:    %[[C:.*]] = mesh.shard %arg1 to %[[S1]] : tensor<4xf32>
// CHECK-NEXT:    return %[[A]], %[[B]], %[[C]]
func.func @annotated_twice(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %s0 = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %s1 = mesh.sharding @m split_axes = [[]] : !mesh.sharding
  %r = mesh.all_reduce %x on @m mesh_axes = [] : tensor<4xf32> -> tensor<4xf32>
  %a = mesh.shard %x to %s0 : tensor<4xf32>
  %b = mesh.shard %r to %s1 : tensor<4xf32>
  // Only the result is annotated: folds.
  %r2 = mesh.all_reduce %y on @m mesh_axes = [] : tensor<4xf32> -> tensor<4xf32>
  %c = mesh.shard %r2 to %s1 : tensor<4xf32>
  return %a, %b, %c : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Meshes are resolved in the nearest enclosing module: the inner @m has two
// devices, so the all_reduce over its axis 0 is no identity.
// CHECK-LABEL: func.func @nested
// CHECK-NEXT:    %0 = mesh.all_reduce %arg0 on @m mesh_axes = [0]
module {
  mesh.mesh @m(shape = 2)
  func.func @nested(%x: tensor<4xf32>) -> tensor<4xf32> {
    %r = mesh.all_reduce %x on @m mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
}
mesh.mesh @m(shape = 1)
