// The notes' 4-D mesh example, [[3, 2], [], [0, 1]] -> [[0], [1, 2], []], on
// a 2x2x2x2 mesh with an 8x8x8 tensor: a permutation of all 16 devices, an
// all_to_all and an all_gather.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s --seed 1 -q | FileCheck %s
// CHECK: result 0: max error 0
// CHECK-NEXT: match

// IR-LABEL: func.func @mesh_4d(
// IR-SAME: %arg0: tensor<2x8x2xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}3, 2], [], [0, 1]]>}
// IR-SAME: -> (tensor<4x2x8xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0], [1, 2]]>})
// IR: mesh.send
// IR: mesh.recv
// IR: mesh.all_to_all
// IR: mesh.all_gather
// IR: return

mesh.mesh @mesh(shape = 2x2x2x2)

func.func @mesh_4d(%arg0: tensor<8x8x8xf32>) -> tensor<8x8x8xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[3, 2], [], [0, 1]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<8x8x8xf32>
  %s1 = mesh.sharding @mesh split_axes = [[0], [1, 2], []] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<8x8x8xf32>
  return %1 : tensor<8x8x8xf32>
}
