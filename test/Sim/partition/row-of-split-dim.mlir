// A slice reading one row of a dimension its operand is split along, at a
// static or a run-time position (the last token `h[:, -1]`, a decoder
// reading position `pos`), reads it where it lies: each device takes the
// row of its own piece at the position clamped into it, keeps it where the
// position lies in its piece and -0.0 (or 0) elsewhere, so the results are
// partial sums of the row.  Before, the split moved to another dimension
// (an all_to_all) and back, or the operand was gathered.  The pieces may
// be uneven, and two dimensions may be read so at once.  Each function is
// simulated against the unpartitioned program with several seeds (the
// positions are random); `mesh-analysis` counts the bytes.  A row of
// partial sums is the sum of the rows of the terms: a row-parallel
// layer's output is sliced before it is reduced.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-opt --mesh-analysis %t.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BYTES
// RUN: mesh-run %t.mlir -f last_token --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f read_at --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f read_at --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f read_at --compare-with %s -q --seed 3 | FileCheck %s
// RUN: mesh-run %t.mlir -f read_uneven --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f read_uneven --compare-with %s -q --seed 4 | FileCheck %s
// RUN: mesh-run %t.mlir -f read_uneven --compare-with %s -q --seed 5 | FileCheck %s
// RUN: mesh-run %t.mlir -f read_both --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f read_both --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f read_both --compare-with %s -q --seed 6 | FileCheck %s
// RUN: mesh-run %t.mlir -f row_of_split_cols --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f last_of_seven --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f whole --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f last_of_partial --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f last_of_partial --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f last_of_reshaped_partial --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f at_of_partial --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f at_of_partial --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f at_of_partial --compare-with %s -q --seed 3 | FileCheck %s
// RUN: mesh-run %t.mlir -f empty_pieces --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f empty_pieces --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f empty_pieces --compare-with %s -q --seed 3 | FileCheck %s
// The sweep solver splits 3 rows over 4 devices, one piece empty:
// RUN: mesh-opt --sharding-propagation=solver=sweep --mesh-partition %s -o %t.sweep.mlir
// RUN: FileCheck %s --check-prefix=SWEEP < %t.sweep.mlir
// RUN: mesh-run %t.sweep.mlir -f three_rows --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.sweep.mlir -f three_rows --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.sweep.mlir -f three_rows --compare-with %s -q --seed 5 | FileCheck %s
// CHECK: match

mesh.mesh @mesh(shape = 4)
mesh.mesh @mesh2d(shape = 2x2)

// IR-LABEL: func.func @last_token(
// IR-SAME: %arg0: tensor<2x4x8xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}], [0]]>}
// IR-NEXT: %[[I:.*]] = mesh.process_multi_index on @mesh axes = [0] : index
// IR-NEXT: %[[STARTS:.*]] = arith.constant dense<[0, 4, 8, 12]> : tensor<4xindex>
// IR-NEXT: %[[START:.*]] = tensor.extract %[[STARTS]][%[[I]]] : tensor<4xindex>
// IR-NEXT: %[[C15:.*]] = arith.constant 15 : index
// IR-NEXT: %[[AT:.*]] = arith.subi %[[C15]], %[[START]] : index
// IR-NEXT: %[[C0:.*]] = arith.constant 0 : index
// IR-NEXT: %[[GE:.*]] = arith.cmpi sge, %[[AT]], %[[C0]] : index
// IR-NEXT: %[[C4:.*]] = arith.constant 4 : index
// IR-NEXT: %[[LT:.*]] = arith.cmpi slt, %[[AT]], %[[C4]] : index
// IR-NEXT: %[[HERE:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// IR-NEXT: %[[C3:.*]] = arith.constant 3 : index
// IR-NEXT: %[[LOW:.*]] = arith.minsi %[[AT]], %[[C3]] : index
// IR-NEXT: %[[ROW:.*]] = arith.maxsi %[[LOW]], %[[C0]] : index
// IR-NEXT: %[[MINE:.*]] = tensor.extract_slice %arg0[0, %[[ROW]], 0] [2, 1, 8] [1, 1, 1] : tensor<2x4x8xf32> to tensor<2x1x8xf32>
// IR-NEXT: %[[ZERO:.*]] = arith.constant -0.000000e+00 : f32
// IR-NEXT: %[[ZEROS:.*]] = tensor.splat %[[ZERO]] : tensor<2x1x8xf32>
// IR-NEXT: %[[KEPT:.*]] = arith.select %[[HERE]], %[[MINE]], %[[ZEROS]] : tensor<2x1x8xf32>
// IR-NEXT: %[[X:.*]] = tensor.extract_slice %[[KEPT]][0, 0, 0] [2, 1, 8] [1, 1, 1] : tensor<2x1x8xf32> to tensor<2x8xf32>
// IR-NEXT: %[[R:.*]] = mesh.all_reduce %[[X]] on @mesh mesh_axes = [0] : tensor<2x8xf32> -> tensor<2x8xf32>
// IR-NEXT: return %[[R]]
// BYTES-LABEL: @last_token on @mesh
// BYTES: max all_reduce 1 96
func.func @last_token(%h: tensor<2x16x8xf32>) -> tensor<2x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %a = mesh.shard %h to %s annotate_for_users : tensor<2x16x8xf32>
  %x = tensor.extract_slice %a[0, 15, 0] [2, 1, 8] [1, 1, 1] : tensor<2x16x8xf32> to tensor<2x8xf32>
  %w = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %r = mesh.shard %x to %w : tensor<2x8xf32>
  return %r : tensor<2x8xf32>
}

