// [[0], [1]] -> [[1], [0]] for a KxL tensor on an MxN mesh, the general
// case of upstream's resharding notes
// (Dialect/Mesh/Transforms/ReshardingSpmdizationDoc.md), which derive the
// index maps and leave the algorithm open.  Their two checks use a 3x4 and
// a 5x2 mesh with sizes that do not divide (refused, see
// test/Transforms/test-mesh-resharding-uneven.mlir); these use the same
// meshes with K and L that split evenly both ways.  The module is
// partitioned once and each function run on its own mesh.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir -f transpose_3x4 --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir -f transpose_3x4 --compare-with %s --seed 1 -q | FileCheck %s
// RUN: mesh-run %t.mlir -f transpose_5x2 --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir -f transpose_5x2 --compare-with %s --seed 1 -q | FileCheck %s
// CHECK: result 0: max error 0
// CHECK-NEXT: match

// IR-LABEL: func.func @transpose_3x4(
// IR-SAME: %arg0: tensor<4x6xf32> {mesh.sharding = #mesh.sharding<@mesh3x4, {{\[\[}}0], [1]]>}
// IR-SAME: -> (tensor<3x8xf32> {mesh.sharding = #mesh.sharding<@mesh3x4, {{\[\[}}1], [0]]>})
// IR-COUNT-3: mesh.all_to_all
// IR-NEXT: return
// IR-LABEL: func.func @transpose_5x2(
// IR-SAME: %arg0: tensor<2x10xf32> {mesh.sharding = #mesh.sharding<@mesh5x2, {{\[\[}}0], [1]]>}
// IR-SAME: -> (tensor<5x4xf32> {mesh.sharding = #mesh.sharding<@mesh5x2, {{\[\[}}1], [0]]>})
// IR-COUNT-3: mesh.all_to_all
// IR-NEXT: return

mesh.mesh @mesh3x4(shape = 3x4)
mesh.mesh @mesh5x2(shape = 5x2)

// M=3, N=4, K=12, L=24: source tiles 4x6, target tiles 3x8.
func.func @transpose_3x4(%arg0: tensor<12x24xf32>) -> tensor<12x24xf32> {
  %s0 = mesh.sharding @mesh3x4 split_axes = [[0], [1]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<12x24xf32>
  %s1 = mesh.sharding @mesh3x4 split_axes = [[1], [0]] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<12x24xf32>
  return %1 : tensor<12x24xf32>
}

// M=5, N=2, K=10, L=20: source tiles 2x10, target tiles 5x4.
func.func @transpose_5x2(%arg0: tensor<10x20xf32>) -> tensor<10x20xf32> {
  %s0 = mesh.sharding @mesh5x2 split_axes = [[0], [1]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<10x20xf32>
  %s1 = mesh.sharding @mesh5x2 split_axes = [[1], [0]] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<10x20xf32>
  return %1 : tensor<10x20xf32>
}
