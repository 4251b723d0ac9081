// A fill of a dynamic size, split and then resharded again: partition makes
// the split piece's empty with the piece's sizes, so making the next layout
// locally from that empty would read the piece's sizes as the whole
// tensor's (a whole value of 2 rows where the program has 8: the sum below
// gave 10 where it is 40).  A piece split along a dynamic dimension is moved
// by collectives instead; a whole fill is still made locally in any layout.
// RUN: %python -c "import numpy as np; np.save('%t.x8.npy', np.arange(24, dtype=np.int32).reshape(8, 3)); np.save('%t.x7.npy', np.arange(21, dtype=np.int32).reshape(7, 3)); np.save('%t.m8.npy', np.arange(32, dtype=np.float32).reshape(8, 4) / 8); np.save('%t.w.npy', np.arange(12, dtype=np.float32).reshape(4, 3) - 6); np.save('%t.z8.npy', np.zeros((8, 0), dtype=np.int32))"
// RUN: mesh-opt --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f sum_rows -i %t.x8.npy -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f sum_rows -i %t.x7.npy -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f shared_init -i %t.m8.npy -i %t.w.npy -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f no_columns -i %t.z8.npy -q | FileCheck %s --check-prefix=SIM
// SIM: match

mesh.mesh @m(shape = 4)

// CHECK-LABEL: func.func @sum_rows(
// CHECK: linalg.fill
// CHECK: mesh.all_gather
func.func @sum_rows(%x: tensor<?x3xi32>) -> tensor<3xi32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %rep = mesh.sharding @m split_axes = [[]] : !mesh.sharding
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x3xi32>
  %e = tensor.empty(%n) : tensor<?x3xi32>
  %five = arith.constant 5 : i32
  %f = linalg.fill ins(%five : i32) outs(%e : tensor<?x3xi32>) -> tensor<?x3xi32>
  %f1 = mesh.shard %f to %s : tensor<?x3xi32>
  %f2 = mesh.shard %f1 to %rep annotate_for_users : tensor<?x3xi32>
  %e2 = tensor.empty() : tensor<3xi32>
  %zero = arith.constant 0 : i32
  %i = linalg.fill ins(%zero : i32) outs(%e2 : tensor<3xi32>) -> tensor<3xi32>
  %r = linalg.reduce ins(%f2 : tensor<?x3xi32>) outs(%i : tensor<3xi32>) dimensions = [0]
    (%a: i32, %b: i32) {
      %t = arith.addi %a, %b : i32
      linalg.yield %t : i32
    }
  return %r : tensor<3xi32>
}

// One fill, the init of a matmul split by rows and (whole) of another.
func.func @shared_init(%x: tensor<?x4xf32>, %w: tensor<4x3xf32>) -> (tensor<?x3xf32>, tensor<?x3xf32>) {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %rep = mesh.sharding @m split_axes = [[]] : !mesh.sharding
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x4xf32>
  %e = tensor.empty(%n) : tensor<?x3xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<?x3xf32>) -> tensor<?x3xf32>
  %fs = mesh.shard %f to %s : tensor<?x3xf32>
  %x0 = mesh.shard %x to %s annotate_for_users : tensor<?x4xf32>
  %a = linalg.matmul ins(%x0, %w : tensor<?x4xf32>, tensor<4x3xf32>) outs(%fs : tensor<?x3xf32>) -> tensor<?x3xf32>
  %a1 = mesh.shard %a to %s : tensor<?x3xf32>
  %fw = mesh.shard %fs to %rep annotate_for_users : tensor<?x3xf32>
  %b = linalg.matmul ins(%x, %w : tensor<?x4xf32>, tensor<4x3xf32>) outs(%fw : tensor<?x3xf32>) -> tensor<?x3xf32>
  return %a1, %b : tensor<?x3xf32>, tensor<?x3xf32>
}

// A tensor of no elements, split and whole again: its rows are still 8.
func.func @no_columns(%x: tensor<?x0xi32>) -> index {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %r = mesh.sharding @m split_axes = [[]] : !mesh.sharding
  %0 = mesh.shard %x to %r : tensor<?x0xi32>
  %1 = mesh.shard %0 to %s annotate_for_users : tensor<?x0xi32>
  %2 = mesh.shard %1 to %r annotate_for_users : tensor<?x0xi32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %2, %c0 : tensor<?x0xi32>
  return %n : index
}
