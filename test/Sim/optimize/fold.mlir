// An all_reduce of an all_reduce over disjoint axes is one all_reduce; an
// idempotent reduction over axes the value is already equal on is dropped.
// RUN: mesh-opt --mesh-optimize-collectives %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// The rewritten program gives every result bit for bit as before:
// RUN: mesh-run %s --seed 1 > %t.before.txt
// RUN: mesh-run %t.mlir --seed 1 > %t.after.txt
// RUN: diff %t.before.txt %t.after.txt
// RUN: mesh-run %s --seed 5 > %t.before5.txt
// RUN: mesh-run %t.mlir --seed 5 > %t.after5.txt
// RUN: diff %t.before5.txt %t.after5.txt
// IR: mesh.all_reduce %arg0 on @mesh mesh_axes = [0, 2] : tensor<8xi32> -> tensor<8xi32>
// IR: mesh.all_reduce %arg1 on @mesh mesh_axes = [0, 1, 2] reduction = <bitwise_xor>
// IR: %[[S:.*]] = mesh.all_reduce %arg0 on @mesh mesh_axes = [1] : tensor<8xi32> -> tensor<8xi32>
// IR: mesh.all_reduce %[[S]] on @mesh mesh_axes = [2] reduction = <max>
// IR: %[[G:.*]] = mesh.all_gather %arg2
// IR-NOT: mesh.all_reduce
// IR: return {{.*}}, %[[G]]

mesh.mesh @mesh(shape = 2x2x2)
func.func @f(%x: tensor<8xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0, 1, 2]>},
             %b: tensor<8xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = bitwise_xor [0, 1, 2]>},
             %y: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[0]]>})
    -> (tensor<8xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [1]>},
        tensor<8xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>},
        tensor<8xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = max [0]>},
        tensor<8xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>}) {
  %0 = mesh.all_reduce %x on @mesh mesh_axes = [2] : tensor<8xi32> -> tensor<8xi32>
  %1 = mesh.all_reduce %0 on @mesh mesh_axes = [0] : tensor<8xi32> -> tensor<8xi32>
  %2 = mesh.all_reduce %b on @mesh mesh_axes = [1] reduction = <bitwise_xor> : tensor<8xi32> -> tensor<8xi32>
  %3 = mesh.all_reduce %2 on @mesh mesh_axes = [2, 0] reduction = <bitwise_xor> : tensor<8xi32> -> tensor<8xi32>
  %4 = mesh.all_reduce %x on @mesh mesh_axes = [1] : tensor<8xi32> -> tensor<8xi32>
  %5 = mesh.all_reduce %4 on @mesh mesh_axes = [1, 2] reduction = <max> : tensor<8xi32> -> tensor<8xi32>
  %6 = mesh.all_gather %y on @mesh mesh_axes = [0] gather_axis = 0 : tensor<4xi32> -> tensor<8xi32>
  %7 = mesh.all_reduce %6 on @mesh mesh_axes = [0] reduction = <min> : tensor<8xi32> -> tensor<8xi32>
  return %1, %3, %5, %7 : tensor<8xi32>, tensor<8xi32>, tensor<8xi32>, tensor<8xi32>
}
