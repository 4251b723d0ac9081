// A whole float value becomes an average partial with no communication: every
// device holds the value itself, whose average over the group is the value.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 1 | FileCheck %s
// CHECK: result 0: max error 0
// CHECK-NEXT: match
// IR: -> (tensor<2x4xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]], partial = average [1]>})
// IR-NEXT: %[[B:.*]] = arith.addf %arg0, %arg0 : tensor<4x4xf32>
// IR-NEXT: %[[S:.*]] = mesh.all_slice %[[B]] on @mesh mesh_axes = [0] slice_axis = 0 : tensor<4x4xf32> -> tensor<2x4xf32>
// IR-NEXT: return %[[S]]

mesh.mesh @mesh(shape = 2x2)
func.func @f(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] partial = average [1] : !mesh.sharding
  %b = arith.addf %a, %a : tensor<4x4xf32>
  %b1 = mesh.shard %b to %s annotate_for_users : tensor<4x4xf32>
  return %b1 : tensor<4x4xf32>
}
