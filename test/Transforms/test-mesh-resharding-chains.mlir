// RUN: mesh-opt --split-input-file --test-mesh-resharding %s | FileCheck %s

// Chained annotations: each link reshards from the previous link's layout,
// starting from the local piece the previous link made. The pass rewrites
// every pair before it erases any mesh.shard (it once used an erased op
// here: a segfault or an assertion at random). The first chunk has the
// shape of @cse_and_dce in mesh-canonicalize.mlir, which triggered it.

mesh.mesh @mesh(shape = 2)
// CHECK-LABEL: func.func @chain(
// CHECK-NOT: mesh.shard %
// CHECK: %[[IN:.*]] = builtin.unrealized_conversion_cast %arg0 : tensor<8xf32> to tensor<4xf32>
// CHECK-NEXT: %[[WHOLE:.*]] = mesh.all_gather %[[IN]] on @mesh mesh_axes = [0] gather_axis = 0 : tensor<4xf32> -> tensor<8xf32>
// CHECK-NEXT: builtin.unrealized_conversion_cast %[[WHOLE]] : tensor<8xf32> to tensor<8xf32>
// CHECK-NEXT: %[[SPLIT:.*]] = mesh.all_slice %[[WHOLE]] on @mesh mesh_axes = [0] slice_axis = 0 : tensor<8xf32> -> tensor<4xf32>
// CHECK-NEXT: %[[D:.*]] = builtin.unrealized_conversion_cast %[[SPLIT]] : tensor<4xf32> to tensor<8xf32>
// CHECK-NEXT: %[[R:.*]] = scf.if %arg1 -> (tensor<8xf32>) {
// CHECK-NEXT:   %[[SAME:.*]] = tensor.cast %[[WHOLE]] : tensor<8xf32> to tensor<8xf32>
// CHECK-NEXT:   %[[E:.*]] = builtin.unrealized_conversion_cast %[[SAME]] : tensor<8xf32> to tensor<8xf32>
// CHECK-NEXT:   scf.yield %[[E]] : tensor<8xf32>
// CHECK-NEXT: } else {
// CHECK-NEXT:   scf.yield %arg0 : tensor<8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[D]], %[[R]] : tensor<8xf32>, tensor<8xf32>
func.func @chain(%x: tensor<8xf32>, %c: i1) -> (tensor<8xf32>, tensor<8xf32>) {
  %split = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %a = mesh.shard %x to %split : tensor<8xf32>
  %b = mesh.shard %a to %whole annotate_for_users : tensor<8xf32>
  %d = mesh.shard %b to %split annotate_for_users : tensor<8xf32>
  %r = scf.if %c -> tensor<8xf32> {
    %e = mesh.shard %b to %whole annotate_for_users : tensor<8xf32>
    scf.yield %e : tensor<8xf32>
  } else {
    scf.yield %x : tensor<8xf32>
  }
  return %d, %r : tensor<8xf32>, tensor<8xf32>
}

// -----

// A longer chain that starts at an operand annotation, with two links
// leaving one annotation (%b).
// CHECK-LABEL: func.func @long_chain(
// CHECK-NOT: mesh.shard %
// CHECK: %[[IN:.*]] = builtin.unrealized_conversion_cast %arg0 : tensor<8x8xf32> to tensor<4x8xf32>
// CHECK-NEXT: %[[S:.*]] = mesh.all_slice %[[IN]] on @mesh mesh_axes = [1] slice_axis = 1 : tensor<4x8xf32> -> tensor<4x4xf32>
// CHECK-NEXT: %[[COLS:.*]] = mesh.all_gather %[[S]] on @mesh mesh_axes = [0] gather_axis = 0 : tensor<4x4xf32> -> tensor<8x4xf32>
// CHECK-NEXT: %[[B:.*]] = builtin.unrealized_conversion_cast %[[COLS]] : tensor<8x4xf32> to tensor<8x8xf32>
// CHECK-NEXT: %[[BOTH:.*]] = mesh.all_slice %[[COLS]] on @mesh mesh_axes = [0] slice_axis = 0 : tensor<8x4xf32> -> tensor<4x4xf32>
// CHECK-NEXT: builtin.unrealized_conversion_cast %[[BOTH]] : tensor<4x4xf32> to tensor<8x8xf32>
// CHECK-NEXT: %[[ROWS:.*]] = mesh.all_gather %[[BOTH]] on @mesh mesh_axes = [1] gather_axis = 1 : tensor<4x4xf32> -> tensor<4x8xf32>
// CHECK-NEXT: %[[D:.*]] = builtin.unrealized_conversion_cast %[[ROWS]] : tensor<4x8xf32> to tensor<8x8xf32>
// CHECK-NEXT: %[[E1:.*]] = mesh.all_slice %[[COLS]] on @mesh mesh_axes = [0] slice_axis = 0 : tensor<8x4xf32> -> tensor<4x4xf32>
// CHECK-NEXT: %[[E2:.*]] = mesh.all_gather %[[E1]] on @mesh mesh_axes = [1] gather_axis = 1 : tensor<4x4xf32> -> tensor<4x8xf32>
// CHECK-NEXT: %[[E:.*]] = builtin.unrealized_conversion_cast %[[E2]] : tensor<4x8xf32> to tensor<8x8xf32>
// CHECK-NEXT: %[[F:.*]] = arith.addf %[[B]], %[[D]] : tensor<8x8xf32>
// CHECK-NEXT: return %[[F]], %[[E]]
mesh.mesh @mesh(shape = 2x2)
func.func @long_chain(%x: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %cols = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
  %both = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %a = mesh.shard %x to %rows annotate_for_users : tensor<8x8xf32>
  %b = mesh.shard %a to %cols annotate_for_users : tensor<8x8xf32>
  %c = mesh.shard %b to %both annotate_for_users : tensor<8x8xf32>
  %d = mesh.shard %c to %rows annotate_for_users : tensor<8x8xf32>
  %e = mesh.shard %b to %rows annotate_for_users : tensor<8x8xf32>
  %f = arith.addf %b, %d : tensor<8x8xf32>
  return %f, %e : tensor<8x8xf32>, tensor<8x8xf32>
}