// A result left unannotated is returned as the partial sum it is:
// IR-LABEL: func.func @read_at(
// IR-SAME: -> (tensor<1x8xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}]], partial = sum [0]>})
// IR: arith.cmpi slt
// IR: arith.select
// IR-NOT: mesh.all
// IR: return
// BYTES-LABEL: @read_at on @mesh
// BYTES: max - 0
func.func @read_at(%x: tensor<16x8xf32>, %p: index) -> tensor<1x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a = mesh.shard %x to %s annotate_for_users : tensor<16x8xf32>
  %c16 = arith.constant 16 : index
  %q = arith.remui %p, %c16 : index
  %y = tensor.extract_slice %a[%q, 0] [1, 8] [1, 1] : tensor<16x8xf32> to tensor<1x8xf32>
  return %y : tensor<1x8xf32>
}

// Integers (their zero is 0) on pieces of 12, 12, 13 and 13 rows:
// IR-LABEL: func.func @read_uneven(
// IR: arith.constant 0 : i32
// IR: mesh.all_reduce
// BYTES-LABEL: @read_uneven on @mesh
// BYTES: max all_reduce 1 96
func.func @read_uneven(%x: tensor<2x50x8xi32>, %p: index) -> tensor<2x8xi32> {
  %s = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %a = mesh.shard %x to %s annotate_for_users : tensor<2x50x8xi32>
  %c50 = arith.constant 50 : index
  %q = arith.remui %p, %c50 : index
  %y = tensor.extract_slice %a[0, %q, 0] [2, 1, 8] [1, 1, 1] : tensor<2x50x8xi32> to tensor<2x8xi32>
  %t = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %r = mesh.shard %y to %t : tensor<2x8xi32>
  return %r : tensor<2x8xi32>
}

// One element at a run-time row and a static column, both split: the
// device holding both keeps it.
// IR-LABEL: func.func @read_both(
// IR: arith.andi
// IR: mesh.all_reduce %{{.*}} on @mesh2d mesh_axes = [0, 1] : tensor<f32> -> tensor<f32>
func.func @read_both(%x: tensor<6x10xf32>, %p: index) -> tensor<f32> {
  %s = mesh.sharding @mesh2d split_axes = [[0], [1]] : !mesh.sharding
  %a = mesh.shard %x to %s annotate_for_users : tensor<6x10xf32>
  %c6 = arith.constant 6 : index
  %q = arith.remui %p, %c6 : index
  %y = tensor.extract_slice %a[%q, 7] [1, 1] [1, 1] : tensor<6x10xf32> to tensor<f32>
  %t = mesh.sharding @mesh2d split_axes = [] : !mesh.sharding
  %r = mesh.shard %y to %t : tensor<f32>
  return %r : tensor<f32>
}

// The row keeps the split of its other dimension: the partial sums add
// up within each column group only.
// IR-LABEL: func.func @row_of_split_cols(
// IR-SAME: -> (tensor<6xf16> {mesh.sharding = #mesh.sharding<@mesh2d, {{\[\[}}1]]>})
// IR: mesh.all_reduce %{{.*}} on @mesh2d mesh_axes = [0] : tensor<6xf16> -> tensor<6xf16>
func.func @row_of_split_cols(%x: tensor<8x12xf16>) -> tensor<12xf16> {
  %s = mesh.sharding @mesh2d split_axes = [[0], [1]] : !mesh.sharding
  %a = mesh.shard %x to %s annotate_for_users : tensor<8x12xf16>
  %y = tensor.extract_slice %a[5, 0] [1, 12] [1, 1] : tensor<8x12xf16> to tensor<12xf16>
  %t = mesh.sharding @mesh2d split_axes = [[1]] : !mesh.sharding
  %r = mesh.shard %y to %t : tensor<12xf16>
  return %r : tensor<12xf16>
}

