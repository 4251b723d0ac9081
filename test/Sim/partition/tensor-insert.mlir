// tensor.insert writes one element at indices known only at run time: the
// tensor it writes into is read whole (gathered where it arrives split) and
// its result is cut again where an annotation asks; propagation takes it
// instead of refusing an op without a rule.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 3 | FileCheck %s --check-prefix=SIM
// SIM: match

// CHECK-LABEL: func.func @write_one
// CHECK-SAME: %arg0: tensor<3x4xf32>
// CHECK: %[[W:.*]] = mesh.all_gather %{{.*}} on @mesh mesh_axes = [0] gather_axis = 0 : tensor<3x4xf32> -> tensor<6x4xf32>
// CHECK: %[[I:.*]] = tensor.insert %arg1 into %[[W]][%{{.*}}, %{{.*}}] : tensor<6x4xf32>
// CHECK: mesh.all_slice %[[I]] on @mesh mesh_axes = [0] slice_axis = 0 : tensor<6x4xf32> -> tensor<3x4xf32>
// CHECK: arith.mulf %{{.*}}, %{{.*}} : tensor<3x4xf32>

mesh.mesh @mesh(shape = 2)
func.func @write_one(%a: tensor<6x4xf32>, %v: f32, %i: index, %j: index) -> tensor<6x4xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a0 = mesh.shard %a to %s annotate_for_users : tensor<6x4xf32>
  %c6 = arith.constant 6 : index
  %c4 = arith.constant 4 : index
  %row = arith.remui %i, %c6 : index
  %col = arith.remui %j, %c4 : index
  %w = tensor.insert %v into %a0[%row, %col] : tensor<6x4xf32>
  %w0 = mesh.shard %w to %s : tensor<6x4xf32>
  %sq = arith.mulf %w0, %w0 : tensor<6x4xf32>
  %r = mesh.shard %sq to %s : tensor<6x4xf32>
  return %r : tensor<6x4xf32>
}
