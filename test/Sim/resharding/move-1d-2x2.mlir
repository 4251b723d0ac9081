// A 1-D move between two mesh axes of the same size, [[0]] -> [[1]] on a 2x2
// mesh: one permutation of the devices.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s --seed 1 -q | FileCheck %s
// CHECK: result 0: max error 0
// CHECK-NEXT: match

// IR-LABEL: func.func @move_1d_2x2(
// IR-SAME: %arg0: tensor<2xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>}
// IR-SAME: -> (tensor<2xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}1]]>})
// IR: mesh.send
// IR: mesh.recv
// IR: return

mesh.mesh @mesh(shape = 2x2)

func.func @move_1d_2x2(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<4xf32>
  %s1 = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<4xf32>
  return %1 : tensor<4xf32>
}