// 7 rows over 4 devices (1, 2, 2 and 2): a piece's size is read from it.
// IR-LABEL: func.func @last_of_seven(
// IR: %[[N:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x5xf32>
// IR: arith.cmpi slt, %{{.*}}, %[[N]] : index
func.func @last_of_seven(%x: tensor<7x5xf32>) -> tensor<5xf32> {
  %s = mesh.sharding @mesh2d split_axes = [[0, 1]] : !mesh.sharding
  %a = mesh.shard %x to %s annotate_for_users : tensor<7x5xf32>
  %y = tensor.extract_slice %a[6, 0] [1, 5] [1, 1] : tensor<7x5xf32> to tensor<5xf32>
  %t = mesh.sharding @mesh2d split_axes = [[]] : !mesh.sharding
  %r = mesh.shard %y to %t : tensor<5xf32>
  return %r : tensor<5xf32>
}

// An operand every device holds whole is sliced as it is: nothing masked.
// IR-LABEL: func.func @whole(
// IR-NOT: arith.select
// IR: tensor.extract_slice %arg0[6, 0]
// IR-NEXT: return
func.func @whole(%x: tensor<8x5xf32>) -> tensor<5xf32> {
  %y = tensor.extract_slice %x[6, 0] [1, 5] [1, 1] : tensor<8x5xf32> to tensor<5xf32>
  %t = mesh.sharding @mesh2d split_axes = [[0]] : !mesh.sharding
  %r = mesh.shard %y to %t : tensor<5xf32>
  return %r : tensor<5xf32>
}

// The output of a layer whose contraction is split is a partial sum: its
// last token is sliced from each device's terms and only that row is
// all-reduced (768 bytes), where the whole output was (12,288, as XLA).
// IR-LABEL: func.func @last_of_partial(
// IR: %[[M:.*]] = linalg.generic
// IR: %[[X:.*]] = tensor.extract_slice %[[M]][0, 15, 0] [2, 1, 64] [1, 1, 1] : tensor<2x16x64xf32> to tensor<2x64xf32>
// IR-NEXT: %[[R:.*]] = mesh.all_reduce %[[X]] on @mesh mesh_axes = [0] : tensor<2x64xf32> -> tensor<2x64xf32>
// IR-NEXT: return %[[R]]
// BYTES-LABEL: @last_of_partial on @mesh
// BYTES: max all_reduce 1 768
func.func @last_of_partial(%h: tensor<2x16x128xf32>, %w: tensor<128x64xf32>) -> tensor<2x64xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [], [0]] : !mesh.sharding
  %a = mesh.shard %h to %s annotate_for_users : tensor<2x16x128xf32>
  %ws = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %b = mesh.shard %w to %ws annotate_for_users : tensor<128x64xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x16x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(b, s, n, k) -> (b, s, k)>, affine_map<(b, s, n, k) -> (k, n)>, affine_map<(b, s, n, k) -> (b, s, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<2x16x128xf32>, tensor<128x64xf32>) outs(%f : tensor<2x16x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %q = arith.addf %o, %p : f32
    linalg.yield %q : f32
  } -> tensor<2x16x64xf32>
  %y = tensor.extract_slice %m[0, 15, 0] [2, 1, 64] [1, 1, 1] : tensor<2x16x64xf32> to tensor<2x64xf32>
  %t = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %r = mesh.shard %y to %t : tensor<2x64xf32>
  return %r : tensor<2x64xf32>
}

// The same at a run-time position (a decoder reading its position's
// output): the offset is an index every device holds, and the row is
// sliced from the terms as well.
// IR-LABEL: func.func @at_of_partial(
// IR: %[[M:.*]] = linalg.generic
// IR: %[[X:.*]] = tensor.extract_slice %[[M]][0, %{{.*}}, 0] [2, 1, 64] [1, 1, 1] : tensor<2x16x64xf32> to tensor<2x64xf32>
// IR-NEXT: %[[R:.*]] = mesh.all_reduce %[[X]] on @mesh mesh_axes = [0] : tensor<2x64xf32> -> tensor<2x64xf32>
// IR-NEXT: return %[[R]]
// BYTES-LABEL: @at_of_partial on @mesh
// BYTES: max all_reduce 1 768
func.func @at_of_partial(%h: tensor<2x16x128xf32>, %w: tensor<128x64xf32>, %pos: index) -> tensor<2x64xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [], [0]] : !mesh.sharding
  %a = mesh.shard %h to %s annotate_for_users : tensor<2x16x128xf32>
  %ws = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %b = mesh.shard %w to %ws annotate_for_users : tensor<128x64xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x16x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(b, s, n, k) -> (b, s, k)>, affine_map<(b, s, n, k) -> (k, n)>, affine_map<(b, s, n, k) -> (b, s, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<2x16x128xf32>, tensor<128x64xf32>) outs(%f : tensor<2x16x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %q = arith.addf %o, %p : f32
    linalg.yield %q : f32
  } -> tensor<2x16x64xf32>
  %c0 = arith.constant 0 : index
  %c15 = arith.constant 15 : index
  %lo = arith.maxsi %pos, %c0 : index
  %at = arith.minsi %lo, %c15 : index
  %y = tensor.extract_slice %m[0, %at, 0] [2, 1, 64] [1, 1, 1] : tensor<2x16x64xf32> to tensor<2x64xf32>
  %t = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %r = mesh.shard %y to %t : tensor<2x64xf32>
  return %r : tensor<2x64xf32>
}

