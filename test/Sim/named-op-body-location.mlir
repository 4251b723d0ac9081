// MLIR builds a named linalg op's body without locations: an error in it
// (a division by zero) is said at the op the user wrote.
// RUN: %python -c "import numpy as np; np.save('%t.a.npy', np.array([1, 2, 3, 4], dtype=np.int32)); np.save('%t.b.npy', np.array([1, 0, 1, 1], dtype=np.int32))"
// RUN: not mesh-run %s -i %t.a.npy -i %t.b.npy 2>&1 | FileCheck %s
// CHECK: named-op-body-location.mlir:[[@LINE+4]]:8: error: 'arith.divsi' divides by zero

func.func @f(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %e = tensor.empty() : tensor<4xi32>
  %r = linalg.div ins(%a, %b : tensor<4xi32>, tensor<4xi32>) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  return %r : tensor<4xi32>
}
