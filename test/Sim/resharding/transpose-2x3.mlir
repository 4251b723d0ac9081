// [[0], [1]] -> [[1], [0]] on a 2x3 mesh, a 6x6 tensor (an example the notes
// leave without an algorithm, and the one they decompose into basis moves):
// three all_to_alls.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s --seed 1 -q | FileCheck %s
// CHECK: result 0: max error 0
// CHECK-NEXT: match

// IR-LABEL: func.func @transpose_2x3(
// IR-SAME: %arg0: tensor<3x2xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0], [1]]>}
// IR-SAME: -> (tensor<2x3xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}1], [0]]>})
// IR: mesh.all_to_all
// IR: mesh.all_to_all
// IR: mesh.all_to_all
// IR: return

mesh.mesh @mesh(shape = 2x3)

func.func @transpose_2x3(%arg0: tensor<6x6xf32>) -> tensor<6x6xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<6x6xf32>
  %s1 = mesh.sharding @mesh split_axes = [[1], [0]] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<6x6xf32>
  return %1 : tensor<6x6xf32>
}
