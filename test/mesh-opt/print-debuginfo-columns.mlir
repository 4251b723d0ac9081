// Printed locations point at what the user wrote, also after a mesh op
// whose custom syntax was translated on the same line (the generic text
// MLIR parsed is longer there), and they read back unchanged.
// RUN: mesh-opt --mlir-print-debuginfo %s | FileCheck %s -DFILE=%s
// RUN: mesh-opt --mlir-print-debuginfo %s | mesh-opt --mlir-print-debuginfo | FileCheck %s -DFILE=%s
// CHECK-DAG: loc("[[FILE]]":[[# @LINE + 7]]:8)
// CHECK-DAG: loc("[[FILE]]":[[# @LINE + 6]]:75)
// CHECK-DAG: loc("[[FILE]]":[[# @LINE + 5]]:142)
// CHECK-DAG: loc("[[FILE]]":[[# @LINE + 5]]:49)

mesh.mesh @m(shape = 2x4)
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %a = mesh.all_reduce %x on @m : tensor<4x8xf32> -> tensor<4x8xf32> %b = mesh.all_reduce %a on @m : tensor<4x8xf32> -> tensor<4x8xf32> %c = arith.addf %b, %b : tensor<4x8xf32>
  %s = mesh.sharding @m split_axes = [[0]] %d = mesh.shard %c to %s : tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}
