// [[0], [1]] -> [[1], [0]] on a 2x3 mesh for a KxL tensor whose source tiles
// (3x4) and target tiles (2x6) differ in shape: the notes' tiling picture,
// left without an algorithm, with K=6, L=12.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s --seed 1 -q | FileCheck %s
// CHECK: result 0: max error 0
// CHECK-NEXT: match

// IR-LABEL: func.func @transpose_2x3_tiles(
// IR-SAME: %arg0: tensor<3x4xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0], [1]]>}
// IR-SAME: -> (tensor<2x6xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}1], [0]]>})
// IR: mesh.all_to_all
// IR: mesh.all_to_all
// IR: mesh.all_to_all
// IR: return

mesh.mesh @mesh(shape = 2x3)

func.func @transpose_2x3_tiles(%arg0: tensor<6x12xf32>) -> tensor<6x12xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<6x12xf32>
  %s1 = mesh.sharding @mesh split_axes = [[1], [0]] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<6x12xf32>
  return %1 : tensor<6x12xf32>
}
