// A partial max with a different term on every device: the maximum of each
// row, with the columns split over mesh axis 0, leaves a partial max over
// axis 0, resharded to rows split over axis 1: an all_slice over axis 1,
// then an all_reduce of kind max over axis 0.  (An argument that arrives as
// a partial max would hold the value on every device, which tests less.)
// RUN: mesh-opt --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s --seed 1 -q | FileCheck %s
// CHECK: result 0: max error 0
// CHECK-NEXT: match

// IR-LABEL: func.func @row_max(
// IR-SAME: %arg0: tensor<6x2xi32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}], [0]]>}
// IR-SAME: -> (tensor<2xi32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}1]]>})
// IR: %[[M:.*]] = linalg.generic
// IR: %[[S:.*]] = mesh.all_slice %[[M]] on @mesh mesh_axes = [1] slice_axis = 0 : tensor<6xi32> -> tensor<2xi32>
// IR-NEXT: %[[R:.*]] = mesh.all_reduce %[[S]] on @mesh mesh_axes = [0] reduction = <max> : tensor<2xi32> -> tensor<2xi32>
// IR-NEXT: return %[[R]]

#in = affine_map<(i, j) -> (i, j)>
#out = affine_map<(i, j) -> (i)>

mesh.mesh @mesh(shape = 2x3)

func.func @row_max(%a: tensor<6x4xi32>) -> tensor<6xi32> {
  %sa = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %a0 = mesh.shard %a to %sa : tensor<6x4xi32>
  %a1 = mesh.shard %a0 to %sa annotate_for_users : tensor<6x4xi32>
  %lowest = arith.constant -100 : i32
  %e = tensor.empty() : tensor<6xi32>
  %init = linalg.fill ins(%lowest : i32) outs(%e : tensor<6xi32>) -> tensor<6xi32>
  %m = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]}
      ins(%a1 : tensor<6x4xi32>) outs(%init : tensor<6xi32>) {
  ^bb0(%x: i32, %acc: i32):
    %y = arith.maxsi %x, %acc : i32
    linalg.yield %y : i32
  } -> tensor<6xi32>
  %sp = mesh.sharding @mesh split_axes = [[]] partial = max [0] : !mesh.sharding
  %m0 = mesh.shard %m to %sp : tensor<6xi32>
  %st = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
  %r = mesh.shard %m0 to %st annotate_for_users : tensor<6xi32>
  return %r : tensor<6xi32>
}
