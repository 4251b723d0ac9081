// A linalg body that reads an outside tensor only at the op's own loop
// index in some dimension (torch-mlir's NLL loss picks each row's label
// from the log-softmax at [row, label]) reads the piece of that dimension
// matching the device's piece of the loop: the tensor is split there as the
// loop is (free when it already is), whole elsewhere, and the read keeps
// the local index.  The cost solver prices the read so.  Each function is
// simulated against the unpartitioned program, on several seeds.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir -f nll --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f nll --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f nll_unannotated --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f nll_unannotated --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f uneven --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f uneven --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f reduce --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f reduce --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f two_axes --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f two_axes --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f offsets --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f offsets --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f mixed --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f mixed --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f transposed --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f transposed --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f flip_rows --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f flip_rows --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f merged --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f merged_other_read --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f merged_same --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f whole_constants --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f offsets_in_loop --compare-with %s -q --seed 1 | FileCheck %s
// CHECK: match

#id1 = affine_map<(d0) -> (d0)>
#to0 = affine_map<(d0) -> ()>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rows2 = affine_map<(d0, d1) -> (d0)>
mesh.mesh @mesh(shape = 4)
mesh.mesh @mesh2(shape = 2x2)

// Rows of the log-softmax and the labels split alike: nothing moves before
// the final sum, and the body reads its own rows at the local row index.
// IR-LABEL: func.func @nll(
// IR-SAME: %arg0: tensor<2x10xf32>
// IR-NOT: mesh.all_
// IR: %[[I:.*]] = linalg.index 0 : index
// IR-NOT: arith.addi
// IR: tensor.extract %arg0[%[[I]], %{{.*}}] : tensor<2x10xf32>
// IR: return
func.func @nll(%logp: tensor<8x10xf32>, %labels: tensor<8xi64>) -> tensor<f32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %lp = mesh.shard %logp to %rows : tensor<8x10xf32>
  %lb = mesh.shard %labels to %rows : tensor<8xi64>
  %e = tensor.empty() : tensor<8xf32>
  %picked = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%lb : tensor<8xi64>) outs(%e : tensor<8xf32>) {
  ^bb0(%l: i64, %out: f32):
    %i = linalg.index 0 : index
    %l0 = arith.index_cast %l : i64 to index
    %c10 = arith.constant 10 : index
    %c = arith.remui %l0, %c10 : index
    %v = tensor.extract %lp[%i, %c] : tensor<8x10xf32>
    %n = arith.negf %v : f32
    linalg.yield %n : f32
  } -> tensor<8xf32>
  %z = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %sum = linalg.generic {indexing_maps = [#id1, #to0], iterator_types = ["reduction"]} ins(%picked : tensor<8xf32>) outs(%f0 : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %sum : tensor<f32>
}

// Only the log-softmax is annotated: the solver splits the loop by rows
// (the labels arrive split) rather than gathering the log-softmax.
// IR-LABEL: func.func @nll_unannotated(
// IR-SAME: %arg1: tensor<2xi64>
// IR-NOT: mesh.all_gather
// IR: tensor.extract %arg0[
// IR: return
func.func @nll_unannotated(%logp: tensor<8x10xf32>, %labels: tensor<8xi64>) -> tensor<f32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %lp = mesh.shard %logp to %rows : tensor<8x10xf32>
  %e = tensor.empty() : tensor<8xf32>
  %picked = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%labels : tensor<8xi64>) outs(%e : tensor<8xf32>) {
  ^bb0(%l: i64, %out: f32):
    %i = linalg.index 0 : index
    %l0 = arith.index_cast %l : i64 to index
    %c10 = arith.constant 10 : index
    %c = arith.remui %l0, %c10 : index
    %v = tensor.extract %lp[%i, %c] : tensor<8x10xf32>
    %n = arith.negf %v : f32
    linalg.yield %n : f32
  } -> tensor<8xf32>
  %z = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %sum = linalg.generic {indexing_maps = [#id1, #to0], iterator_types = ["reduction"]} ins(%picked : tensor<8xf32>) outs(%f0 : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %sum : tensor<f32>
}

// Six rows over four devices: the loop's pieces and the table's are cut
// alike.
// IR-LABEL: func.func @uneven(
// IR-NOT: mesh.all_
// IR: %[[I:.*]] = linalg.index 0 : index
// IR: tensor.extract %arg0[%[[I]], %{{.*}}] : tensor<?x3xf32>
// IR: return
func.func @uneven(%t: tensor<6x3xf32>, %x: tensor<6xf32>) -> tensor<6xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %ts = mesh.shard %t to %rows : tensor<6x3xf32>
  %xs = mesh.shard %x to %rows : tensor<6xf32>
  %e = tensor.empty() : tensor<6xf32>
  %g = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%xs : tensor<6xf32>) outs(%e : tensor<6xf32>) {
  ^bb0(%a: f32, %out: f32):
    %i = linalg.index 0 : index
    %c2 = arith.constant 2 : index
    %v = tensor.extract %ts[%i, %c2] : tensor<6x3xf32>
    %y = arith.mulf %a, %v : f32
    linalg.yield %y : f32
  } -> tensor<6xf32>
  %out = mesh.shard %g to %rows : tensor<6xf32>
  return %out : tensor<6xf32>
}

