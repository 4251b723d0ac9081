// Elementwise work after an all_reduce runs on 1/g of the data between a
// reduce_scatter and an all_gather.
// RUN: mesh-opt --mesh-optimize-collectives %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// The rewritten program gives every result bit for bit as before:
// RUN: mesh-run %s --seed 1 > %t.before.txt
// RUN: mesh-run %t.mlir --seed 1 > %t.after.txt
// RUN: diff %t.before.txt %t.after.txt
// RUN: mesh-run %s --seed 5 > %t.before5.txt
// RUN: mesh-run %t.mlir --seed 5 > %t.after5.txt
// RUN: diff %t.before5.txt %t.after5.txt
// IR: %[[R:.*]] = mesh.reduce_scatter %arg0 on @mesh mesh_axes = [0, 1] scatter_axis = 1 : tensor<3x8xi32> -> tensor<3x2xi32>
// IR-NEXT: %[[A:.*]] = math.absi %[[R]] : tensor<3x2xi32>
// IR-NEXT: %[[T:.*]] = arith.trunci %[[A]] : tensor<3x2xi32> to tensor<3x2xi16>
// IR-NEXT: mesh.all_gather %[[T]] on @mesh mesh_axes = [0, 1] gather_axis = 1 : tensor<3x2xi16> -> tensor<3x8xi16>
// IR: mesh.reduce_scatter %arg1 on @mesh mesh_axes = [1] reduction = <min> scatter_axis = 0 : tensor<4x3xi32> -> tensor<2x3xi32>
// IR-NOT: mesh.all_reduce

mesh.mesh @mesh(shape = 2x2)
func.func @f(%x: tensor<3x8xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0, 1]>},
             %y: tensor<4x3xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = min [1]>})
    -> (tensor<3x8xi16> {mesh.sharding = #mesh.sharding<@mesh, [[]]>},
        tensor<4x3xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>}) {
  %0 = mesh.all_reduce %x on @mesh mesh_axes = [0, 1] : tensor<3x8xi32> -> tensor<3x8xi32>
  %1 = math.absi %0 : tensor<3x8xi32>
  %2 = arith.trunci %1 : tensor<3x8xi32> to tensor<3x8xi16>
  %3 = mesh.all_reduce %y on @mesh mesh_axes = [1] reduction = <min> : tensor<4x3xi32> -> tensor<4x3xi32>
  %4 = math.absi %3 : tensor<4x3xi32>
  return %2, %4 : tensor<3x8xi16>, tensor<4x3xi32>
}
