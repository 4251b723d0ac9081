// [[0], []] -> [[], [0]] on a mesh of 3, a 6x6 tensor (the notes' example of
// moving a mesh axis to another tensor dimension): one all_to_all.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s --seed 1 -q | FileCheck %s
// CHECK: result 0: max error 0
// CHECK-NEXT: match

// IR-LABEL: func.func @move_axis_mesh3(
// IR-SAME: %arg0: tensor<2x6xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>}
// IR-SAME: -> (tensor<6x2xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}], [0]]>})
// IR: mesh.all_to_all
// IR: return

mesh.mesh @mesh(shape = 3)

func.func @move_axis_mesh3(%arg0: tensor<6x6xf32>) -> tensor<6x6xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[0], []] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<6x6xf32>
  %s1 = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<6x6xf32>
  return %1 : tensor<6x6xf32>
}
