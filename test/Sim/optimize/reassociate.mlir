// Two all_reduces combined by their kind's operator become one.
// RUN: mesh-opt --mesh-optimize-collectives %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// The rewritten program gives every result bit for bit as before:
// RUN: mesh-run %s --seed 1 > %t.before.txt
// RUN: mesh-run %t.mlir --seed 1 > %t.after.txt
// RUN: diff %t.before.txt %t.after.txt
// RUN: mesh-run %s --seed 5 > %t.before5.txt
// RUN: mesh-run %t.mlir --seed 5 > %t.after5.txt
// RUN: diff %t.before5.txt %t.after5.txt
// IR: %[[A:.*]] = arith.addi %arg0, %arg1 : tensor<4xi32>
// IR-NEXT: mesh.all_reduce %[[A]] on @mesh mesh_axes = [0, 1] : tensor<4xi32> -> tensor<4xi32>
// IR-NEXT: %[[M:.*]] = arith.maxsi %arg2, %arg3 : tensor<4xi32>
// IR-NEXT: mesh.all_reduce %[[M]] on @mesh mesh_axes = [1] reduction = <max>
// IR: %[[L:.*]] = linalg.add ins(%arg4, %arg5
// IR-NEXT: mesh.all_reduce %[[L]] on @mesh mesh_axes = [0, 1] : tensor<4xi32> -> tensor<4xi32>
// IR-NOT: mesh.all_reduce

mesh.mesh @mesh(shape = 2x2)
func.func @f(%a: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0, 1]>},
             %b: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0, 1]>},
             %c: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = max [1]>},
             %d: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = max [1]>},
             %p: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0, 1]>},
             %q: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0, 1]>})
    -> (tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>},
        tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>},
        tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>}) {
  %0 = mesh.all_reduce %a on @mesh mesh_axes = [0, 1] : tensor<4xi32> -> tensor<4xi32>
  %1 = mesh.all_reduce %b on @mesh mesh_axes = [1, 0] : tensor<4xi32> -> tensor<4xi32>
  %2 = arith.addi %0, %1 : tensor<4xi32>
  %3 = mesh.all_reduce %c on @mesh mesh_axes = [1] reduction = <max> : tensor<4xi32> -> tensor<4xi32>
  %4 = mesh.all_reduce %d on @mesh mesh_axes = [1] reduction = <max> : tensor<4xi32> -> tensor<4xi32>
  %5 = arith.maxsi %3, %4 : tensor<4xi32>
  %6 = mesh.all_reduce %p on @mesh mesh_axes = [0, 1] : tensor<4xi32> -> tensor<4xi32>
  %7 = mesh.all_reduce %q on @mesh mesh_axes = [0, 1] : tensor<4xi32> -> tensor<4xi32>
  %e = tensor.empty() : tensor<4xi32>
  %8 = linalg.add ins(%6, %7 : tensor<4xi32>, tensor<4xi32>) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  %9 = arith.muli %2, %5 : tensor<4xi32>
  %10 = arith.subi %9, %8 : tensor<4xi32>
  return %2, %5, %10 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}