// The read follows a reduction loop: each device folds its own rows of the
// table, and the result is a partial sum.
// IR-LABEL: func.func @reduce(
// IR-NOT: mesh.all_gather
// IR: tensor.extract %arg0[%{{.*}}, %{{.*}}] : tensor<2x3xf32>
// IR: mesh.all_reduce
func.func @reduce(%t: tensor<8x3xf32>, %x: tensor<8xf32>) -> tensor<f32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [] : !mesh.sharding
  %ts = mesh.shard %t to %rows : tensor<8x3xf32>
  %xs = mesh.shard %x to %rows : tensor<8xf32>
  %z = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %g = linalg.generic {indexing_maps = [#id1, #to0], iterator_types = ["reduction"]} ins(%xs : tensor<8xf32>) outs(%f0 : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %i = linalg.index 0 : index
    %c1 = arith.constant 1 : index
    %v = tensor.extract %ts[%i, %c1] : tensor<8x3xf32>
    %p = arith.mulf %a, %v : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  %out = mesh.shard %g to %whole : tensor<f32>
  return %out : tensor<f32>
}

// Rows over axis 0 and columns over axis 1: the columns are read at a
// label.  Each device reads the label only where its columns hold it, and
// yields zero elsewhere (vocabulary-parallel.mlir): the picked values are
// partial sums over axis 1, and one all_reduce of 4 floats per device moves
// 16 bytes, where moving the columns' axis to the rows moved 32.
// IR-LABEL: func.func @two_axes(
// IR-NOT: mesh.all_to_all
// IR-NOT: mesh.all_gather
// IR: %[[IN:.*]] = arith.cmpi ult,
// IR: tensor.extract %arg0[
// IR: arith.select %[[IN]],
// IR: mesh.all_reduce %{{.*}} on @mesh2 mesh_axes = [1] : tensor<4xf32> -> tensor<4xf32>
func.func @two_axes(%logp: tensor<8x6xf32>, %labels: tensor<8xi64>) -> tensor<8xf32> {
  %both = mesh.sharding @mesh2 split_axes = [[0], [1]] : !mesh.sharding
  %rows = mesh.sharding @mesh2 split_axes = [[0]] : !mesh.sharding
  %lp = mesh.shard %logp to %both : tensor<8x6xf32>
  %lb = mesh.shard %labels to %rows : tensor<8xi64>
  %e = tensor.empty() : tensor<8xf32>
  %picked = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%lb : tensor<8xi64>) outs(%e : tensor<8xf32>) {
  ^bb0(%l: i64, %out: f32):
    %i = linalg.index 0 : index
    %l0 = arith.index_cast %l : i64 to index
    %c6 = arith.constant 6 : index
    %c = arith.remui %l0, %c6 : index
    %v = tensor.extract %lp[%i, %c] : tensor<8x6xf32>
    linalg.yield %v : f32
  } -> tensor<8xf32>
  %out = mesh.shard %picked to %rows : tensor<8xf32>
  return %out : tensor<8xf32>
}

