// tensor.dim of a value split along a dynamic dimension is the pieces'
// sizes summed by an all_reduce, which must not run per element: read in
// a tensor.generate body, it goes in front of the generate (it was put in
// the body, which no device can run; test/Transforms/mesh-partition-per-element-dim.mlir
// has the refusal of a value split inside such a body).
// RUN: %python -c "import numpy as np; np.save('%t.x7.npy', np.arange(21, dtype=np.int32).reshape(7, 3)); np.save('%t.x2.npy', np.arange(6, dtype=np.int32).reshape(2, 3))"
// RUN: mesh-opt --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -i %t.x7.npy -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -i %t.x2.npy -q | FileCheck %s --check-prefix=SIM
// SIM: match

mesh.mesh @m(shape = 4)

// CHECK-LABEL: func.func @sizes(
// CHECK: %[[SUM:.*]] = mesh.all_reduce {{.*}} : tensor<1xindex> -> tensor<1xindex>
// CHECK: %[[N:.*]] = tensor.extract %[[SUM]]
// CHECK: tensor.generate
// CHECK-NOT: mesh.all_reduce
// CHECK: arith.addi %[[N]]
func.func @sizes(%x: tensor<?x3xi32>) -> (tensor<?x3xi32>, tensor<5xindex>) {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %0 = mesh.shard %x to %s : tensor<?x3xi32>
  %1 = arith.addi %0, %0 : tensor<?x3xi32>
  %2 = mesh.shard %1 to %s : tensor<?x3xi32>
  %g = tensor.generate {
  ^bb0(%i: index):
    %c0 = arith.constant 0 : index
    %n = tensor.dim %2, %c0 : tensor<?x3xi32>
    %v = arith.addi %n, %i : index
    tensor.yield %v : index
  } : tensor<5xindex>
  return %2, %g : tensor<?x3xi32>, tensor<5xindex>
}
