// [[0, 1]] -> [[1]] on a 2x3 mesh (the notes' second example and one of their
// basis moves), a tensor<6xf32> as in axis-swap.mlir: the order of the axes
// is swapped first, then the pieces are gathered over axis 0.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s --seed 1 -q | FileCheck %s
// CHECK: result 0: max error 0
// CHECK-NEXT: match

// IR-LABEL: func.func @drop_major_axis(
// IR-SAME: %arg0: tensor<1xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0, 1]]>}
// IR-SAME: -> (tensor<2xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}1]]>})
// IR: mesh.send
// IR: mesh.recv
// IR: mesh.all_gather
// IR: return

mesh.mesh @mesh(shape = 2x3)

func.func @drop_major_axis(%arg0: tensor<6xf32>) -> tensor<6xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[0, 1]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<6xf32>
  %s1 = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<6xf32>
  return %1 : tensor<6xf32>
}
