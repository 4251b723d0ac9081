// Partial sums with a nonzero term on every device: a matmul whose
// contraction dimension is split over mesh axis 0 leaves a partial sum
// (split over axis 1 by its columns), which is resharded two ways:
// to replicated (all_reduce over axis 0, then all_gather over axis 1) and
// to [[0], [1]] (reduce_scatter over axis 0).  Small integers keep the sums
// exact.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s --seed 1 -q | FileCheck %s
// CHECK: result 0: max error 0
// CHECK-NEXT: result 1: max error 0
// CHECK-NEXT: match

// IR-LABEL: func.func @matmul_partial(
// IR-SAME: -> (tensor<4x6xi32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}]]>}, tensor<2x2xi32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0], [1]]>})
// IR: %[[M:.*]] = linalg.matmul ins(%arg0, %arg1 : tensor<4x3xi32>, tensor<3x2xi32>) outs(%{{.*}} : tensor<4x2xi32>)
// IR-NEXT: %[[R:.*]] = mesh.all_reduce %[[M]] on @mesh mesh_axes = [0] : tensor<4x2xi32> -> tensor<4x2xi32>
// IR-NEXT: %[[G:.*]] = mesh.all_gather %[[R]] on @mesh mesh_axes = [1] gather_axis = 1 : tensor<4x2xi32> -> tensor<4x6xi32>
// IR-NEXT: %[[S:.*]] = mesh.reduce_scatter %[[M]] on @mesh mesh_axes = [0] scatter_axis = 0 : tensor<4x2xi32> -> tensor<2x2xi32>
// IR-NEXT: return %[[G]], %[[S]]

mesh.mesh @mesh(shape = 2x3)

func.func @matmul_partial(%a: tensor<4x6xi32>, %b: tensor<6x6xi32>) -> (tensor<4x6xi32>, tensor<4x6xi32>) {
  %sa = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %a0 = mesh.shard %a to %sa : tensor<4x6xi32>
  %a1 = mesh.shard %a0 to %sa annotate_for_users : tensor<4x6xi32>
  %sb = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %b0 = mesh.shard %b to %sb : tensor<6x6xi32>
  %b1 = mesh.shard %b0 to %sb annotate_for_users : tensor<6x6xi32>
  %c0 = arith.constant 0 : i32
  %sc = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
  %e = tensor.empty() : tensor<4x6xi32>
  %e0 = mesh.shard %e to %sc : tensor<4x6xi32>
  %z = linalg.fill ins(%c0 : i32) outs(%e0 : tensor<4x6xi32>) -> tensor<4x6xi32>
  %z0 = mesh.shard %z to %sc : tensor<4x6xi32>
  %z1 = mesh.shard %z0 to %sc annotate_for_users : tensor<4x6xi32>
  %m = linalg.matmul ins(%a1, %b1 : tensor<4x6xi32>, tensor<6x6xi32>) outs(%z1 : tensor<4x6xi32>) -> tensor<4x6xi32>
  %sp = mesh.sharding @mesh split_axes = [[], [1]] partial = sum [0] : !mesh.sharding
  %m0 = mesh.shard %m to %sp : tensor<4x6xi32>
  %srep = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %r = mesh.shard %m0 to %srep annotate_for_users : tensor<4x6xi32>
  %ssplit = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %s = mesh.shard %m0 to %ssplit annotate_for_users : tensor<4x6xi32>
  return %r, %s : tensor<4x6xi32>, tensor<4x6xi32>
}
