// A slice of a tensor with a dynamic dimension keeps its static sizes: the
// local piece's dynamic size is no bound on them (partition wrote the
// dynamic marker over every static size along such a dimension, and the
// verifier refused the slice).  Rows of a dynamic batch summed in a loop
// with the columns split, and a row written into a dynamic tensor split by
// rows (gathered, as the slice does not cover the rows whole).
// RUN: %python -c "import numpy as np; r = np.random.default_rng(3); np.save('%t.a.npy', r.standard_normal((6, 8)).astype(np.float32)); np.save('%t.z.npy', r.standard_normal((1, 8)).astype(np.float32)); np.save('%t.b.npy', r.standard_normal((5, 4)).astype(np.float32)); np.save('%t.s.npy', r.standard_normal((1, 4)).astype(np.float32))"
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir 2>/dev/null
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f row_sum -i %t.a.npy -i %t.z.npy -q | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f write_rows -i %t.b.npy -i %t.s.npy -q | FileCheck %s
// CHECK: match

mesh.mesh @mesh(shape = 2)

// IR-LABEL: func.func @row_sum(
// IR: tensor.extract_slice %arg0[%{{.*}}, 0] [1, 4] [1, 1] : tensor<?x4xf32> to tensor<1x4xf32>
// IR-NOT: = mesh.
// IR: return
func.func @row_sum(%a: tensor<?x8xf32>, %z: tensor<1x8xf32>) -> tensor<1x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %a0 = mesh.shard %a to %s : tensor<?x8xf32>
  %z0 = mesh.shard %z to %s : tensor<1x8xf32>
  %n = tensor.dim %a0, %c0 : tensor<?x8xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %z0) -> (tensor<1x8xf32>) {
    %row = tensor.extract_slice %a0[%i, 0] [1, 8] [1, 1] : tensor<?x8xf32> to tensor<1x8xf32>
    %y = arith.addf %x, %row : tensor<1x8xf32>
    %y0 = mesh.shard %y to %s : tensor<1x8xf32>
    scf.yield %y0 : tensor<1x8xf32>
  }
  return %r : tensor<1x8xf32>
}

// IR-LABEL: func.func @write_rows(
// IR: tensor.insert_slice %{{.*}} into %{{.*}}[%{{.*}}, 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<?x4xf32>
func.func @write_rows(%a: tensor<?x4xf32>, %src: tensor<1x4xf32>) -> tensor<?x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a0 = mesh.shard %a to %s : tensor<?x4xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%x = %a0) -> (tensor<?x4xf32>) {
    %n = tensor.insert_slice %src into %x[%i, 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<?x4xf32>
    scf.yield %n : tensor<?x4xf32>
  }
  %r0 = mesh.shard %r to %s : tensor<?x4xf32>
  return %r0 : tensor<?x4xf32>
}