// Where annotations are cut at offsets, a tensor read at a loop index is
// priced whole, and partition reads it whole unless the loop's cut is the
// default one: re-cutting it could run once per iteration of a loop around
// (offsets_in_loop).  Here the op runs whole.
// IR-LABEL: func.func @offsets(
// IR: %[[W:.*]] = mesh.all_gather %arg0 on @mesh mesh_axes = [0] gather_axis = 0 : tensor<2x3xf32> -> tensor<8x3xf32>
// IR: linalg.generic
// IR: tensor.extract %[[W]][
// IR: return
func.func @offsets(%t: tensor<8x3xf32>, %x: tensor<8xf32>) -> tensor<8xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %cut = mesh.sharding @mesh split_axes = [[0]] sharded_dims_offsets = [0, 1, 4, 6, 8] : !mesh.sharding
  %ts = mesh.shard %t to %rows : tensor<8x3xf32>
  %xs = mesh.shard %x to %cut : tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %g = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%xs : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %out: f32):
    %i = linalg.index 0 : index
    %c0 = arith.constant 0 : index
    %v = tensor.extract %ts[%i, %c0] : tensor<8x3xf32>
    %y = arith.addf %a, %v : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  %out = mesh.shard %g to %cut : tensor<8xf32>
  return %out : tensor<8xf32>
}

// Two reads of one table at different indices: no dimension is read at one
// loop only, so the table is read whole; the loop index keeps its offset.
// IR-LABEL: func.func @mixed(
// IR: %[[W:.*]] = mesh.all_gather %arg0
// IR: %[[I:.*]] = linalg.index 0 : index
// IR: %[[G:.*]] = arith.addi %[[I]],
// IR: tensor.extract %[[W]][%[[G]], %{{.*}}] : tensor<8x8xf32>
// IR: tensor.extract %[[W]][%{{.*}}, %[[G]]] : tensor<8x8xf32>
func.func @mixed(%t: tensor<8x8xf32>, %x: tensor<8xf32>) -> tensor<8xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %ts = mesh.shard %t to %rows : tensor<8x8xf32>
  %xs = mesh.shard %x to %rows : tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %g = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%xs : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %out: f32):
    %i = linalg.index 0 : index
    %c3 = arith.constant 3 : index
    %v = tensor.extract %ts[%i, %c3] : tensor<8x8xf32>
    %w = tensor.extract %ts[%c3, %i] : tensor<8x8xf32>
    %y = arith.addf %v, %w : f32
    %z = arith.addf %a, %y : f32
    linalg.yield %z : f32
  } -> tensor<8xf32>
  %out = mesh.shard %g to %rows : tensor<8xf32>
  return %out : tensor<8xf32>
}

// A table read transposed, [j, i]: its first dimension follows loop 1 and
// its second loop 0; each is split as its loop is.
// IR-LABEL: func.func @transposed(
// IR-NOT: mesh.all_gather
// IR: %[[I:.*]] = linalg.index 0 : index
// IR: %[[J:.*]] = linalg.index 1 : index
// IR: tensor.extract %arg0[%[[J]], %[[I]]] : tensor<3x2xf32>
func.func @transposed(%t: tensor<6x4xf32>, %x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %tt = mesh.sharding @mesh2 split_axes = [[1], [0]] : !mesh.sharding
  %xx = mesh.sharding @mesh2 split_axes = [[0], [1]] : !mesh.sharding
  %ts = mesh.shard %t to %tt : tensor<6x4xf32>
  %xs = mesh.shard %x to %xx : tensor<4x6xf32>
  %e = tensor.empty() : tensor<4x6xf32>
  %g = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%xs : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%a: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %v = tensor.extract %ts[%j, %i] : tensor<6x4xf32>
    %y = arith.subf %a, %v : f32
    linalg.yield %y : f32
  } -> tensor<4x6xf32>
  %out = mesh.shard %g to %xx : tensor<4x6xf32>
  return %out : tensor<4x6xf32>
}

