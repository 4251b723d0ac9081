// [[0], [1, 2]] -> [[0, 1], [2]] on a 2x2x2 mesh, a 4x4 tensor (the notes'
// example that one all_to_all cannot do).  The collectives would swap axes 1
// and 2, then all_to_all over axis 1: 12 bytes per device, some of them
// moved twice.  A device lacks 8 bytes of its new piece (two 1x1 blocks,
// one of which it may hold): the exchange receives just those, one block
// per round, in two rounds (no more than the collectives' two steps).
// RUN: mesh-opt --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s --seed 1 -q | FileCheck %s
// CHECK: result 0: max error 0
// CHECK-NEXT: match

// IR-LABEL: func.func @split_both_2x2x2(
// IR-SAME: %arg0: tensor<2x1xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0], [1, 2]]>}
// IR-SAME: -> (tensor<1x2xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0, 1], [2]]>})
// IR-NOT: mesh.all_
// IR: mesh.send {{.*}} : (tensor<1x1xf32>, index, index, index) -> tensor<1x1xf32>
// IR: mesh.recv {{.*}} : (tensor<1x1xf32>, index, index, index) -> tensor<1x1xf32>
// IR: mesh.send
// IR: mesh.send
// IR: mesh.recv
// IR: mesh.send
// IR-NOT: mesh.
// IR: return

mesh.mesh @mesh(shape = 2x2x2)

func.func @split_both_2x2x2(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[0], [1, 2]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<4x4xf32>
  %s1 = mesh.sharding @mesh split_axes = [[0, 1], [2]] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}
