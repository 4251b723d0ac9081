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
// RUN: mesh-run %t.mlir -f cross_entropy --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f cross_entropy --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f cross_entropy_argmax --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f embedding_then_sum --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f embedding_then_sum --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f two_annotations --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f signed_integers --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f reads_at_read --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f mask_axis_order --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f mask_axis_order --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f table_axes_reversed --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f reads_at_read --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f negative_zero --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f negative_zero --compare-with %s -q --seed 2 | FileCheck %s
// Partition alone, on the annotations as written.
// RUN: mesh-opt --mesh-partition %s -o %t.alone.mlir 2>/dev/null
// RUN: FileCheck %s --check-prefix=ALONE < %t.alone.mlir
// RUN: mesh-run %t.alone.mlir -f annotated_partial --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.alone.mlir -f tiny_vocabulary --compare-with %s -q --seed 1 | FileCheck %s
// Propagation run again solves the masked op again (no loop sharding is
// recorded for it: none says the extra loop), and still masks.
// RUN: mesh-opt --sharding-propagation --sharding-propagation --mesh-partition %s -o %t.twice.mlir 2>/dev/null
// RUN: FileCheck %s --check-prefix=TWICE < %t.twice.mlir
// RUN: mesh-run %t.twice.mlir -f embedding --compare-with %s -q --seed 3 | FileCheck %s
// RUN: mesh-run %t.twice.mlir -f nll_classes --compare-with %s -q --seed 3 | FileCheck %s
// With explain, the masked op's remark says so.
// RUN: mesh-opt --sharding-propagation=explain=true %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// EXPLAIN: vocabulary-parallel.mlir:{{[0-9]+}}:8: remark: result 0 of 'linalg.generic' is produced as @mesh split_axes = {{\[\[}}]] partial = sum [0] and resharded to @mesh split_axes = {{\[\[}}]] for this annotation: 768 bytes received per device each time; 'linalg.generic' runs with its loops split as {{\[\[}}], []] on @mesh, the cost solver's choice for the fewest bytes over the function, reading its outside table masked along the dimension an id picks (each device only the rows its piece holds: its results are partial sums)
// CHECK: match

// Only the tables too small to give every device a row, the ones whose
// read value divides or indexes, and the one also read another way, are
// gathered or moved (and the ids of @mask_axis_order, split over a
// sequence the lookup splits another way).
// WARN-NOT: function argument 1 (tensor<64x16xf32>
// WARN: warning: function argument 1 (tensor<3x16xf32>, split_axes = {{\[\[}}0]]) is gathered whole on every device here: 192 bytes received per device
// WARN: warning: function argument 1 (tensor<64x16xf32>, split_axes = {{\[\[}}0]]) is gathered whole on every device here: 3072 bytes received per device
// WARN: warning: function argument 0 (tensor<8x5xi64>, split_axes = {{\[\[}}], [0]]) is gathered whole on every device here: 192 bytes received per device
// WARN-NOT: warning

#id1 = affine_map<(d0) -> (d0)>
#to0 = affine_map<(d0) -> ()>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>
#bs = affine_map<(d0, d1, d2) -> (d0, d1)>
#bsh = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#bh = affine_map<(d0, d1, d2) -> (d0, d2)>
mesh.mesh @mesh(shape = 4)
mesh.mesh @mesh2(shape = 2x2)

// The table's rows are split: an all_reduce of the 8x16 result (768 bytes
// received per device) instead of gathering three quarters of the table
// (3,072 bytes).
// IR-LABEL: func.func @embedding(
// IR-SAME: %arg1: tensor<16x16xf32>
// IR-NOT: mesh.all_gather
// IR: %[[FIRST:.*]] = tensor.extract %{{.*}}[%{{.*}}] : tensor<4xindex>
// IR: linalg.generic
// IR: %[[AT:.*]] = arith.subi %{{.*}}, %[[FIRST]] : index
// IR: %[[IN:.*]] = arith.cmpi ult, %[[AT]], %c16 : index
// IR: %[[SAFE:.*]] = arith.select %[[IN]], %[[AT]], %c0 : index
// IR: %[[V:.*]] = tensor.extract %arg1[%[[SAFE]], %{{.*}}] : tensor<16x16xf32>
// IR: %[[Z:.*]] = arith.constant -0.000000e+00 : f32
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
// where its class lives, each device sums its own picked values (a sum is
// linear: the devices' sums add up to the total), and only the loss is
// reduced (24 bytes received per device), instead of gathering the
// log-softmax (1,536 bytes) or reducing the 8 picked values (48).
// IR-LABEL: func.func @nll_classes(
// IR-SAME: %arg0: tensor<8x16xf32>
// IR-NOT: mesh.all_gather
// IR: arith.cmpi ult
// IR-NOT: mesh.all_
// IR: linalg.generic {{.*}} iterator_types = ["reduction"]
// IR: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0] : tensor<f32> -> tensor<f32>
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