// Rows read reversed, columns at the op's column index: the solver moves
// the split from the rows to the columns (an all_to_all moves less than
// gathering the rows would; ten columns over four devices are cut 2, 2, 3,
// 3), and the op runs on its columns.
// IR-LABEL: func.func @flip_rows(
// IR-SAME: -> (tensor<8x?xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}], [0]], sharded_dims_offsets = [0, 2, 4, 7, 10]>})
// IR-NOT: mesh.all_gather
// IR: mesh.all_to_all %{{.*}} on @mesh mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<2x12xf32> -> tensor<8x3xf32>
// IR: %[[T:.*]] = tensor.concat dim(0)
// IR: %[[J:.*]] = linalg.index 1 : index
// IR: tensor.extract %[[T]][%{{.*}}, %[[J]]] : tensor<8x?xf32>
func.func @flip_rows(%x: tensor<8x10xf32>) -> tensor<8x10xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<8x10xf32>
  %e = tensor.empty() : tensor<8x10xf32>
  %g = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<8x10xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %r = arith.subi %c7, %i : index
    %v = tensor.extract %x0[%r, %j] : tensor<8x10xf32>
    linalg.yield %v : f32
  } -> tensor<8x10xf32>
  return %g : tensor<8x10xf32>
}

// A body reading both a tensor and its annotation: partition erases the
// annotation, and the two become one tensor, read at [i, 3] and at [3, i]:
// no dimension follows one loop, so it is read whole.
// IR-LABEL: func.func @merged(
// IR: %[[W:.*]] = mesh.all_gather %arg0
// IR: tensor.extract %[[W]][%{{.*}}, %{{.*}}] : tensor<8x8xf32>
// IR: tensor.extract %[[W]][%{{.*}}, %{{.*}}] : tensor<8x8xf32>
func.func @merged(%t: tensor<8x8xf32>, %x: tensor<8xf32>) -> tensor<8xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %ts = mesh.shard %t to %rows : tensor<8x8xf32>
  %xs = mesh.shard %x to %rows : tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %g = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%xs : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %out: f32):
    %i = linalg.index 0 : index
    %c3 = arith.constant 3 : index
    %v = tensor.extract %ts[%i, %c3] : tensor<8x8xf32>
    %w = tensor.extract %t[%c3, %i] : tensor<8x8xf32>
    %y = arith.addf %v, %w : f32
    %z = arith.addf %a, %y : f32
    linalg.yield %z : f32
  } -> tensor<8xf32>
  %out = mesh.shard %g to %rows : tensor<8xf32>
  return %out : tensor<8xf32>
}

// The same, where the tensor itself is read at a computed row.
// IR-LABEL: func.func @merged_other_read(
// IR: %[[W:.*]] = mesh.all_gather %arg0
// IR: tensor.extract %[[W]][%{{.*}}, %{{.*}}] : tensor<8x8xf32>
// IR: tensor.extract %[[W]][%{{.*}}, %{{.*}}] : tensor<8x8xf32>
func.func @merged_other_read(%t: tensor<8x8xf32>, %x: tensor<8xf32>) -> tensor<8xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %ts = mesh.shard %t to %rows : tensor<8x8xf32>
  %xs = mesh.shard %x to %rows : tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %g = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%xs : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %out: f32):
    %i = linalg.index 0 : index
    %c3 = arith.constant 3 : index
    %c7 = arith.constant 7 : index
    %r = arith.subi %c7, %i : index
    %v = tensor.extract %ts[%i, %c3] : tensor<8x8xf32>
    %w = tensor.extract %t[%r, %c3] : tensor<8x8xf32>
    %y = arith.subf %v, %w : f32
    %z = arith.addf %a, %y : f32
    linalg.yield %z : f32
  } -> tensor<8xf32>
  %out = mesh.shard %g to %rows : tensor<8xf32>
  return %out : tensor<8xf32>
}

// The same, both read at [i, 3]: the reads merge, and the rows stay split.
// IR-LABEL: func.func @merged_same(
// IR-NOT: mesh.all_
// IR: tensor.extract %arg0[%{{.*}}, %{{.*}}] : tensor<2x8xf32>
// IR: tensor.extract %arg0[%{{.*}}, %{{.*}}] : tensor<2x8xf32>
func.func @merged_same(%t: tensor<8x8xf32>, %x: tensor<8xf32>) -> tensor<8xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %ts = mesh.shard %t to %rows : tensor<8x8xf32>
  %xs = mesh.shard %x to %rows : tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %g = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%xs : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %out: f32):
    %i = linalg.index 0 : index
    %c3 = arith.constant 3 : index
    %v = tensor.extract %ts[%i, %c3] : tensor<8x8xf32>
    %w = tensor.extract %t[%i, %c3] : tensor<8x8xf32>
    %y = arith.mulf %v, %w : f32
    %z = arith.addf %a, %y : f32
    linalg.yield %z : f32
  } -> tensor<8xf32>
  %out = mesh.shard %g to %rows : tensor<8xf32>
  return %out : tensor<8xf32>
}

