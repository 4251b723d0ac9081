// An scf.execute_region whose region branches between blocks has no single
// terminator to carry a layout through: propagation leaves the region op
// alone (an op without a rule) and annotates the ops inside it, so the
// branch condition keeps its i1 type; partition then names the region.
// The region's result is whole: the ops in each branch read the split
// operand gathered (one reshard, shared by its four reads) and run whole,
// rather than run split and gather their results (a gather per branch).
// RUN: mesh-opt --sharding-propagation %s | FileCheck %s
// RUN: not mesh-opt --sharding-propagation=skip-unknown=true --mesh-partition %s 2>&1 | FileCheck %s --check-prefix=PART
// CHECK: %[[W:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}]] : !mesh.sharding
// CHECK: scf.execute_region -> tensor<4x4xf32> {
// CHECK-NEXT: cf.cond_br %arg1, ^bb1, ^bb2
// CHECK: %[[X:.*]] = mesh.shard %{{.*}} to %[[W]] annotate_for_users : tensor<4x4xf32>
// CHECK-NEXT: arith.addf %[[X]], %[[X]] {mesh.sharding_option = #mesh.sharding<@mesh, []>}
// CHECK-NEXT: %[[A:.*]] = mesh.shard %{{.*}} to %[[W]] : tensor<4x4xf32>
// CHECK-NEXT: scf.yield %[[A]] : tensor<4x4xf32>
// CHECK: %[[Y:.*]] = mesh.shard %{{.*}} to %[[W]] annotate_for_users : tensor<4x4xf32>
// CHECK-NEXT: arith.mulf %[[Y]], %[[Y]] {mesh.sharding_option = #mesh.sharding<@mesh, []>}
// CHECK-NEXT: %[[B:.*]] = mesh.shard %{{.*}} to %[[W]] : tensor<4x4xf32>
// CHECK-NEXT: scf.yield %[[B]] : tensor<4x4xf32>
// CHECK-NOT: : i1
// PART: branchy-region.mlir:[[@LINE+6]]:8: error: partition needs single-block regions: 'scf.execute_region' has a region of 3 blocks

mesh.mesh @mesh(shape = 2)
func.func @f(%x: tensor<4x4xf32>, %p: i1) -> tensor<4x4xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %x1 = mesh.shard %x to %s : tensor<4x4xf32>
  %r = scf.execute_region -> tensor<4x4xf32> {
    cf.cond_br %p, ^bb1, ^bb2
  ^bb1:
    %a = arith.addf %x1, %x1 : tensor<4x4xf32>
    scf.yield %a : tensor<4x4xf32>
  ^bb2:
    %b = arith.mulf %x1, %x1 : tensor<4x4xf32>
    scf.yield %b : tensor<4x4xf32>
  }
  %e = math.exp %r : tensor<4x4xf32>
  return %e : tensor<4x4xf32>
}
