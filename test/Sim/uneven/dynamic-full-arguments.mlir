// mesh-partition{full-arguments=true}: a split argument arrives whole on
// every device and its piece is sliced out first.  A split dynamic size is
// `?` in the whole and in the local type alike, and the slice was skipped as
// if the split were over axes of one device: every device took the whole
// argument as its piece, and the sum of 1..8 came out as 4 x 36.
// RUN: %python -c "import numpy as np; np.save('%t.s8.npy', np.arange(1, 9, dtype=np.int32)); np.save('%t.s7.npy', np.arange(1, 8, dtype=np.int32)); np.save('%t.s2.npy', np.arange(1, 3, dtype=np.int32))"
// RUN: mesh-opt --mesh-partition=full-arguments=true %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f sum -i %t.s8.npy -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f twice -i %t.s8.npy -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f twice -i %t.s7.npy -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f twice -i %t.s2.npy -q | FileCheck %s --check-prefix=SIM
// SIM: match

mesh.mesh @m(shape = 4)

// The reduce wants its operand whole (its result is annotated whole): the
// argument itself is that, with no collective.
// CHECK-LABEL: func.func @sum(
// CHECK-NOT: mesh.all_
// CHECK: linalg.reduce ins(%arg0
// CHECK-NOT: mesh.all_
func.func @sum(%x: tensor<?xi32>) -> tensor<i32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %rep = mesh.sharding @m split_axes = [[]] : !mesh.sharding
  %0 = mesh.shard %x to %s : tensor<?xi32>
  %e = tensor.empty() : tensor<i32>
  %z = arith.constant 0 : i32
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<i32>) -> tensor<i32>
  %r = linalg.reduce ins(%0 : tensor<?xi32>) outs(%f : tensor<i32>) dimensions = [0]
    (%a: i32, %b: i32) {
      %t = arith.addi %a, %b : i32
      linalg.yield %t : i32
    }
  %q = mesh.shard %r to %rep : tensor<i32>
  return %q : tensor<i32>
}

// The result stays split: each device doubles its own slice of the argument.
// CHECK-LABEL: func.func @twice(
// CHECK-SAME: %arg0: tensor<?xi32>) -> (tensor<?xi32> {mesh.sharding = #mesh.sharding<@m, {{\[\[}}0]]>})
// CHECK: %[[PIECE:.*]] = tensor.extract_slice %arg0
// CHECK: arith.addi %[[PIECE]], %[[PIECE]]
// CHECK-NOT: mesh.all_
func.func @twice(%x: tensor<?xi32>) -> tensor<?xi32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %0 = mesh.shard %x to %s : tensor<?xi32>
  %y = arith.addi %0, %0 : tensor<?xi32>
  %r = mesh.shard %y to %s : tensor<?xi32>
  return %r : tensor<?xi32>
}
