// An all_reduce then an all_slice over the same devices is a reduce_scatter.
// RUN: mesh-opt --mesh-optimize-collectives %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// The rewritten program gives every result bit for bit as before:
// RUN: mesh-run %s --seed 1 > %t.before.txt
// RUN: mesh-run %t.mlir --seed 1 > %t.after.txt
// RUN: diff %t.before.txt %t.after.txt
// RUN: mesh-run %s --seed 5 > %t.before5.txt
// RUN: mesh-run %t.mlir --seed 5 > %t.after5.txt
// RUN: diff %t.before5.txt %t.after5.txt
// --compare-with takes a per-device reference too (run on its own mesh):
// RUN: mesh-run %t.mlir --compare-with %s --seed 2 -q | FileCheck %s --check-prefix=MATCH
// MATCH: match
// IR-NOT: mesh.all_reduce
// IR-NOT: mesh.all_slice
// IR: mesh.reduce_scatter %arg0 on @mesh mesh_axes = [1, 0] reduction = <max> scatter_axis = 1 : tensor<4x8xi32> -> tensor<4x2xi32>
// IR: mesh.reduce_scatter %arg1 on @mesh mesh_axes = [0] scatter_axis = 0 : tensor<4x8xi32> -> tensor<2x8xi32>

mesh.mesh @mesh(shape = 2x2)
func.func @f(%x: tensor<4x8xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = max [0, 1]>},
             %y: tensor<4x8xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0]>})
    -> (tensor<4x2xi32> {mesh.sharding = #mesh.sharding<@mesh, [[], [1, 0]]>},
        tensor<2x8xi32> {mesh.sharding = #mesh.sharding<@mesh, [[0]]>}) {
  %0 = mesh.all_reduce %x on @mesh mesh_axes = [1, 0] reduction = <max> : tensor<4x8xi32> -> tensor<4x8xi32>
  %1 = mesh.all_slice %0 on @mesh mesh_axes = [1, 0] slice_axis = 1 : tensor<4x8xi32> -> tensor<4x2xi32>
  %2 = mesh.all_reduce %y on @mesh mesh_axes = [0] : tensor<4x8xi32> -> tensor<4x8xi32>
  %3 = mesh.all_slice %2 on @mesh mesh_axes = [0] slice_axis = 0 : tensor<4x8xi32> -> tensor<2x8xi32>
  return %1, %3 : tensor<4x2xi32>, tensor<2x8xi32>
}