// A result annotated partial by hand, from a whole table.  Partition alone
// slices the table (nothing moves) and masks, and the users' whole copy is
// one all_reduce.  Propagation finds it cheaper to compute the result whole
// from the whole table: the partial annotation then has no reader, and
// nothing moves.
// ALONE-LABEL: func.func @annotated_partial(
// ALONE-NOT: mesh.all_gather
// ALONE: arith.cmpi ult
// ALONE: mesh.all_reduce
// IR-LABEL: func.func @annotated_partial(
// IR-NOT: mesh.all_
// IR-NOT: arith.cmpi ult
// IR: return
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

// The value read picks a column of the same table: on a device without
// the id it would be whatever row 0 of its piece holds (1000 here, out of
// bounds).  Not masked.
// IR-LABEL: func.func @reads_at_read(
// IR-NOT: arith.cmpi ult
// IR: return
func.func @reads_at_read(%ids: tensor<8xi64>) -> tensor<8x16xi32> {
  %vocab = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %e0 = tensor.empty() : tensor<64x16xi32>
  %t = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%e0 : tensor<64x16xi32>) {
  ^bb0(%o: i32):
    %r = linalg.index 0 : index
    %c = linalg.index 1 : index
    %c16 = arith.constant 16 : index
    %first = arith.cmpi eq, %r, %c16 : index
    %ci = arith.index_cast %c : index to i32
    %big = arith.constant 1000 : i32
    %x = arith.select %first, %big, %ci : i32
    linalg.yield %x : i32
  } -> tensor<64x16xi32>
  %ts = mesh.shard %t to %vocab annotate_for_users : tensor<64x16xi32>
  %e = tensor.empty() : tensor<8x16xi32>
  %g = linalg.generic {indexing_maps = [#rows, #id2], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<8xi64>) outs(%e : tensor<8x16xi32>) {
  ^bb0(%id: i64, %out: i32):
    %j = linalg.index 1 : index
    %n = arith.index_cast %id : i64 to index
    %c15 = arith.constant 15 : index
    %c1 = arith.constant 1 : index
    %m = arith.remui %n, %c15 : index
    %row = arith.addi %m, %c1 : index
    %v = tensor.extract %ts[%row, %j] : tensor<64x16xi32>
    %k = arith.index_cast %v : i32 to index
    %w = tensor.extract %ts[%row, %k] : tensor<64x16xi32>
    linalg.yield %w : i32
  } -> tensor<8x16xi32>
  %r = mesh.shard %g to %whole : tensor<8x16xi32>
  return %r : tensor<8x16xi32>
}

// The devices without the id yield -0.0, the neutral of a float sum, so a
// value -0.0 keeps its sign through the all_reduce (1 / -0.0 is -inf).
// IR-LABEL: func.func @negative_zero(
// IR: arith.cmpi ult
// IR: arith.constant -0.000000e+00 : f32
// IR: mesh.all_reduce
func.func @negative_zero(%ids: tensor<8xi64>, %t: tensor<64x16xf32>) -> tensor<8x16xf32> {
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
    %z = arith.constant 0.0 : f32
    %y = arith.mulf %v, %z : f32
    %y2 = arith.minimumf %y, %z : f32
    linalg.yield %y2 : f32
  } -> tensor<8x16xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %h = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<8x16xf32>) outs(%e2 : tensor<8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %q = arith.divf %one, %a : f32
    linalg.yield %q : f32
  } -> tensor<8x16xf32>
  %r = mesh.shard %h to %whole : tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// Megatron's vocabulary-parallel cross-entropy on logits split over the
