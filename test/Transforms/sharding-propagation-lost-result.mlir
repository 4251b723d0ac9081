// A result's own annotation that loses to its op's choice becomes an
// annotation for its users; annotations for users that an earlier visit put
// on it must move to the new result annotation (annotating an annotation for
// users is undefined, and the verifier rejects it).
// RUN: mesh-opt --pass-pipeline='builtin.module(sharding-propagation{solver=sweep traversal=backward})' %s | FileCheck %s
// RUN: mesh-opt --pass-pipeline='builtin.module(sharding-propagation{solver=sweep})' %s | FileCheck %s
// The cost solver runs both sigmoids split over both axes: the first's
// result annotation loses the same way, and the second sigmoid reads the
// annotated layout and reshards from it (slicing a split is free).
// RUN: mesh-opt --sharding-propagation %s | FileCheck %s --check-prefix=COST

mesh.mesh @mesh(shape = 2x2)

// CHECK-LABEL: func.func @lost_result
// CHECK-DAG: %[[ROWS:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}0]] :
// CHECK-DAG: %[[BOTH:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}0], [1]] :
// CHECK-DAG: %[[COLS:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}], [1]] :
// CHECK: %[[X:.*]] = tosa.sigmoid %{{.*}} {mesh.sharding_option = #mesh.sharding<@mesh, {{\[\[}}0], [1]]>}
// CHECK-NEXT: %[[XA:.*]] = mesh.shard %[[X]] to %[[BOTH]] : tensor<8x8xf32>
// CHECK-DAG: mesh.shard %[[XA]] to %[[COLS]] annotate_for_users
// CHECK-DAG: %[[U:.*]] = mesh.shard %[[XA]] to %[[ROWS]] annotate_for_users
// CHECK: tosa.sigmoid %[[U]] {mesh.sharding_option = #mesh.sharding<@mesh, {{\[\[}}0]]>}
// COST-LABEL: func.func @lost_result
// COST-DAG: %[[BOTH:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}0], [1]] :
// COST-DAG: %[[COLS:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}], [1]] :
// COST: %[[X:.*]] = tosa.sigmoid %{{.*}} {mesh.sharding_option = #mesh.sharding<@mesh, {{\[\[}}0], [1]]>}
// COST-NEXT: %[[XA:.*]] = mesh.shard %[[X]] to %[[BOTH]] : tensor<8x8xf32>
// COST-NEXT: %[[U:.*]] = mesh.shard %[[XA]] to %[[COLS]] annotate_for_users
// COST-NEXT: %[[V:.*]] = mesh.shard %[[U]] to %[[BOTH]] annotate_for_users
// COST-NEXT: tosa.sigmoid %[[V]] {mesh.sharding_option = #mesh.sharding<@mesh, {{\[\[}}0], [1]]>}
func.func @lost_result(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %cols = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
  %a1 = mesh.shard %a to %rows annotate_for_users : tensor<8x8xf32>
  %0 = tosa.sigmoid %a1 : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = mesh.shard %0 to %cols : tensor<8x8xf32>
  %2 = tosa.sigmoid %1 : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %3 = mesh.shard %2 to %rows : tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}
