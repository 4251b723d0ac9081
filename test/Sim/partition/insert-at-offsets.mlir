// Inserts at a position known only at run time (a decoder writing one
// token's keys at `pos`), and inserts of one row the inserted piece drops
// (`x[:, 21] = v`, torch's select_scatter): the destination keeps its
// split and the piece arrives whole.  Each device clamps the run
// [pos, pos + size) into its rows [lo, lo + n), writes that part (none
// where the run misses its piece) and reads it from the piece at
// max(pos, lo) - pos; a dropped unit dimension is put back first
// (tensor.expand_shape).  No collective; simulated against the original at
// positions on every device, at the edges of pieces and across two.
// RUN: %python -c "import numpy as np; r = np.random.default_rng(5); np.save('%t.cache.npy', r.standard_normal((2, 64, 32)).astype(np.float32)); np.save('%t.tok.npy', r.standard_normal((2, 1, 32)).astype(np.float32)); np.save('%t.row.npy', r.standard_normal((2, 32)).astype(np.float32)); np.save('%t.run.npy', r.standard_normal((2, 5, 32)).astype(np.float32)); [np.save('%t.p%d.npy' % p, np.array(p, dtype=np.int64)) for p in (0, 15, 16, 30, 59, 63)]"
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: mesh-run %t.mlir -f token --compare-with %s -i %t.cache.npy -i %t.tok.npy -i %t.p0.npy -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f token --compare-with %s -i %t.cache.npy -i %t.tok.npy -i %t.p15.npy -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f token --compare-with %s -i %t.cache.npy -i %t.tok.npy -i %t.p16.npy -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f token --compare-with %s -i %t.cache.npy -i %t.tok.npy -i %t.p63.npy -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f row --compare-with %s -i %t.cache.npy -i %t.row.npy -i %t.p30.npy -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f row --compare-with %s -i %t.cache.npy -i %t.row.npy -i %t.p63.npy -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f run --compare-with %s -i %t.cache.npy -i %t.run.npy -i %t.p0.npy -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f run --compare-with %s -i %t.cache.npy -i %t.run.npy -i %t.p30.npy -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f run --compare-with %s -i %t.cache.npy -i %t.run.npy -i %t.p59.npy -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f column --compare-with %s -i %t.cache.npy -i %t.row.npy -q | FileCheck %s --check-prefix=SIM
// SIM: match

mesh.mesh @m(shape = 4)

// One token's keys at `pos` of a cache whose sequence is split 4 ways.
// CHECK-LABEL: func.func @token(
// CHECK-SAME: %[[CACHE:.*]]: tensor<2x16x32xf32> {{.*}}, %[[TOK:.*]]: tensor<2x1x32xf32> {{.*}}, %[[POS:.*]]: index
// CHECK-NOT: mesh.all
// CHECK: %[[I:.*]] = mesh.process_multi_index on @m axes = [0] : index
// CHECK: %[[LO:.*]] = tensor.extract %{{.*}}[%[[I]]] : tensor<4xindex>
// CHECK: %[[AT:.*]] = arith.subi %[[POS]], %[[LO]] : index
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: %[[M:.*]] = arith.minsi %[[AT]], %[[C16]] : index
// CHECK: %[[START:.*]] = arith.maxsi %[[M]], %{{.*}} : index
// CHECK: %[[PART:.*]] = tensor.extract_slice %[[TOK]][0, %{{.*}}, 0] [2, %[[LEN:.*]], 32] [1, 1, 1] : tensor<2x1x32xf32> to tensor<2x?x32xf32>
// CHECK: tensor.insert_slice %[[PART]] into %[[CACHE]][0, %[[START]], 0] [2, %[[LEN]], 32] [1, 1, 1] : tensor<2x?x32xf32> into tensor<2x16x32xf32>
// CHECK-NOT: mesh.all
// CHECK: return
func.func @token(%cache: tensor<2x64x32xf32>, %tok: tensor<2x1x32xf32>, %pos: index) -> tensor<2x64x32xf32> {
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %c = mesh.shard %cache to %s : tensor<2x64x32xf32>
  %r = tensor.insert_slice %tok into %c[0, %pos, 0] [2, 1, 32] [1, 1, 1] : tensor<2x1x32xf32> into tensor<2x64x32xf32>
  %o = mesh.shard %r to %s : tensor<2x64x32xf32>
  return %o : tensor<2x64x32xf32>
}

// The same write of a row the piece drops the unit dimension of.
// CHECK-LABEL: func.func @row(
// CHECK-NOT: mesh.all
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] output_shape [2, 1, 32] : tensor<2x32xf32> into tensor<2x1x32xf32>
// CHECK: tensor.insert_slice {{.*}} : tensor<2x?x32xf32> into tensor<2x16x32xf32>
// CHECK-NOT: mesh.all
// CHECK: return
func.func @row(%cache: tensor<2x64x32xf32>, %row: tensor<2x32xf32>, %pos: index) -> tensor<2x64x32xf32> {
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %c = mesh.shard %cache to %s : tensor<2x64x32xf32>
  %r = tensor.insert_slice %row into %c[0, %pos, 0] [2, 1, 32] [1, 1, 1] : tensor<2x32xf32> into tensor<2x64x32xf32>
  %o = mesh.shard %r to %s : tensor<2x64x32xf32>
  return %o : tensor<2x64x32xf32>
}

// Five rows from `pos`: across two devices' pieces at 30 and 59.
// CHECK-LABEL: func.func @run(
// CHECK-NOT: mesh.all
// CHECK: tensor.insert_slice {{.*}} : tensor<2x?x32xf32> into tensor<2x16x32xf32>
// CHECK-NOT: mesh.all
// CHECK: return
func.func @run(%cache: tensor<2x64x32xf32>, %new: tensor<2x5x32xf32>, %pos: index) -> tensor<2x64x32xf32> {
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %c = mesh.shard %cache to %s : tensor<2x64x32xf32>
  %r = tensor.insert_slice %new into %c[0, %pos, 0] [2, 5, 32] [1, 1, 1] : tensor<2x5x32xf32> into tensor<2x64x32xf32>
  %o = mesh.shard %r to %s : tensor<2x64x32xf32>
  return %o : tensor<2x64x32xf32>
}

// torch's select_scatter at a static position, `cache[:, 21] = row`: the
// same, with the position a constant.
// CHECK-LABEL: func.func @column(
// CHECK-NOT: mesh.all
// CHECK: tensor.expand_shape
// CHECK: tensor.insert_slice {{.*}} : tensor<2x?x32xf32> into tensor<2x16x32xf32>
// CHECK-NOT: mesh.all
// CHECK: return
func.func @column(%cache: tensor<2x64x32xf32>, %row: tensor<2x32xf32>) -> tensor<2x64x32xf32> {
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %c = mesh.shard %cache to %s : tensor<2x64x32xf32>
  %r = tensor.insert_slice %row into %c[0, 21, 0] [2, 1, 32] [1, 1, 1] : tensor<2x32xf32> into tensor<2x64x32xf32>
  %o = mesh.shard %r to %s : tensor<2x64x32xf32>
  return %o : tensor<2x64x32xf32>
}
