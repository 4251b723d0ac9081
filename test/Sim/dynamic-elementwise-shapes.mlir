// Elementwise ops take one shape: operands of dynamic size that differ at
// run time are an error at the op (numpy would broadcast a piece of one
// element over the others, as an uneven cut's size-1 piece might be).
// RUN: %python -c "import numpy as np; np.save('%t.a4.npy', np.arange(1, 5, dtype=np.int32)); np.save('%t.b1.npy', np.array([10], dtype=np.int32))"
// RUN: not mesh-run %s -i %t.a4.npy -i %t.b1.npy 2>&1 | FileCheck %s
// RUN: mesh-run %s -i %t.a4.npy -i %t.a4.npy | FileCheck %s --check-prefix=SAME
// CHECK: dynamic-elementwise-shapes.mlir:[[# @LINE + 4]]:8: error: 'arith.addi' operand 1 is [1] where its result is [4]: one shape is required
// SAME: [2 4 6 8]

func.func @f(%a: tensor<?xi32>, %b: tensor<?xi32>) -> tensor<?xi32> {
  %r = arith.addi %a, %b : tensor<?xi32>
  return %r : tensor<?xi32>
}
