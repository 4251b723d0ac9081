// A mesh symbol is looked up in the nearest module, so two nested modules
// may each define their own @mesh: each function is partitioned on its own
// module's mesh (@f's 2 devices hold 4 rows each, @g's 4 hold 2), and
// mesh-analysis counts each on its own.  The simulator's tables are flat:
// it refuses the two meshes rather than pick one.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-opt --mesh-analysis %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ANALYSIS
// RUN: not mesh-run %t.mlir --function f 2>&1 | FileCheck %s --check-prefix=SIM
// CHECK-LABEL: module @a
// CHECK: func.func @f(%arg0: tensor<4xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>})
// CHECK-LABEL: module @b
// CHECK: func.func @g(%arg0: tensor<2xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>})
// ANALYSIS: @f on @mesh (shape 2, 2 devices)
// ANALYSIS: @g on @mesh (shape 4, 4 devices)
// SIM: mesh @mesh is defined twice in nested modules (differently); simulate each module on its own

module @a {
  mesh.mesh @mesh(shape = 2)
  func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
    %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %0 = mesh.shard %x to %s : tensor<8xf32>
    %1 = arith.addf %0, %0 : tensor<8xf32>
    %2 = mesh.shard %1 to %s : tensor<8xf32>
    return %2 : tensor<8xf32>
  }
}
module @b {
  mesh.mesh @mesh(shape = 4)
  func.func @g(%x: tensor<8xf32>) -> tensor<8xf32> {
    %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %0 = mesh.shard %x to %s : tensor<8xf32>
    %1 = arith.addf %0, %0 : tensor<8xf32>
    %2 = mesh.shard %1 to %s : tensor<8xf32>
    return %2 : tensor<8xf32>
  }
}
