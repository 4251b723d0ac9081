// Split over axis 1 and partial sum over axis 0 -> replicated on a 2x3 mesh:
// an all_reduce, then an all_gather.  The argument arrives partial as in
// partial-to-replicated.mlir.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s --seed 1 -q | FileCheck %s
// CHECK: result 0: max error 0
// CHECK-NEXT: match

// IR-LABEL: func.func @partial_split_to_replicated(
// IR-SAME: %arg0: tensor<4x2xi32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}], [1]], partial = sum [0]>}
// IR-SAME: -> (tensor<4x6xi32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}]]>})
// IR: mesh.all_reduce
// IR: mesh.all_gather
// IR: return

mesh.mesh @mesh(shape = 2x3)

func.func @partial_split_to_replicated(%arg0: tensor<4x6xi32>) -> tensor<4x6xi32> {
  %s0 = mesh.sharding @mesh split_axes = [[], [1]] partial = sum [0] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<4x6xi32>
  %s1 = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<4x6xi32>
  return %1 : tensor<4x6xi32>
}