// classes: the row max and the row sum are reduced as partial results (16
// floats each), the label's log-probability is picked where its class
// lives, each device sums its picked values, and the loss is reduced: 216
// bytes, where moving the logits to a split over rows (one all_to_all) and
// reducing the loss moves 408.
// IR-LABEL: func.func @cross_entropy(
// IR-NOT: mesh.all_to_all
// IR-NOT: mesh.all_gather
// IR: arith.cmpi ult
// IR-NOT: mesh.all_
// IR: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0] : tensor<f32> -> tensor<f32>
// IR-NEXT: return
func.func @cross_entropy(%logits: tensor<16x32xf32>, %labels: tensor<16xi64>) -> tensor<f32> {
  %classes = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %x = mesh.shard %logits to %classes annotate_for_users : tensor<16x32xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<16xf32>
  %f1 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %m = linalg.generic {indexing_maps = [#id2, #rows], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<16x32xf32>) outs(%f1 : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %e2 = tensor.empty() : tensor<16x32xf32>
  %sh = linalg.generic {indexing_maps = [#id2, #rows, #id2], iterator_types = ["parallel", "parallel"]} ins(%x, %m : tensor<16x32xf32>, tensor<16xf32>) outs(%e2 : tensor<16x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.subf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<16x32xf32>
  %ex = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%sh : tensor<16x32xf32>) outs(%e2 : tensor<16x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<16x32xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.generic {indexing_maps = [#id2, #rows], iterator_types = ["parallel", "reduction"]} ins(%ex : tensor<16x32xf32>) outs(%f2 : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %lp = linalg.generic {indexing_maps = [#id2, #rows, #id2], iterator_types = ["parallel", "parallel"]} ins(%sh, %s : tensor<16x32xf32>, tensor<16xf32>) outs(%e2 : tensor<16x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %l = math.log %b : f32
    %r = arith.subf %a, %l : f32
    linalg.yield %r : f32
  } -> tensor<16x32xf32>
  %picked = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%labels : tensor<16xi64>) outs(%e1 : tensor<16xf32>) {
  ^bb0(%l: i64, %out: f32):
    %i = linalg.index 0 : index
    %n = arith.index_cast %l : i64 to index
    %c32 = arith.constant 32 : index
    %c = arith.remui %n, %c32 : index
    %v = tensor.extract %lp[%i, %c] : tensor<16x32xf32>
    %neg = arith.negf %v : f32
    linalg.yield %neg : f32
  } -> tensor<16xf32>
  %e0 = tensor.empty() : tensor<f32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %sum = linalg.generic {indexing_maps = [#id1, #to0], iterator_types = ["reduction"]} ins(%picked : tensor<16xf32>) outs(%f0 : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  %r = mesh.shard %sum to %whole : tensor<f32>
  return %r : tensor<f32>
}

// The same with torch's max, which also yields the arg max (a reduction that
// picks): with the masked read among its options the solver's local search
// settles on a plan of 600 bytes.  Propagation solves the function with and
// without masked reads and keeps the one moving fewer bytes: here the 408
// of moving the logits to rows.
// IR-LABEL: func.func @cross_entropy_argmax(
// IR: mesh.all_to_all
// IR-NOT: arith.cmpi ult
// IR: return
func.func @cross_entropy_argmax(%logits: tensor<16x32xf32>, %labels: tensor<16xi64>) -> tensor<f32> {
  %classes = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %x = mesh.shard %logits to %classes annotate_for_users : tensor<16x32xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<16xf32>
  %f1 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %ei = tensor.empty() : tensor<16xi64>
  %c0i = arith.constant 0 : i64
  %fi = linalg.fill ins(%c0i : i64) outs(%ei : tensor<16xi64>) -> tensor<16xi64>
  %m, %am = linalg.generic {indexing_maps = [#id2, #rows, #rows], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<16x32xf32>) outs(%f1, %fi : tensor<16xf32>, tensor<16xi64>) {
  ^bb0(%a: f32, %acc: f32, %iacc: i64):
    %k = linalg.index 1 : index
    %ki = arith.index_cast %k : index to i64
    %r = arith.maximumf %a, %acc : f32
    %gt = arith.cmpf ogt, %a, %acc : f32
    %ri = arith.select %gt, %ki, %iacc : i64
    linalg.yield %r, %ri : f32, i64
  } -> (tensor<16xf32>, tensor<16xi64>)
  %e2 = tensor.empty() : tensor<16x32xf32>
  %sh = linalg.generic {indexing_maps = [#id2, #rows, #id2], iterator_types = ["parallel", "parallel"]} ins(%x, %m : tensor<16x32xf32>, tensor<16xf32>) outs(%e2 : tensor<16x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.subf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<16x32xf32>
  %ex = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%sh : tensor<16x32xf32>) outs(%e2 : tensor<16x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<16x32xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.generic {indexing_maps = [#id2, #rows], iterator_types = ["parallel", "reduction"]} ins(%ex : tensor<16x32xf32>) outs(%f2 : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %lp = linalg.generic {indexing_maps = [#id2, #rows, #id2], iterator_types = ["parallel", "parallel"]} ins(%sh, %s : tensor<16x32xf32>, tensor<16xf32>) outs(%e2 : tensor<16x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %l = math.log %b : f32
    %r = arith.subf %a, %l : f32
    linalg.yield %r : f32
  } -> tensor<16x32xf32>
  %picked = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%labels : tensor<16xi64>) outs(%e1 : tensor<16xf32>) {
  ^bb0(%l: i64, %out: f32):
    %i = linalg.index 0 : index
    %n = arith.index_cast %l : i64 to index
    %c32 = arith.constant 32 : index
    %c = arith.remui %n, %c32 : index
    %v = tensor.extract %lp[%i, %c] : tensor<16x32xf32>
    %neg = arith.negf %v : f32
    linalg.yield %neg : f32
  } -> tensor<16xf32>
  %e0 = tensor.empty() : tensor<f32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %sum = linalg.generic {indexing_maps = [#id1, #to0], iterator_types = ["reduction"]} ins(%picked : tensor<16xf32>) outs(%f0 : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  %r = mesh.shard %sum to %whole : tensor<f32>
  return %r : tensor<f32>
}

// An embedding summed over the sequence, its result wanted split over the
// hidden columns: a split of the vocabulary moves to the hidden dimension
// (one all_to_all, 240 bytes), and the op and the sum run on hidden
// columns.  Masking, summing each device's terms and reduce-scattering the
// 8x16 sum would move 384 bytes; gathering the table moves 960.  (The solver offers that move off the
// masked dimension as it does off any dimension an op reads whole.)
// IR-LABEL: func.func @embedding_then_sum(
// IR: mesh.all_to_all %arg1 on @mesh mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<5x16xf32> -> tensor<20x4xf32>
// IR-NOT: mesh.all_gather
// IR-NOT: arith.cmpi ult
// IR: return
func.func @embedding_then_sum(%ids: tensor<8x5xi64>, %t: tensor<20x16xf32>) -> tensor<8x16xf32> {
  %vocab = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %ts = mesh.shard %t to %vocab annotate_for_users : tensor<20x16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x5x16xf32>
  %g = linalg.generic {indexing_maps = [#bs, #bsh], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ids : tensor<8x5xi64>) outs(%e : tensor<8x5x16xf32>) {
  ^bb0(%id: i64, %out: f32):
    %h = linalg.index 2 : index
    %n = arith.index_cast %id : i64 to index
    %c20 = arith.constant 20 : index
    %row = arith.remui %n, %c20 : index
    %v = tensor.extract %ts[%row, %h] : tensor<20x16xf32>
    linalg.yield %v : f32
  } -> tensor<8x5x16xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %s = linalg.generic {indexing_maps = [#bsh, #bh], iterator_types = ["parallel", "reduction", "parallel"]} ins(%g : tensor<8x5x16xf32>) outs(%f2 : tensor<8x16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  %hidden = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %w = mesh.shard %s to %hidden : tensor<8x16xf32>
  return %w : tensor<8x16xf32>
}

// One table annotated twice alike, one annotation read at the id, the other
// at the id and a constant column.  Partition erases annotations, so both
// are reads of one tensor, one of them not maskable: the solver does not
// price a masked read here either, and the table is gathered once with no
// all_reduce after (3,168 bytes, not 3,264).
// IR-LABEL: func.func @two_annotations(
// IR-NOT: arith.cmpi ult
// IR-NOT: mesh.all_reduce
// IR: return
func.func @two_annotations(%ids: tensor<2xi64>, %t: tensor<64x16xf32>) -> tensor<2x16xf32> {
  %vocab = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %a = mesh.shard %t to %vocab annotate_for_users : tensor<64x16xf32>
  %b = mesh.shard %t to %vocab annotate_for_users : tensor<64x16xf32>
  %e = tensor.empty() : tensor<2x16xf32>
  %g = linalg.generic {indexing_maps = [#rows, #id2], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<2xi64>) outs(%e : tensor<2x16xf32>) {
  ^bb0(%id: i64, %out: f32):
    %j = linalg.index 1 : index
    %n = arith.index_cast %id : i64 to index
    %c64 = arith.constant 64 : index
    %c1 = arith.constant 1 : index
    %row = arith.remui %n, %c64 : index
    %x = tensor.extract %a[%row, %j] : tensor<64x16xf32>
    %y = tensor.extract %b[%row, %c1] : tensor<64x16xf32>
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<2x16xf32>
  %r = mesh.shard %g to %whole : tensor<2x16xf32>
  return %r : tensor<2x16xf32>
}

// A signed integer table: the devices without the id would need a zero of
// si32, which arith.constant cannot make.  Not masked (the split moves to
// the columns).
// IR-LABEL: func.func @signed_integers(
// IR-NOT: arith.cmpi ult
// IR: return
func.func @signed_integers(%ids: tensor<8xi64>, %t: tensor<64x16xsi32>) -> tensor<8x16xsi32> {
  %vocab = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %ts = mesh.shard %t to %vocab annotate_for_users : tensor<64x16xsi32>
  %e = tensor.empty() : tensor<8x16xsi32>
  %g = linalg.generic {indexing_maps = [#rows, #id2], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<8xi64>) outs(%e : tensor<8x16xsi32>) {
  ^bb0(%id: i64, %out: si32):
    %j = linalg.index 1 : index
    %n = arith.index_cast %id : i64 to index
    %c64 = arith.constant 64 : index
    %row = arith.remui %n, %c64 : index
    %v = tensor.extract %ts[%row, %j] : tensor<64x16xsi32>
    linalg.yield %v : si32
  } -> tensor<8x16xsi32>
  %r = mesh.shard %g to %whole : tensor<8x16xsi32>
  return %r : tensor<8x16xsi32>
}

// A table split over axis 1 of a 2x2 mesh, read masked over both axes: the
// results are partial over axes 0 and 1, which carry no order.  The cost
// solver prices the table's pieces split again over axis 0 (axis 1 major,
// a local slice), and partition masks in that order: the table's own axes
// first.  Masking in ascending order (axis 0 major) permuted the pieces
// between devices, 320 bytes more than the solver counted.
// IR-LABEL: func.func @mask_axis_order(
// IR-NOT: mesh.send
// IR-NOT: mesh.recv
// IR: return
func.func @mask_axis_order(%ids: tensor<8x5xi64>, %t: tensor<20x16xf32>) -> tensor<8x16xf32> {
  %seq = mesh.sharding @mesh2 split_axes = [[], [0]] : !mesh.sharding
  %vocab = mesh.sharding @mesh2 split_axes = [[1]] : !mesh.sharding
  %ids_s = mesh.shard %ids to %seq annotate_for_users : tensor<8x5xi64>
  %ts = mesh.shard %t to %vocab annotate_for_users : tensor<20x16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x5x16xf32>
  %g = linalg.generic {indexing_maps = [#bs, #bsh], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ids_s : tensor<8x5xi64>) outs(%e : tensor<8x5x16xf32>) {
  ^bb0(%id: i64, %out: f32):
    %h = linalg.index 2 : index
    %n = arith.index_cast %id : i64 to index
    %c20 = arith.constant 20 : index
    %row = arith.remui %n, %c20 : index
    %v = tensor.extract %ts[%row, %h] : tensor<20x16xf32>
    linalg.yield %v : f32
  } -> tensor<8x5x16xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %s = linalg.generic {indexing_maps = [#bsh, #bh], iterator_types = ["parallel", "reduction", "parallel"]} ins(%g : tensor<8x5x16xf32>) outs(%f2 : tensor<8x16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  return %s : tensor<8x16xf32>
}

// A table split over axes 1 then 0 (axis 1 major), read masked over both:
// partition masks in the table's own order, so nothing moves (the result is
// returned as partial sums).  Masking in ascending order would permute the
// table's pieces first (768 bytes).
// IR-LABEL: func.func @table_axes_reversed(
// IR-NOT: mesh.all_
// IR-NOT: mesh.send
// IR: arith.cmpi ult
// IR-NOT: mesh.all_
// IR: return
func.func @table_axes_reversed(%ids: tensor<8xi64>, %t: tensor<64x16xf32>) -> tensor<8x16xf32> {
  %vocab = mesh.sharding @mesh2 split_axes = [[1, 0]] : !mesh.sharding
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
  return %g : tensor<8x16xf32>
}
