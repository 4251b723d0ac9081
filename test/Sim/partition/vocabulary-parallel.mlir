// A linalg body that reads an outside table at a data-dependent index (an
// embedding's token id, a loss's label) in a split dimension need not gather
// the table.  Each device reads the id only where its piece of the table
// holds it, at the id less its piece's first row (else at row 0), and yields
// zero otherwise: exactly one device of the group yields the value, so the
// results are partial sums over the table's axes, reduced where a user needs
// them whole.  The cost solver prices this as one more sum loop indexing the
// table's dimension, against gathering the table.  Each function is
// simulated against the unpartitioned program.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir -f embedding --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f embedding --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f embedding_2d --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f embedding_2d --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f uneven_vocabulary --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f uneven_vocabulary --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f nll_classes --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f nll_classes --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f two_reads --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f two_reads --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f integers --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f integers --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f annotated_partial --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f tiny_vocabulary --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f divides --compare-with %s -q --seed 1 | FileCheck %s
// Propagation run again solves the masked op again (no loop sharding is
// recorded for it: none says the extra loop), and still masks.
// RUN: mesh-opt --sharding-propagation --sharding-propagation --mesh-partition %s -o %t.twice.mlir 2>/dev/null
// RUN: FileCheck %s --check-prefix=TWICE < %t.twice.mlir
// RUN: mesh-run %t.twice.mlir -f embedding --compare-with %s -q --seed 3 | FileCheck %s
// RUN: mesh-run %t.twice.mlir -f nll_classes --compare-with %s -q --seed 3 | FileCheck %s
// CHECK: match

// Only the tables too small to give every device a row, and the one whose
// read value divides, are gathered.
// WARN-NOT: function argument 1 (tensor<64x16xf32>
// WARN: warning: function argument 1 (tensor<3x16xf32>, split_axes = {{\[\[}}0]]) is gathered whole on every device here: 192 bytes received per device
// WARN-NOT: warning

#id1 = affine_map<(d0) -> (d0)>
#to0 = affine_map<(d0) -> ()>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>
mesh.mesh @mesh(shape = 4)
mesh.mesh @mesh2(shape = 2x2)