// Two constants read whole (the cost graph gives values every device holds
// whole one id) beside a split table read at the row index: each aligned
// tensor keeps its own map, and the table is not gathered (it was, 24 B).
// IR-LABEL: func.func @whole_constants(
// IR-NOT: mesh.all_gather
// IR: return
func.func @whole_constants(%x: tensor<4x4xf32>, %t: tensor<4xf32>) -> tensor<4x4xf32> {
  %xx = mesh.sharding @mesh2 split_axes = [[0], [1]] : !mesh.sharding
  %tt = mesh.sharding @mesh2 split_axes = [[1]] : !mesh.sharding
  %xs = mesh.shard %x to %xx : tensor<4x4xf32>
  %ts = mesh.shard %t to %tt : tensor<4xf32>
  %c1 = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0]]> : tensor<4x4xf32>
  %c2 = arith.constant dense<[[100.0, 200.0, 300.0, 400.0], [500.0, 600.0, 700.0, 800.0], [900.0, 1000.0, 1100.0, 1200.0], [1300.0, 1400.0, 1500.0, 1600.0]]> : tensor<4x4xf32>
  %e = tensor.empty() : tensor<4x4xf32>
  %g = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%xs : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %v = tensor.extract %c1[%i, %j] : tensor<4x4xf32>
    %w = tensor.extract %c2[%j, %i] : tensor<4x4xf32>
    %u = tensor.extract %ts[%i] : tensor<4xf32>
    %y = arith.addf %v, %w : f32
    %y2 = arith.addf %y, %u : f32
    %z = arith.addf %y2, %a : f32
    linalg.yield %z : f32
  } -> tensor<4x4xf32>
  %out = mesh.shard %g to %xx : tensor<4x4xf32>
  return %out : tensor<4x4xf32>
}

// A table carried through a loop, split at the default cut, read at the
// row index of an op whose rows are cut at other offsets: it is gathered
// once, in front of the loop (it was cut again twice per iteration: 10,224
// bytes per device instead of 2,160).
// IR-LABEL: func.func @offsets_in_loop(
// IR: mesh.all_gather %arg0 on @mesh mesh_axes = [0] gather_axis = 0 : tensor<2x64xf32> -> tensor<8x64xf32>
// IR: scf.for
// IR-NOT: mesh.all_to_all
// IR: return
func.func @offsets_in_loop(%t: tensor<8x64xf32>, %x: tensor<8x64xf32>) -> tensor<8xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %cut = mesh.sharding @mesh split_axes = [[0]] sharded_dims_offsets = [0, 1, 4, 6, 8] : !mesh.sharding
  %ts = mesh.shard %t to %rows : tensor<8x64xf32>
  %xs = mesh.shard %x to %cut : tensor<8x64xf32>
  %z = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%z : f32) outs(%e0 : tensor<8xf32>) -> tensor<8xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %r:2 = scf.for %k = %c0 to %c10 step %c1 iter_args(%tc = %ts, %gc = %init) -> (tensor<8x64xf32>, tensor<8xf32>) {
    %g = linalg.generic {indexing_maps = [#id2, #rows2], iterator_types = ["parallel", "reduction"]} ins(%xs : tensor<8x64xf32>) outs(%gc : tensor<8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %v = tensor.extract %tc[%i, %j] : tensor<8x64xf32>
      %y = arith.mulf %a, %v : f32
      %s = arith.addf %y, %o : f32
      linalg.yield %s : f32
    } -> tensor<8xf32>
    %tn = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%tc : tensor<8x64xf32>) outs(%tc : tensor<8x64xf32>) {
    ^bb0(%ta: f32, %to: f32):
      %h = arith.constant 0.5 : f32
      %tt = arith.addf %ta, %h : f32
      linalg.yield %tt : f32
    } -> tensor<8x64xf32>
    scf.yield %tn, %g : tensor<8x64xf32>, tensor<8xf32>
  }
  %out = mesh.shard %r#1 to %cut : tensor<8xf32>
  return %out : tensor<8xf32>
}
