// A result cut by explicit offsets (here the even cut, [0, 3, 6]) does not
// pass its offsets to an operand of dynamic size (6x?, only the unsplit
// dimension dynamic): partition takes offsets on static tensors only, and
// refused the operand propagation had annotated, where partition alone
// accepts the program.
// RUN: %python -c "import numpy as np; np.save('%t.x.npy', np.arange(30, dtype=np.int32).reshape(6, 5))"
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -i %t.x.npy -q | FileCheck %s --check-prefix=SIM
// SIM: match

mesh.mesh @m(shape = 2)

// CHECK-LABEL: func.func @f(
// CHECK-SAME: %arg0: tensor<3x?xi32> {mesh.sharding = #mesh.sharding<@m, {{\[\[}}0]]>}
// CHECK-SAME: -> (tensor<3xi32> {mesh.sharding = #mesh.sharding<@m, {{\[\[}}0]], sharded_dims_offsets = [0, 3, 6]>})
// CHECK-NOT: mesh.all_
func.func @f(%x: tensor<6x?xi32>) -> tensor<6xi32> {
  %lx = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %lr = mesh.sharding @m split_axes = [[0]] sharded_dims_offsets = [0, 3, 6] : !mesh.sharding
  %0 = mesh.shard %x to %lx : tensor<6x?xi32>
  %e = tensor.empty() : tensor<6xi32>
  %z = arith.constant 0 : i32
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<6xi32>) -> tensor<6xi32>
  %r = linalg.reduce ins(%0 : tensor<6x?xi32>) outs(%f : tensor<6xi32>) dimensions = [1]
    (%a: i32, %b: i32) {
      %t = arith.addi %a, %b : i32
      linalg.yield %t : i32
    }
  %r1 = mesh.shard %r to %lr : tensor<6xi32>
  return %r1 : tensor<6xi32>
}
