// The MLP walkthroughs of the sharding design (weight-stationary inference,
// as in "Efficiently Scaling Transformer Inference", figure 2), written with
// mhlo ops in generic form. The completed annotations must be the ones the
// design shows.
// RUN: mesh-opt --split-input-file --allow-unregistered-dialect --sharding-propagation %s | FileCheck %s

mesh.mesh @mesh0(shape = 2)

// 1-D, every boundary annotated: the input arrives split on its feature
// dimension, the output leaves as a partial sum, returned split.
// CHECK-LABEL: func.func @mlp_1d_weight_stationary
// CHECK-DAG: %[[REP:.*]] = mesh.sharding @mesh0 split_axes = {{\[\[}}]] :
// CHECK-DAG: %[[W1:.*]] = mesh.sharding @mesh0 split_axes = {{\[\[}}], [0]] :
// CHECK-DAG: %[[W2:.*]] = mesh.sharding @mesh0 split_axes = {{\[\[}}0]] :
// CHECK-DAG: %[[F:.*]] = mesh.sharding @mesh0 split_axes = {{\[\[}}], [], [0]] :
// CHECK: %[[X:.*]] = mesh.shard %arg0 to
// CHECK-NEXT: %[[XG:.*]] = mesh.shard %[[X]] to %[[REP]] annotate_for_users
// CHECK-NEXT: %[[A1:.*]] = mesh.shard %arg1 to %[[W1]] annotate_for_users
// CHECK-NEXT: %[[D1:.*]] = "mhlo.dot_general"(%[[XG]], %[[A1]]) {{.*}}mesh.sharding_option = #mesh.sharding<@mesh0, {{\[\[}}], [], [0]]>
// CHECK-NEXT: %[[D1A:.*]] = mesh.shard %[[D1]] to %[[F]]
// The constant stays whole (every device holds it): its user slices it.
// CHECK-NEXT: %[[C:.*]] = "mhlo.constant"() {value = dense<0.000000e+00> : tensor<2x4x32xf32>} : () -> tensor<2x4x32xf32>
// CHECK-NEXT: %[[CA:.*]] = mesh.shard %[[C]] to %[[F]] annotate_for_users
// CHECK-NEXT: %[[R:.*]] = "mhlo.maximum"(%[[D1A]], %[[CA]]) {mesh.sharding_option = #mesh.sharding<@mesh0, {{\[\[}}], [], [0]]>}
// CHECK-NEXT: %[[RA:.*]] = mesh.shard %[[R]] to %[[F]]
// CHECK-NEXT: %[[A2:.*]] = mesh.shard %arg2 to %[[W2]] annotate_for_users
// CHECK-NEXT: "mhlo.dot_general"(%[[RA]], %[[A2]]) {{.*}}mesh.sharding_option = #mesh.sharding<@mesh0, {{\[\[}}], [], [], [0]]>
func.func @mlp_1d_weight_stationary(%arg0: tensor<2x4x8xf32>, %arg1: tensor<8x32xf32>, %arg2: tensor<32x8xf32>) -> tensor<2x4x8xf32> {
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

mesh.mesh @mesh0(shape = 8)

// 1-D, the second matmul's sharding given as an option on the op instead of
// annotations on its result: the same completion as above.
// CHECK-LABEL: func.func @mlp_1d_weight_stationary_with_sharding_on_operation
// CHECK-DAG: %[[REP:.*]] = mesh.sharding @mesh0 split_axes = {{\[\[}}]] :
// CHECK-DAG: %[[W1:.*]] = mesh.sharding @mesh0 split_axes = {{\[\[}}], [0]] :
// CHECK-DAG: %[[W2:.*]] = mesh.sharding @mesh0 split_axes = {{\[\[}}0]] :
// CHECK-DAG: %[[F:.*]] = mesh.sharding @mesh0 split_axes = {{\[\[}}], [], [0]] :
// CHECK-DAG: %[[P:.*]] = mesh.sharding @mesh0 split_axes = {{\[\[}}]] partial = sum [0] :
// CHECK: mesh.shard %{{.*}} to %[[REP]] annotate_for_users
// CHECK-NEXT: mesh.shard %arg1 to %[[W1]] annotate_for_users
// CHECK-NEXT: "mhlo.dot_general"{{.*}}mesh.sharding_option = #mesh.sharding<@mesh0, {{\[\[}}], [], [0]]>
// CHECK: "mhlo.maximum"{{.*}}mesh.sharding_option = #mesh.sharding<@mesh0, {{\[\[}}], [], [0]]>
// CHECK: mesh.shard %arg2 to %[[W2]] annotate_for_users
// CHECK-NEXT: %[[D2:.*]] = "mhlo.dot_general"{{.*}}mesh.sharding_option = #mesh.sharding<@mesh0, {{\[\[}}], [], [], [0]]>
// CHECK-NEXT: %[[D2A:.*]] = mesh.shard %[[D2]] to %[[P]]
// CHECK-NEXT: %[[OUT:.*]] = mesh.shard %[[D2A]] to %{{.*}} annotate_for_users
// CHECK-NEXT: return %[[OUT]]
func.func @mlp_1d_weight_stationary_with_sharding_on_operation(%arg0: tensor<2x4x8xf32>, %arg1: tensor<8x32xf32>, %arg2: tensor<32x8xf32>) -> tensor<2x4x8xf32> {
  %s0 = mesh.sharding @mesh0 split_axes = [[], [], [0]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<2x4x8xf32>
  %1 = "mhlo.dot_general"(%0, %arg1) {dot_dimension_numbers = #mhlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>} : (tensor<2x4x8xf32>, tensor<8x32xf32>) -> tensor<2x4x32xf32>
  %2 = "mhlo.constant"() {value = dense<0.0> : tensor<2x4x32xf32>} : () -> tensor<2x4x32xf32>
  %3 = "mhlo.maximum"(%1, %2) : (tensor<2x4x32xf32>, tensor<2x4x32xf32>) -> tensor<2x4x32xf32>
  %4 = "mhlo.dot_general"(%3, %arg2) {dot_dimension_numbers = #mhlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, mesh.sharding_option = #mesh.sharding<@mesh0, [[], [], [], [0]]>} : (tensor<2x4x32xf32>, tensor<32x8xf32>) -> tensor<2x4x8xf32>
  %6 = mesh.shard %4 to %s0 annotate_for_users : tensor<2x4x8xf32>
  return %6 : tensor<2x4x8xf32>
}

// -----

mesh.mesh @mesh0(shape = 2x2x2)

// 2-D weight-stationary on a 2x2x2 mesh: the first matmul splits its output
// features over axes 1 and 2 and its contraction over axis 0; the second the
// other way round. W1 is split [[0], [1, 2]], W2 [[1, 2], [0]], and the input
// is resharded from [0, 1, 2] to [0] on its last dimension.
// CHECK-LABEL: func.func @mlp_2d_weight_stationary
// CHECK-DAG: %[[W1:.*]] = mesh.sharding @mesh0 split_axes = {{\[\[}}0], [1, 2]] :
// CHECK-DAG: %[[W2:.*]] = mesh.sharding @mesh0 split_axes = {{\[\[}}1, 2], [0]] :
// CHECK-DAG: %[[X0:.*]] = mesh.sharding @mesh0 split_axes = {{\[\[}}], [], [0]] :
// CHECK-DAG: %[[H:.*]] = mesh.sharding @mesh0 split_axes = {{\[\[}}], [], [1, 2]] :
// CHECK: %[[X:.*]] = mesh.shard %arg0 to
// CHECK-NEXT: %[[XR:.*]] = mesh.shard %[[X]] to %[[X0]] annotate_for_users
// CHECK-NEXT: %[[A1:.*]] = mesh.shard %arg1 to %[[W1]] annotate_for_users
// CHECK-NEXT: "mhlo.dot_general"(%[[XR]], %[[A1]]) {{.*}}mesh.sharding_option = #mesh.sharding<@mesh0, {{\[\[}}], [], [1, 2], [0]]>
// CHECK: %[[HU:.*]] = mesh.shard %{{.*}} to %[[H]] annotate_for_users
// CHECK-NEXT: %[[CU:.*]] = mesh.shard %{{.*}} to %[[H]] annotate_for_users
// CHECK-NEXT: "mhlo.maximum"(%[[HU]], %[[CU]]) {mesh.sharding_option = #mesh.sharding<@mesh0, {{\[\[}}], [], [1, 2]]>}
// CHECK: mesh.shard %arg2 to %[[W2]] annotate_for_users
// CHECK-NEXT: "mhlo.dot_general"{{.*}}mesh.sharding_option = #mesh.sharding<@mesh0, {{\[\[}}], [], [0], [1, 2]]>
func.func @mlp_2d_weight_stationary(%arg0: tensor<2x4x8xf32>, %arg1: tensor<8x32xf32>, %arg2: tensor<32x8xf32>) -> tensor<2x4x8xf32> {
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

mesh.mesh @mesh0(shape = 2x2x2)

// The same 2-D program with the loop shardings given on the matmuls and
// only the input and output annotated: the same completion.
// CHECK-LABEL: func.func @mlp_2d_weight_stationary_with_sharding_on_operations
// CHECK-DAG: %[[W1:.*]] = mesh.sharding @mesh0 split_axes = {{\[\[}}0], [1, 2]] :
// CHECK-DAG: %[[W2:.*]] = mesh.sharding @mesh0 split_axes = {{\[\[}}1, 2], [0]] :
// CHECK-DAG: %[[X0:.*]] = mesh.sharding @mesh0 split_axes = {{\[\[}}], [], [0]] :
// CHECK-DAG: %[[H:.*]] = mesh.sharding @mesh0 split_axes = {{\[\[}}], [], [1, 2]] :
// CHECK-DAG: %[[P1:.*]] = mesh.sharding @mesh0 split_axes = {{\[\[}}], [], [1, 2]] partial = sum [0] :
// CHECK-DAG: %[[P2:.*]] = mesh.sharding @mesh0 split_axes = {{\[\[}}], [], [0]] partial = sum [1, 2] :
// CHECK: mesh.shard %{{.*}} to %[[X0]] annotate_for_users
// CHECK-NEXT: mesh.shard %arg1 to %[[W1]] annotate_for_users
// CHECK-NEXT: %[[D1:.*]] = "mhlo.dot_general"
// CHECK-NEXT: %[[D1A:.*]] = mesh.shard %[[D1]] to %[[P1]]
// CHECK: %[[HU:.*]] = mesh.shard %[[D1A]] to %[[H]] annotate_for_users
// CHECK-NEXT: %[[CU:.*]] = mesh.shard %{{.*}} to %[[H]] annotate_for_users
// CHECK-NEXT: "mhlo.maximum"(%[[HU]], %[[CU]]) {mesh.sharding_option = #mesh.sharding<@mesh0, {{\[\[}}], [], [1, 2]]>}
// CHECK: mesh.shard %arg2 to %[[W2]] annotate_for_users
// CHECK-NEXT: %[[D2:.*]] = "mhlo.dot_general"
// CHECK-NEXT: mesh.shard %[[D2]] to %[[P2]]
func.func @mlp_2d_weight_stationary_with_sharding_on_operations(%arg0: tensor<2x4x8xf32>, %arg1: tensor<8x32xf32>, %arg2: tensor<32x8xf32>) -> tensor<2x4x8xf32> {
  %s0 = mesh.sharding @mesh0 split_axes = [[], [], [0, 1, 2]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<2x4x8xf32>
  %1 = "mhlo.dot_general"(%0, %arg1) {dot_dimension_numbers = #mhlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, mesh.sharding_option = #mesh.sharding<@mesh0, [[], [], [1, 2], [0]]>} : (tensor<2x4x8xf32>, tensor<8x32xf32>) -> tensor<2x4x32xf32>
  %3 = "mhlo.constant"() {value = dense<0.0> : tensor<2x4x32xf32>} : () -> tensor<2x4x32xf32>
  %4 = "mhlo.maximum"(%1, %3) : (tensor<2x4x32xf32>, tensor<2x4x32xf32>) -> tensor<2x4x32xf32>
  %5 = "mhlo.dot_general"(%4, %arg2) {dot_dimension_numbers = #mhlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, mesh.sharding_option = #mesh.sharding<@mesh0, [[], [], [0], [1, 2]]>} : (tensor<2x4x32xf32>, tensor<32x8xf32>) -> tensor<2x4x8xf32>
  %7 = mesh.shard %5 to %s0 annotate_for_users : tensor<2x4x8xf32>
  return %7 : tensor<2x4x8xf32>
}
