// A function of several blocks: branches pass whole values, so a split value
// is gathered at the branch (with a remark) and a block argument annotated
// split is sliced again, without communication.
// RUN: mesh-opt --mesh-partition %s 2>&1 | FileCheck %s

// CHECK: :[[#@LINE+17]]:3: remark: no sharding rule for 'cf.cond_br': operand 1 (split_axes = {{\[\[}}0]]) gathered whole on every device
// CHECK-LABEL: func.func @branches(%arg0: i1, %arg1: tensor<2x8xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>}) -> (tensor<2x8xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>})
// CHECK-NEXT: %[[B:.*]] = arith.addf %arg1, %arg1 : tensor<2x8xf32>
// CHECK-NEXT: %[[W:.*]] = mesh.all_gather %[[B]] on @mesh mesh_axes = [0] gather_axis = 0 : tensor<2x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT: cf.cond_br %arg0, ^bb1(%[[W]] : tensor<4x8xf32>), ^bb2
// CHECK-NEXT: ^bb1(%[[X:.*]]: tensor<4x8xf32>):
// CHECK-NEXT: %[[S:.*]] = mesh.all_slice %[[X]] on @mesh mesh_axes = [0] slice_axis = 0 : tensor<4x8xf32> -> tensor<2x8xf32>
// CHECK-NEXT: %[[Y:.*]] = arith.mulf %[[S]], %[[S]] : tensor<2x8xf32>
// CHECK-NEXT: return %[[Y]] : tensor<2x8xf32>
// CHECK-NEXT: ^bb2:
// CHECK-NEXT: return %[[B]] : tensor<2x8xf32>
mesh.mesh @mesh(shape = 2)
func.func @branches(%p: i1, %a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a0 = mesh.shard %a to %s : tensor<4x8xf32>
  %b = arith.addf %a0, %a0 : tensor<4x8xf32>
  %b0 = mesh.shard %b to %s : tensor<4x8xf32>
  cf.cond_br %p, ^bb1(%b0 : tensor<4x8xf32>), ^bb2
^bb1(%x: tensor<4x8xf32>):
  %x0 = mesh.shard %x to %s : tensor<4x8xf32>
  %y = arith.mulf %x0, %x0 : tensor<4x8xf32>
  %y0 = mesh.shard %y to %s : tensor<4x8xf32>
  return %y0 : tensor<4x8xf32>
^bb2:
  return %b0 : tensor<4x8xf32>
}
