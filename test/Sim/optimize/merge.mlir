// Identical collectives of one value are done once.
// RUN: mesh-opt --mesh-optimize-collectives %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// The rewritten program gives every result bit for bit as before:
// RUN: mesh-run %s --seed 1 > %t.before.txt
// RUN: mesh-run %t.mlir --seed 1 > %t.after.txt
// RUN: diff %t.before.txt %t.after.txt
// RUN: mesh-run %s --seed 5 > %t.before5.txt
// RUN: mesh-run %t.mlir --seed 5 > %t.after5.txt
// RUN: diff %t.before5.txt %t.after5.txt
// IR-COUNT-1: mesh.all_gather
// IR-COUNT-1: mesh.all_to_all
// IR-NOT: mesh.

mesh.mesh @mesh(shape = 2x2)
func.func @f(%x: tensor<4x2xi32> {mesh.sharding = #mesh.sharding<@mesh, [[], [0]]>})
    -> (tensor<4x4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>},
        tensor<2x4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[0]]>}) {
  %0 = mesh.all_gather %x on @mesh mesh_axes = [0] gather_axis = 1 : tensor<4x2xi32> -> tensor<4x4xi32>
  %1 = mesh.all_gather %x on @mesh mesh_axes = [0] gather_axis = 1 : tensor<4x2xi32> -> tensor<4x4xi32>
  %2 = arith.muli %0, %1 : tensor<4x4xi32>
  %3 = mesh.all_to_all %x on @mesh mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<4x2xi32> -> tensor<2x4xi32>
  %4 = mesh.all_to_all %x on @mesh mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<4x2xi32> -> tensor<2x4xi32>
  %5 = arith.subi %3, %4 : tensor<2x4xi32>
  %6 = arith.addi %5, %3 : tensor<2x4xi32>
  return %2, %6 : tensor<4x4xi32>, tensor<2x4xi32>
}
