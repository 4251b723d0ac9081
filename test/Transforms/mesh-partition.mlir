// The MLPs of the sharding design after propagation and partition: the
// collectives must be the ones the design shows.
// RUN: mesh-opt --split-input-file --allow-unregistered-dialect --sharding-propagation --mesh-partition %s | FileCheck %s
// The pass's former upstream name does the same:
// RUN: mesh-opt --split-input-file --allow-unregistered-dialect --sharding-propagation --mesh-spmdization %s | FileCheck %s

mesh.mesh @mesh0(shape = 2)

// 1-D weight-stationary: gather the input's features, two local matmuls,
// reduce-scatter the partial output back onto its features.
// CHECK-LABEL: func.func @mlp_1d(
// CHECK-SAME: %arg0: tensor<2x4x4xf32> {mesh.sharding = #mesh.sharding<@mesh0, {{\[\[}}], [], [0]]>}
// CHECK-SAME: %arg1: tensor<8x16xf32> {mesh.sharding = #mesh.sharding<@mesh0, {{\[\[}}], [0]]>}
// CHECK-SAME: %arg2: tensor<16x8xf32> {mesh.sharding = #mesh.sharding<@mesh0, {{\[\[}}0]]>}
// CHECK-SAME: -> (tensor<2x4x4xf32> {mesh.sharding = #mesh.sharding<@mesh0, {{\[\[}}], [], [0]]>})
// CHECK-NEXT: %[[X:.*]] = mesh.all_gather %arg0 on @mesh0 mesh_axes = [0] gather_axis = 2 : tensor<2x4x4xf32> -> tensor<2x4x8xf32>
// CHECK-NEXT: %[[H:.*]] = "mhlo.dot_general"(%[[X]], %arg1) {{.*}} : (tensor<2x4x8xf32>, tensor<8x16xf32>) -> tensor<2x4x16xf32>
// CHECK-NEXT: %[[Z:.*]] = "mhlo.constant"() {value = dense<0.000000e+00> : tensor<2x4x16xf32>} : () -> tensor<2x4x16xf32>
// CHECK-NEXT: %[[R:.*]] = "mhlo.maximum"(%[[H]], %[[Z]]) : (tensor<2x4x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
// CHECK-NEXT: %[[Y:.*]] = "mhlo.dot_general"(%[[R]], %arg2) {{.*}} : (tensor<2x4x16xf32>, tensor<16x8xf32>) -> tensor<2x4x8xf32>
// CHECK-NEXT: %[[O:.*]] = mesh.reduce_scatter %[[Y]] on @mesh0 mesh_axes = [0] scatter_axis = 2 : tensor<2x4x8xf32> -> tensor<2x4x4xf32>
// CHECK-NEXT: return %[[O]] : tensor<2x4x4xf32>
func.func @mlp_1d(%arg0: tensor<2x4x8xf32>, %arg1: tensor<8x32xf32>, %arg2: tensor<32x8xf32>) -> tensor<2x4x8xf32> {
  %s0 = mesh.sharding @mesh0 split_axes = [[], [], [0]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<2x4x8xf32>
  %1 = "mhlo.dot_general"(%0, %arg1) {dot_dimension_numbers = #mhlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>} : (tensor<2x4x8xf32>, tensor<8x32xf32>) -> tensor<2x4x32xf32>
  %2 = "mhlo.constant"() {value = dense<0.0> : tensor<2x4x32xf32>} : () -> tensor<2x4x32xf32>
  %3 = "mhlo.maximum"(%1, %2) : (tensor<2x4x32xf32>, tensor<2x4x32xf32>) -> tensor<2x4x32xf32>
  %4 = "mhlo.dot_general"(%3, %arg2) {dot_dimension_numbers = #mhlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>} : (tensor<2x4x32xf32>, tensor<32x8xf32>) -> tensor<2x4x8xf32>
  %s1 = mesh.sharding @mesh0 split_axes = [[], [], []] partial = sum [0] : !mesh.sharding
  %5 = mesh.shard %4 to %s1 : tensor<2x4x8xf32>
  %6 = mesh.shard %5 to %s0 annotate_for_users : tensor<2x4x8xf32>
  return %6 : tensor<2x4x8xf32>
}

// -----

mesh.mesh @mesh0(shape = 2x2x2)

// 2-D weight-stationary on 2x2x2: gather the input over axes 1 and 2,
// all-reduce the first matmul's partial sums over axis 0 before the relu,
// reduce-scatter the second's over axes 1 and 2.
// CHECK-LABEL: func.func @mlp_2d(
// CHECK-SAME: %arg0: tensor<2x4x1xf32> {mesh.sharding = #mesh.sharding<@mesh0, {{\[\[}}], [], [0, 1, 2]]>}
// CHECK-SAME: %arg1: tensor<4x8xf32> {mesh.sharding = #mesh.sharding<@mesh0, {{\[\[}}0], [1, 2]]>}
// CHECK-SAME: %arg2: tensor<8x4xf32> {mesh.sharding = #mesh.sharding<@mesh0, {{\[\[}}1, 2], [0]]>}
// CHECK-NEXT: %[[X:.*]] = mesh.all_gather %arg0 on @mesh0 mesh_axes = [1, 2] gather_axis = 2 : tensor<2x4x1xf32> -> tensor<2x4x4xf32>
// CHECK-NEXT: %[[H:.*]] = "mhlo.dot_general"(%[[X]], %arg1) {{.*}} -> tensor<2x4x8xf32>
// CHECK-NEXT: %[[HR:.*]] = mesh.all_reduce %[[H]] on @mesh0 mesh_axes = [0] : tensor<2x4x8xf32> -> tensor<2x4x8xf32>
// CHECK-NEXT: %[[Z:.*]] = "mhlo.constant"
// CHECK-NEXT: %[[R:.*]] = "mhlo.maximum"(%[[HR]], %[[Z]])
// CHECK-NEXT: %[[Y:.*]] = "mhlo.dot_general"(%[[R]], %arg2) {{.*}} -> tensor<2x4x4xf32>
// CHECK-NEXT: %[[O:.*]] = mesh.reduce_scatter %[[Y]] on @mesh0 mesh_axes = [1, 2] scatter_axis = 2 : tensor<2x4x4xf32> -> tensor<2x4x1xf32>
// CHECK-NEXT: return %[[O]]
func.func @mlp_2d(%arg0: tensor<2x4x8xf32>, %arg1: tensor<8x32xf32>, %arg2: tensor<32x8xf32>) -> tensor<2x4x8xf32> {
  %s0 = mesh.sharding @mesh0 split_axes = [[], [], [0, 1, 2]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<2x4x8xf32>
  %1 = "mhlo.dot_general"(%0, %arg1) {dot_dimension_numbers = #mhlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>} : (tensor<2x4x8xf32>, tensor<8x32xf32>) -> tensor<2x4x32xf32>
  %s1 = mesh.sharding @mesh0 split_axes = [[], [], [1, 2]] partial = sum [0] : !mesh.sharding
  %2 = mesh.shard %1 to %s1 : tensor<2x4x32xf32>
  %3 = "mhlo.constant"() {value = dense<0.0> : tensor<2x4x32xf32>} : () -> tensor<2x4x32xf32>
  %4 = "mhlo.maximum"(%2, %3) : (tensor<2x4x32xf32>, tensor<2x4x32xf32>) -> tensor<2x4x32xf32>
  %5 = "mhlo.dot_general"(%4, %arg2) {dot_dimension_numbers = #mhlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>} : (tensor<2x4x32xf32>, tensor<32x8xf32>) -> tensor<2x4x8xf32>
  %s2 = mesh.sharding @mesh0 split_axes = [[], [], [0]] partial = sum [1, 2] : !mesh.sharding
  %6 = mesh.shard %5 to %s2 : tensor<2x4x8xf32>
  %7 = mesh.shard %6 to %s0 annotate_for_users : tensor<2x4x8xf32>
  return %7 : tensor<2x4x8xf32>
}

// -----

mesh.mesh @mesh(shape = 2)

// An op with no rule between sharded values is an error; between
// replicated values it stays as it is.
// CHECK-LABEL: func.func @replicated_unknown(
// CHECK: "foo.bar"(%{{.*}}) : (tensor<4x8xf32>) -> tensor<4x8xf32>
func.func @replicated_unknown(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %a0 = mesh.shard %a to %s : tensor<4x8xf32>
  %t = tosa.tanh %a0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %d = "foo.bar"(%t) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}