// As torch-mlir writes a linear layer on a 3-D input (collapse, matmul,
// expand): the reshape of the partial sums runs on terms too.
// IR-LABEL: func.func @last_of_reshaped_partial(
// IR: %[[M:.*]] = linalg.matmul
// IR-NEXT: %[[E:.*]] = tensor.expand_shape %[[M]]
// IR-NEXT: %[[X:.*]] = tensor.extract_slice %[[E]][0, 15, 0] [2, 1, 64] [1, 1, 1] : tensor<2x16x64xf32> to tensor<2x64xf32>
// IR-NEXT: %[[R:.*]] = mesh.all_reduce %[[X]] on @mesh mesh_axes = [0] : tensor<2x64xf32> -> tensor<2x64xf32>
// BYTES-LABEL: @last_of_reshaped_partial on @mesh
// BYTES: max all_reduce 1 768
func.func @last_of_reshaped_partial(%h: tensor<2x16x128xf32>, %w: tensor<128x64xf32>) -> tensor<2x64xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [], [0]] : !mesh.sharding
  %a = mesh.shard %h to %s annotate_for_users : tensor<2x16x128xf32>
  %ws = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %b = mesh.shard %w to %ws annotate_for_users : tensor<128x64xf32>
  %c = tensor.collapse_shape %a [[0, 1], [2]] : tensor<2x16x128xf32> into tensor<32x128xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %m = linalg.matmul ins(%c, %b : tensor<32x128xf32>, tensor<128x64xf32>) outs(%f : tensor<32x64xf32>) -> tensor<32x64xf32>
  %x = tensor.expand_shape %m [[0, 1], [2]] output_shape [2, 16, 64] : tensor<32x64xf32> into tensor<2x16x64xf32>
  %y = tensor.extract_slice %x[0, 15, 0] [2, 1, 64] [1, 1, 1] : tensor<2x16x64xf32> to tensor<2x64xf32>
  %t = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %r = mesh.shard %y to %t : tensor<2x64xf32>
  return %r : tensor<2x64xf32>
}

// A cut by offsets leaving the first piece empty: each device reads as
// many rows as its piece has, at most one, into the zeros (a piece of no
// rows has none to slice).
// IR-LABEL: func.func @empty_pieces(
// IR: %[[N:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x8xf32>
// IR: %[[HAS:.*]] = arith.minsi %[[N]], %{{.*}} : index
// IR-NEXT: %[[READ:.*]] = arith.maxsi %[[HAS]], %{{.*}} : index
// IR-NEXT: %[[ROW:.*]] = tensor.extract_slice %arg0[%{{.*}}, 0] [%[[READ]], 8] [1, 1] : tensor<?x8xf32> to tensor<?x8xf32>
// IR: %[[ZEROS:.*]] = tensor.splat %{{.*}} : tensor<1x8xf32>
// IR-NEXT: %[[IN:.*]] = tensor.insert_slice %[[ROW]] into %[[ZEROS]][0, 0] [%[[READ]], 8] [1, 1] : tensor<?x8xf32> into tensor<1x8xf32>
// IR-NEXT: arith.select %{{.*}}, %[[IN]], %[[ZEROS]] : tensor<1x8xf32>
func.func @empty_pieces(%x: tensor<8x8xf32>, %p: index) -> tensor<8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] sharded_dims_offsets = [0, 0, 4, 8, 8] : !mesh.sharding
  %a0 = mesh.shard %x to %s : tensor<8x8xf32>
  %a = mesh.shard %a0 to %s annotate_for_users : tensor<8x8xf32>
  %c8 = arith.constant 8 : index
  %q = arith.remui %p, %c8 : index
  %y = tensor.extract_slice %a[%q, 0] [1, 8] [1, 1] : tensor<8x8xf32> to tensor<8xf32>
  return %y : tensor<8xf32>
}

// SWEEP-LABEL: func.func @three_rows(
// SWEEP: tensor.insert_slice
// SWEEP: arith.select
func.func @three_rows(%x: tensor<3x8xf32>, %p: index) -> tensor<8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a = mesh.shard %x to %s annotate_for_users : tensor<3x8xf32>
  %c3 = arith.constant 3 : index
  %q = arith.remui %p, %c3 : index
  %y = tensor.extract_slice %a[%q, 0] [1, 8] [1, 1] : tensor<3x8xf32> to tensor<8xf32>
  return %y : tensor<8xf32>
}
