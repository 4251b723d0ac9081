// A rank-reducing extract_slice drops what MLIR drops: a static unit size
// that is not the next result dimension's (a static 1 does not match a
// dynamic result dimension; dynamic matches dynamic).
// RUN: %python -c "import numpy as np; np.save('%t.t.npy', np.arange(80, dtype=np.float32).reshape(4, 4, 5)); np.save('%t.n.npy', np.array(3, dtype=np.int64))"
// RUN: mesh-run %s -f unit_then_dynamic -i %t.t.npy -i %t.n.npy | FileCheck %s --check-prefix=G
// RUN: mesh-run %s -f dynamic_then_unit -i %t.t.npy -i %t.n.npy | FileCheck %s --check-prefix=F
// G: result 0: tensor<1x3xf32>
// G-NEXT: {{\[\[}}0. 1. 2.]]
// F: result 0: tensor<3x5xf32>
// F-NEXT: {{\[\[}} 0.  1.  2.  3.  4.]
// F-NEXT: [20. 21. 22. 23. 24.]

func.func @unit_then_dynamic(%t: tensor<4x4x5xf32>, %a: index) -> tensor<1x?xf32> {
  %r = tensor.extract_slice %t[0, 0, 0] [1, 1, %a] [1, 1, 1] : tensor<4x4x5xf32> to tensor<1x?xf32>
  return %r : tensor<1x?xf32>
}

func.func @dynamic_then_unit(%t: tensor<4x4x5xf32>, %a: index) -> tensor<?x5xf32> {
  %r = tensor.extract_slice %t[0, 0, 0] [%a, 1, 5] [1, 1, 1] : tensor<4x4x5xf32> to tensor<?x5xf32>
  return %r : tensor<?x5xf32>
}
