// The four uses of mesh.shard the reference page calls undefined (a value
// annotated twice with different shardings, as a result or for its users, or
// a result annotation after an operand annotation) verify: upstream's
// verifier accepts them, and upstream's cse and canonicalize make each of
// them from valid input (second RUN line). A later annotation that differs
// is a change of layout (partition reshards there).
// RUN: mesh-opt --split-input-file %s | FileCheck %s
// RUN: mesh-opt --split-input-file --pass-pipeline='builtin.module(func.func(cse,canonicalize))' %s | FileCheck %s --check-prefix=FOLD

mesh.mesh @mesh0(shape = 2x2)

// CHECK-LABEL: func.func @page_forms
// CHECK-NEXT: %0 = mesh.sharding @mesh0 split_axes = {{\[\[}}0]] : !mesh.sharding
// CHECK-NEXT: %1 = mesh.sharding @mesh0 split_axes = {{\[\[}}1]] : !mesh.sharding
// CHECK-NEXT: %2 = mesh.shard %arg0 to %0 : tensor<4x8xf32>
// CHECK-NEXT: %3 = mesh.shard %2 to %1 : tensor<4x8xf32>
// CHECK-NEXT: %4 = mesh.shard %arg0 to %1 : tensor<4x8xf32>
// CHECK-NEXT: %5 = mesh.shard %arg1 to %0 annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %6 = mesh.shard %5 to %1 annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %7 = mesh.shard %5 to %1 : tensor<4x8xf32>
// CHECK-NEXT: return
func.func @page_forms(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>) {
  %s0 = mesh.sharding @mesh0 split_axes = [[0]] : !mesh.sharding
  %s1 = mesh.sharding @mesh0 split_axes = [[1]] : !mesh.sharding
  // A result annotated again with a different sharding.
  %0 = mesh.shard %arg0 to %s0 : tensor<4x8xf32>
  %1 = mesh.shard %0 to %s1 : tensor<4x8xf32>
  // The same value annotated as a result with different shardings.
  %2 = mesh.shard %arg0 to %s1 : tensor<4x8xf32>
  // An operand annotated again with a different sharding.
  %3 = mesh.shard %arg1 to %s0 annotate_for_users : tensor<4x8xf32>
  %4 = mesh.shard %3 to %s1 annotate_for_users : tensor<4x8xf32>
  // A result annotation after an operand annotation.
  %5 = mesh.shard %3 to %s1 : tensor<4x8xf32>
  return
}

// -----

mesh.mesh @mesh0(shape = 2)

// cse merges two equal constants annotated differently: one value with two
// result annotations.
// FOLD-LABEL: func.func @cse_constants
// FOLD-NEXT: %[[C:.*]] = arith.constant dense<1.000000e+00> : tensor<4xf32>
// FOLD-NEXT: %[[S0:.*]] = mesh.sharding @mesh0 split_axes = {{\[\[}}0]] : !mesh.sharding
// FOLD-NEXT: %[[S1:.*]] = mesh.sharding @mesh0 split_axes = {{\[\[}}]] : !mesh.sharding
// FOLD-NEXT: %[[A:.*]] = mesh.shard %[[C]] to %[[S0]] : tensor<4xf32>
// FOLD-NEXT: %[[B:.*]] = mesh.shard %[[C]] to %[[S1]] : tensor<4xf32>
// FOLD-NEXT: return %[[A]], %[[B]]
func.func @cse_constants() -> (tensor<4xf32>, tensor<4xf32>) {
  %s0 = mesh.sharding @mesh0 split_axes = [[0]] : !mesh.sharding
  %s1 = mesh.sharding @mesh0 split_axes = [[]] : !mesh.sharding
  %c1 = arith.constant dense<1.0> : tensor<4xf32>
  %c2 = arith.constant dense<1.0> : tensor<4xf32>
  %a = mesh.shard %c1 to %s0 : tensor<4xf32>
  %b = mesh.shard %c2 to %s1 : tensor<4xf32>
  return %a, %b : tensor<4xf32>, tensor<4xf32>
}

// -----

mesh.mesh @mesh0(shape = 2)

// canonicalize folds an identity cast between two annotations: the second
// now annotates the first.
// FOLD-LABEL: func.func @folded_cast
// FOLD: %[[A:.*]] = mesh.shard %arg0 to %{{.*}} : tensor<4xf32>
// FOLD-NEXT: %[[B:.*]] = mesh.shard %[[A]] to %{{.*}} : tensor<4xf32>
// FOLD-NEXT: %[[C:.*]] = mesh.shard %arg1 to %{{.*}} annotate_for_users : tensor<4xf32>
// FOLD-NEXT: %[[D:.*]] = mesh.shard %[[C]] to %{{.*}} annotate_for_users : tensor<4xf32>
// FOLD-NEXT: %[[E:.*]] = mesh.shard %[[C]] to %{{.*}} : tensor<4xf32>
// FOLD-NEXT: return %[[B]], %[[D]], %[[E]]
func.func @folded_cast(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %s0 = mesh.sharding @mesh0 split_axes = [[0]] : !mesh.sharding
  %s1 = mesh.sharding @mesh0 split_axes = [[]] : !mesh.sharding
  %a = mesh.shard %x to %s0 : tensor<4xf32>
  %ca = tensor.cast %a : tensor<4xf32> to tensor<4xf32>
  %b = mesh.shard %ca to %s1 : tensor<4xf32>
  %c = mesh.shard %y to %s0 annotate_for_users : tensor<4xf32>
  %cc = tensor.cast %c : tensor<4xf32> to tensor<4xf32>
  %d = mesh.shard %cc to %s1 annotate_for_users : tensor<4xf32>
  %e = mesh.shard %cc to %s1 : tensor<4xf32>
  return %b, %d, %e : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
