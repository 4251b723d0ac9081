// Collectives over one-device groups are erased.
// RUN: mesh-opt --mesh-optimize-collectives %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// The rewritten program gives every result bit for bit as before:
// RUN: mesh-run %s --seed 1 > %t.before.txt
// RUN: mesh-run %t.mlir --seed 1 > %t.after.txt
// RUN: diff %t.before.txt %t.after.txt
// RUN: mesh-run %s --seed 5 > %t.before5.txt
// RUN: mesh-run %t.mlir --seed 5 > %t.after5.txt
// RUN: diff %t.before5.txt %t.after5.txt
// IR: %[[R:.*]] = mesh.all_reduce %arg0 on @mesh mesh_axes = [0]
// IR-NEXT: return %arg0, %arg1, %[[R]]

mesh.mesh @mesh(shape = 2x1)
func.func @f(%x: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0]>},
             %y: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[0]]>})
    -> (tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0]>},
        tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[0]]>},
        tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>}) {
  %0 = mesh.all_reduce %x on @mesh mesh_axes = [] : tensor<4xi32> -> tensor<4xi32>
  %1 = mesh.all_gather %y on @mesh mesh_axes = [1] gather_axis = 0 : tensor<4xi32> -> tensor<4xi32>
  %2 = mesh.all_reduce %x on @mesh mesh_axes = [0] : tensor<4xi32> -> tensor<4xi32>
  return %0, %1, %2 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}
