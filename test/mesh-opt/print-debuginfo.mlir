// --mlir-print-debuginfo prints each op's location: the user's file, with the
// line and column where the op was written, however the custom syntax of the
// mesh ops was rewritten on the way in.
// RUN: mesh-opt --mlir-print-debuginfo %s | FileCheck %s -DFILE=%s
// Locations survive --split-input-file (lines are those of the whole file)
// and a pass pipeline that keeps the ops.
// RUN: mesh-opt --mlir-print-debuginfo --split-input-file %s | FileCheck %s -DFILE=%s --check-prefix=SPLIT
// RUN: mesh-opt --mlir-print-debuginfo -canonicalize %s | FileCheck %s -DFILE=%s

// CHECK-LABEL: module {
// CHECK: mesh.mesh @mesh0(shape = 2x4) loc([[MESH0:#loc[0-9]+]])
// CHECK: mesh.mesh @mesh1(shape = ?x4) loc([[MESH1:#loc[0-9]+]])
mesh.mesh @mesh0(shape = 2x4)
    mesh.mesh @mesh1(shape = ?x4)

// CHECK: func.func @f(%arg0: tensor<4x8xf32> loc("[[FILE]]":[[@LINE+1]]:14)) -> tensor<4x32xf32> {
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x32xf32> {
  // CHECK-NEXT: %0 = mesh.sharding @mesh0 split_axes = {{\[\[}}0]] : !mesh.sharding loc([[SHARDING:#loc[0-9]+]])
  %s = mesh.sharding @mesh0 split_axes = [[0]] : !mesh.sharding
  // CHECK-NEXT: %1 = mesh.shard %arg0 to %0 : tensor<4x8xf32> loc([[SHARD:#loc[0-9]+]])
        %0 = mesh.shard %x to %s : tensor<4x8xf32>
  // CHECK-NEXT: %2 = mesh.all_gather %1 on @mesh0 mesh_axes = [1] gather_axis = 1 : tensor<4x8xf32> -> tensor<4x32xf32> loc([[GATHER:#loc[0-9]+]])
  %1 = mesh.all_gather %0 on @mesh0
         mesh_axes = [1]
         gather_axis = 1 : tensor<4x8xf32> -> tensor<4x32xf32>
  // CHECK-NEXT: %3 = arith.addf %2, %2 : tensor<4x32xf32> loc([[ADD:#loc[0-9]+]])
  %2 = arith.addf %1, %1 : tensor<4x32xf32>
  // CHECK-NEXT: return %3 : tensor<4x32xf32> loc([[RET:#loc[0-9]+]])
  return %2 : tensor<4x32xf32>
// CHECK-NEXT: } loc([[FUNC:#loc[0-9]+]])
}
// CHECK-DAG: [[MESH0]] = loc("[[FILE]]":13:1)
// CHECK-DAG: [[MESH1]] = loc("[[FILE]]":14:5)
// CHECK-DAG: [[FUNC]] = loc("[[FILE]]":17:1)
// CHECK-DAG: [[SHARDING]] = loc("[[FILE]]":19:8)
// CHECK-DAG: [[SHARD]] = loc("[[FILE]]":21:14)
// CHECK-DAG: [[GATHER]] = loc("[[FILE]]":23:8)
// CHECK-DAG: [[ADD]] = loc("[[FILE]]":27:8)
// CHECK-DAG: [[RET]] = loc("[[FILE]]":29:3)

// -----

// SPLIT: mesh.mesh @mesh2(shape = 8) loc([[M2:#loc[0-9]*]])
// SPLIT: [[M2]] = loc("[[FILE]]":[[@LINE+1]]:3)
  mesh.mesh @mesh2(shape = 8)
