// [[0], [1, 2]] -> [[0], [2]] on a 2x2x2 mesh, a 4x8 tensor (the notes' 3-D
// mesh example that an all_gather over axis 1 alone cannot do): a swap of
// axes 1 and 2, then an all_gather over axis 1.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s --seed 1 -q | FileCheck %s
// CHECK: result 0: max error 0
// CHECK-NEXT: match

// IR-LABEL: func.func @drop_axis_2x2x2(
// IR-SAME: %arg0: tensor<2x2xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0], [1, 2]]>}
// IR-SAME: -> (tensor<2x4xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0], [2]]>})
// IR: mesh.send
// IR: mesh.recv
// IR: mesh.all_gather
// IR: return

mesh.mesh @mesh(shape = 2x2x2)

func.func @drop_axis_2x2x2(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[0], [1, 2]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<4x8xf32>
  %s1 = mesh.sharding @mesh split_axes = [[0], [2]] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
