// Elementwise work on gathered values runs on the pieces; the result is
// gathered once.
// RUN: mesh-opt --mesh-optimize-collectives %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// The rewritten program gives every result bit for bit as before:
// RUN: mesh-run %s --seed 1 > %t.before.txt
// RUN: mesh-run %t.mlir --seed 1 > %t.after.txt
// RUN: diff %t.before.txt %t.after.txt
// RUN: mesh-run %s --seed 5 > %t.before5.txt
// RUN: mesh-run %t.mlir --seed 5 > %t.after5.txt
// RUN: diff %t.before5.txt %t.after5.txt
// IR: %[[M:.*]] = arith.muli %arg0, %arg1 : tensor<2x3xi32>
// IR-NEXT: %[[A:.*]] = math.absi %[[M]] : tensor<2x3xi32>
// IR-NEXT: %[[G:.*]] = mesh.all_gather %[[A]] on @mesh mesh_axes = [0] gather_axis = 0 : tensor<2x3xi32> -> tensor<8x3xi32>
// IR-NEXT: return %[[G]]

mesh.mesh @mesh(shape = 4)
func.func @f(%x: tensor<2x3xi32> {mesh.sharding = #mesh.sharding<@mesh, [[0]]>},
             %y: tensor<2x3xi32> {mesh.sharding = #mesh.sharding<@mesh, [[0]]>})
    -> (tensor<8x3xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>}) {
  %0 = mesh.all_gather %x on @mesh mesh_axes = [0] gather_axis = 0 : tensor<2x3xi32> -> tensor<8x3xi32>
  %1 = mesh.all_gather %y on @mesh mesh_axes = [0] gather_axis = 0 : tensor<2x3xi32> -> tensor<8x3xi32>
  %2 = arith.muli %0, %1 : tensor<8x3xi32>
  %3 = math.absi %2 : tensor<8x3xi32>
  return %3 : tensor<8x3xi32>
}
