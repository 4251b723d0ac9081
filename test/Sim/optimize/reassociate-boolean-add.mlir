// linalg.add on i1 computes an or (its body is arith.ori), while the mesh
// sum of i1 wraps (an exclusive or): or(xor-reduce a, xor-reduce b) is not
// xor-reduce(or(a, b)), so the two all_reduces stay in front of the add.
// On i32 the add is the sum's own combiner and they still merge into one.
// RUN: mesh-opt --mesh-optimize-collectives %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f boolean -q --seed 0 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f boolean -q --seed 3 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f integer -q --seed 0 | FileCheck %s
// CHECK: match
// IR-LABEL: func.func @boolean
// IR: mesh.all_reduce
// IR: mesh.all_reduce
// IR: linalg.add
// IR-NOT: mesh.all_reduce
// IR: return
// IR-LABEL: func.func @integer
// IR: %[[S:.*]] = linalg.add
// IR-NEXT: mesh.all_reduce %[[S]] on @mesh mesh_axes = [0]
// IR-NOT: mesh.all_reduce
// IR: return
mesh.mesh @mesh(shape = 2)
func.func @boolean(%a: tensor<8xi1> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0]>},
                   %b: tensor<8xi1> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0]>})
    -> (tensor<8xi1> {mesh.sharding = #mesh.sharding<@mesh, [[]]>}) {
  %ra = mesh.all_reduce %a on @mesh mesh_axes = [0] : tensor<8xi1> -> tensor<8xi1>
  %rb = mesh.all_reduce %b on @mesh mesh_axes = [0] : tensor<8xi1> -> tensor<8xi1>
  %init = tensor.empty() : tensor<8xi1>
  %sum = linalg.add ins(%ra, %rb : tensor<8xi1>, tensor<8xi1>) outs(%init : tensor<8xi1>) -> tensor<8xi1>
  return %sum : tensor<8xi1>
}
func.func @integer(%a: tensor<8xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0]>},
                   %b: tensor<8xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0]>})
    -> (tensor<8xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>}) {
  %ra = mesh.all_reduce %a on @mesh mesh_axes = [0] : tensor<8xi32> -> tensor<8xi32>
  %rb = mesh.all_reduce %b on @mesh mesh_axes = [0] : tensor<8xi32> -> tensor<8xi32>
  %init = tensor.empty() : tensor<8xi32>
  %sum = linalg.add ins(%ra, %rb : tensor<8xi32>, tensor<8xi32>) outs(%init : tensor<8xi32>) -> tensor<8xi32>
  return %sum : tensor<8xi32>
}