// The table's rows are split: an all_reduce of the 8x16 result (512 bytes)
// instead of gathering three quarters of the table (3,072 bytes).
// IR-LABEL: func.func @embedding(
// IR-SAME: %arg1: tensor<16x16xf32>
// IR-NOT: mesh.all_gather
// IR: %[[FIRST:.*]] = tensor.extract %{{.*}}[%{{.*}}] : tensor<4xindex>
// IR: linalg.generic
// IR: %[[AT:.*]] = arith.subi %{{.*}}, %[[FIRST]] : index
// IR: %[[IN:.*]] = arith.cmpi ult, %[[AT]], %c16 : index
// IR: %[[SAFE:.*]] = arith.select %[[IN]], %[[AT]], %c0 : index
// IR: %[[V:.*]] = tensor.extract %arg1[%[[SAFE]], %{{.*}}] : tensor<16x16xf32>
// IR: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// IR: %[[Y:.*]] = arith.select %[[IN]], %[[V]], %[[Z]] : f32
// IR: linalg.yield %[[Y]] : f32
// IR: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
// TWICE-LABEL: func.func @embedding(
// TWICE-NOT: mesh.all_gather
// TWICE: arith.cmpi ult
// TWICE: mesh.all_reduce
func.func @embedding(%ids: tensor<8xi64>, %t: tensor<64x16xf32>) -> tensor<8x16xf32> {
  %vocab = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %ts = mesh.shard %t to %vocab annotate_for_users : tensor<64x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %g = linalg.generic {indexing_maps = [#rows, #id2], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<8xi64>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%id: i64, %out: f32):
    %j = linalg.index 1 : index
    %n = arith.index_cast %id : i64 to index
    %c64 = arith.constant 64 : index
    %row = arith.remui %n, %c64 : index
    %v = tensor.extract %ts[%row, %j] : tensor<64x16xf32>
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  %r = mesh.shard %g to %whole : tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// Rows over axis 0 and columns over axis 1: the rows are masked, the
// columns read at the op's column index, as the op's columns are split.
// IR-LABEL: func.func @embedding_2d(
// IR-SAME: %arg1: tensor<32x8xf32>
// IR-NOT: mesh.all_gather
// IR: linalg.generic
// IR: %[[J:.*]] = linalg.index 1 : index
// IR: %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %c32 : index
// IR: tensor.extract %arg1[%{{.*}}, %[[J]]] : tensor<32x8xf32>
// IR: arith.select %[[IN]],
// IR: mesh.all_reduce %{{.*}} on @mesh2 mesh_axes = [0] : tensor<8x8xf32> -> tensor<8x8xf32>
func.func @embedding_2d(%ids: tensor<8xi64>, %t: tensor<64x16xf32>) -> tensor<8x16xf32> {
  %both = mesh.sharding @mesh2 split_axes = [[0], [1]] : !mesh.sharding
  %cols = mesh.sharding @mesh2 split_axes = [[], [1]] : !mesh.sharding
  %ts = mesh.shard %t to %both annotate_for_users : tensor<64x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %g = linalg.generic {indexing_maps = [#rows, #id2], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<8xi64>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%id: i64, %out: f32):
    %j = linalg.index 1 : index
    %n = arith.index_cast %id : i64 to index
    %c64 = arith.constant 64 : index
    %row = arith.remui %n, %c64 : index
    %v = tensor.extract %ts[%row, %j] : tensor<64x16xf32>
    %w = arith.mulf %v, %v : f32
    linalg.yield %w : f32
  } -> tensor<8x16xf32>
  %r = mesh.shard %g to %cols : tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// 66 rows over 4 devices are cut 16, 16, 17, 17: each device's first row
// and row count come from tables indexed by its position.
// IR-LABEL: func.func @uneven_vocabulary(
// IR-SAME: sharded_dims_offsets = [0, 16, 32, 49, 66]
// IR-NOT: mesh.all_gather
// IR: arith.constant dense<[0, 16, 32, 49]> : tensor<4xindex>
// IR: arith.constant dense<[16, 16, 17, 17]> : tensor<4xindex>
// IR: arith.cmpi ult
// IR: mesh.all_reduce
func.func @uneven_vocabulary(%ids: tensor<8xi64>, %t: tensor<66x16xf32>) -> tensor<8x16xf32> {
  %vocab = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %ts = mesh.shard %t to %vocab annotate_for_users : tensor<66x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %g = linalg.generic {indexing_maps = [#rows, #id2], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<8xi64>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%id: i64, %out: f32):
    %j = linalg.index 1 : index
    %n = arith.index_cast %id : i64 to index
    %c66 = arith.constant 66 : index
    %row = arith.remui %n, %c66 : index
    %v = tensor.extract %ts[%row, %j] : tensor<66x16xf32>
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  %r = mesh.shard %g to %whole : tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// torch-mlir's NLL loss with the classes split: each row's label is picked
// where its class lives, and the 8 picked values are reduced (32 bytes)
// instead of gathering the log-softmax (1,536 bytes).  (The sum over rows
// reads them whole: a reduction generic does not run on partial sums.)
// IR-LABEL: func.func @nll_classes(
// IR-SAME: %arg0: tensor<8x16xf32>
// IR-NOT: mesh.all_gather
// IR: arith.cmpi ult
// IR: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0] : tensor<8xf32> -> tensor<8xf32>
// TWICE-LABEL: func.func @nll_classes(
// TWICE-NOT: mesh.all_gather
// TWICE: arith.cmpi ult
func.func @nll_classes(%logp: tensor<8x64xf32>, %labels: tensor<8xi64>) -> tensor<f32> {
  %classes = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %lp = mesh.shard %logp to %classes annotate_for_users : tensor<8x64xf32>
  %e = tensor.empty() : tensor<8xf32>
  %picked = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%labels : tensor<8xi64>) outs(%e : tensor<8xf32>) {
  ^bb0(%l: i64, %out: f32):
    %i = linalg.index 0 : index
    %n = arith.index_cast %l : i64 to index
    %c64 = arith.constant 64 : index
    %c = arith.remui %n, %c64 : index
    %v = tensor.extract %lp[%i, %c] : tensor<8x64xf32>
    %neg = arith.negf %v : f32
    linalg.yield %neg : f32
  } -> tensor<8xf32>
  %z = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %sum = linalg.generic {indexing_maps = [#id1, #to0], iterator_types = ["reduction"]} ins(%picked : tensor<8xf32>) outs(%f0 : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  %r = mesh.shard %sum to %whole : tensor<f32>
  return %r : tensor<f32>
}

// Two reads at one id (two columns of the row) share one mask.
// IR-LABEL: func.func @two_reads(
// IR-NOT: mesh.all_gather
// IR: %[[IN:.*]] = arith.cmpi ult
// IR: %[[SAFE:.*]] = arith.select %[[IN]],
// IR: tensor.extract %arg1[%[[SAFE]], %{{.*}}]
// IR: tensor.extract %arg1[%[[SAFE]], %{{.*}}]
// IR-NOT: arith.cmpi
// IR: mesh.all_reduce
func.func @two_reads(%ids: tensor<8xi64>, %t: tensor<64x16xf32>) -> tensor<8x8xf32> {
  %vocab = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %ts = mesh.shard %t to %vocab annotate_for_users : tensor<64x16xf32>
  %e = tensor.empty() : tensor<8x8xf32>
  %g = linalg.generic {indexing_maps = [#rows, #id2], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<8xi64>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%id: i64, %out: f32):
    %j = linalg.index 1 : index
    %c8 = arith.constant 8 : index
    %k = arith.addi %j, %c8 : index
    %n = arith.index_cast %id : i64 to index
    %c64 = arith.constant 64 : index
    %row = arith.remui %n, %c64 : index
    %a = tensor.extract %ts[%row, %j] : tensor<64x16xf32>
    %b = tensor.extract %ts[%row, %k] : tensor<64x16xf32>
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  %r = mesh.shard %g to %whole : tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// Integers: the devices without the id yield an integer zero.
// IR-LABEL: func.func @integers(
// IR-NOT: mesh.all_gather
// IR: %[[IN:.*]] = arith.cmpi ult
// IR: %[[Z:.*]] = arith.constant 0 : i32
// IR: arith.select %[[IN]], %{{.*}}, %[[Z]] : i32
// IR: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0] : tensor<8x16xi32> -> tensor<8x16xi32>
func.func @integers(%ids: tensor<8xi64>, %t: tensor<64x16xi32>) -> tensor<8x16xi32> {
  %vocab = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %ts = mesh.shard %t to %vocab annotate_for_users : tensor<64x16xi32>
  %e = tensor.empty() : tensor<8x16xi32>
  %g = linalg.generic {indexing_maps = [#rows, #id2], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<8xi64>) outs(%e : tensor<8x16xi32>) {
  ^bb0(%id: i64, %out: i32):
    %j = linalg.index 1 : index
    %n = arith.index_cast %id : i64 to index
    %c64 = arith.constant 64 : index
    %row = arith.remui %n, %c64 : index
    %v = tensor.extract %ts[%row, %j] : tensor<64x16xi32>
    %k = arith.index_cast %j : index to i32
    %w = arith.addi %v, %k : i32
    linalg.yield %w : i32
  } -> tensor<8x16xi32>
  %r = mesh.shard %g to %whole : tensor<8x16xi32>
  return %r : tensor<8x16xi32>
}

// A result annotated partial by hand, from a whole table: partition slices
// the table (nothing moves) and masks; the users' whole copy is one
// all_reduce.
// IR-LABEL: func.func @annotated_partial(
// IR-NOT: mesh.all_gather
// IR: arith.cmpi ult
// IR: mesh.all_reduce
func.func @annotated_partial(%ids: tensor<8xi64>, %t: tensor<64x16xf32>) -> tensor<8x16xf32> {
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %part = mesh.sharding @mesh split_axes = [[]] partial = sum [0] : !mesh.sharding
  %e = tensor.empty() : tensor<8x16xf32>
  %g = linalg.generic {indexing_maps = [#rows, #id2], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<8xi64>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%id: i64, %out: f32):
    %j = linalg.index 1 : index
    %n = arith.index_cast %id : i64 to index
    %c64 = arith.constant 64 : index
    %row = arith.remui %n, %c64 : index
    %v = tensor.extract %t[%row, %j] : tensor<64x16xf32>
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  %p = mesh.shard %g to %part : tensor<8x16xf32>
  %r = mesh.shard %p to %whole annotate_for_users : tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// Three rows over four devices leave one device without a row: the table is
// gathered (the warning above), and the result made partial after the op.
// IR-LABEL: func.func @tiny_vocabulary(
// IR: mesh.all_gather
// IR-NOT: arith.cmpi
// IR: return
func.func @tiny_vocabulary(%ids: tensor<8xi64>, %t: tensor<3x16xf32>) -> tensor<8x16xf32> {
  %vocab = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %part = mesh.sharding @mesh split_axes = [[]] partial = sum [0] : !mesh.sharding
  %ts = mesh.shard %t to %vocab annotate_for_users : tensor<3x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %g = linalg.generic {indexing_maps = [#rows, #id2], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<8xi64>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%id: i64, %out: f32):
    %j = linalg.index 1 : index
    %n = arith.index_cast %id : i64 to index
    %c3 = arith.constant 3 : index
    %row = arith.remui %n, %c3 : index
    %v = tensor.extract %ts[%row, %j] : tensor<3x16xf32>
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  %p = mesh.shard %g to %part : tensor<8x16xf32>
  %r = mesh.shard %p to %whole annotate_for_users : tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// The read value divides, and would be arbitrary on the devices without the
// id: not masked (the split moves to the columns instead).
// IR-LABEL: func.func @divides(
// IR-NOT: arith.cmpi
// IR: mesh.all_to_all
// IR: return
func.func @divides(%ids: tensor<8xi64>, %t: tensor<64x16xi32>) -> tensor<8x16xi32> {
  %vocab = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %ts = mesh.shard %t to %vocab annotate_for_users : tensor<64x16xi32>
  %e = tensor.empty() : tensor<8x16xi32>
  %g = linalg.generic {indexing_maps = [#rows, #id2], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<8xi64>) outs(%e : tensor<8x16xi32>) {
  ^bb0(%id: i64, %out: i32):
    %j = linalg.index 1 : index
    %n = arith.index_cast %id : i64 to index
    %c64 = arith.constant 64 : index
    %row = arith.remui %n, %c64 : index
    %v = tensor.extract %ts[%row, %j] : tensor<64x16xi32>
    %c7 = arith.constant 7 : i32
    %c1 = arith.constant 1 : i32
    %odd = arith.ori %v, %c1 : i32
    %w = arith.divsi %c7, %odd : i32
    linalg.yield %w : i32
  } -> tensor<8x16xi32>
  %r = mesh.shard %g to %whole : tensor<8x16xi32>
  return %r : tensor<8x16xi32>
}
