// First example of upstream's resharding notes
// (Dialect/Mesh/Transforms/ReshardingSpmdizationDoc.md): [[0, 1]] -> [[1, 0]]
// on a 2x3 mesh.  The notes draw a 2x3 tensor cut into six pieces along one
// dimension, which cannot split evenly; a tensor<6xf32> has the same six
// elements, one per device.  The argument arrives in the source layout, the
// result leaves in the target layout, and the assembled result must equal the
// unpartitioned program's (the identity).  The permutation is point-to-point
// (send/recv), see test/Transforms/test-mesh-resharding.mlir.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s --seed 1 -q | FileCheck %s
// CHECK: result 0: max error 0
// CHECK-NEXT: match

// IR-LABEL: func.func @axis_swap(
// IR-SAME: %arg0: tensor<1xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0, 1]]>}
// IR-SAME: -> (tensor<1xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}1, 0]]>})
// IR: mesh.send
// IR: mesh.recv
// IR: return

mesh.mesh @mesh(shape = 2x3)

func.func @axis_swap(%arg0: tensor<6xf32>) -> tensor<6xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[0, 1]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<6xf32>
  %s1 = mesh.sharding @mesh split_axes = [[1, 0]] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<6xf32>
  return %1 : tensor<6xf32>
}
