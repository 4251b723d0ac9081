// Nearest up-sampling as torch-mlir writes it: the body reads the input at
// clamp(floor(float(i) / 2), 0, n - 1) for output index i. That index
// arithmetic computes i floordiv 2 on every index of the loop
// (`index_chains`), so a device's piece of the output reads the same piece
// of the input, at its local index, when the mesh divides the input's
// dimension: nothing moves. Otherwise (an uneven piece, a clamp that
// bites) the input is read whole at the global index. Each function is
// simulated against the unpartitioned program.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-opt --mesh-partition %s -o %t.part.mlir
// RUN: FileCheck %s --check-prefix=PART < %t.part.mlir
// RUN: mesh-run %t.part.mlir -f uneven --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f nearest --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f nearest --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f both_axes --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f both_axes --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f uneven --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f uneven --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f clamped --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f clamped --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f masked --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f masked --compare-with %s -q --seed 2 | FileCheck %s
// CHECK: match

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rows = affine_map<(d0, d1) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
mesh.mesh @mesh(shape = 4)
mesh.mesh @mesh2(shape = 2x2)

// Rows split 4 ways: each device reads its 2 input rows for its 4 output rows.
// IR-LABEL: func.func @nearest(
// IR-SAME: %arg0: tensor<2x2x8xf32>
// IR-NOT: = mesh.
// IR: %[[I:.*]] = linalg.index 1 : index
// IR-NOT: arith.addi
// IR: arith.index_cast %[[I]] : index to i64
// IR: tensor.extract %arg0[{{.*}}] : tensor<2x2x8xf32>
// IR: return
func.func @nearest(%x: tensor<2x8x8xf32>) -> tensor<2x16x16xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<2x8x8xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %two = arith.constant 2.000000e+00 : f32
  %five = arith.constant 5.000000e+00 : f32
  %six = arith.constant 6.000000e+00 : f32
  %seven = arith.constant 7.000000e+00 : f32
  %e = tensor.empty() : tensor<2x16x16xf32>
  %u = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e : tensor<2x16x16xf32>) {
  ^bb0(%out: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %rc = arith.index_cast %i : index to i64
    %rf = arith.sitofp %rc : i64 to f32
    %rq = arith.divf %rf, %two : f32
    %rl = math.floor %rq : f32
    %rlo = arith.maximumf %rl, %zero : f32
    %rhi = arith.minimumf %rlo, %seven : f32
    %rn = arith.fptosi %rhi : f32 to i64
    %r = arith.index_cast %rn : i64 to index
    %cc = arith.index_cast %j : index to i64
    %cf = arith.sitofp %cc : i64 to f32
    %cq = arith.divf %cf, %two : f32
    %cl = math.floor %cq : f32
    %clo = arith.maximumf %cl, %zero : f32
    %chi = arith.minimumf %clo, %seven : f32
    %cn = arith.fptosi %chi : f32 to i64
    %c = arith.index_cast %cn : i64 to index
    %v = tensor.extract %xs[%b, %r, %c] : tensor<2x8x8xf32>
    linalg.yield %v : f32
  } -> tensor<2x16x16xf32>
  %us = mesh.shard %u to %s : tensor<2x16x16xf32>
  return %us : tensor<2x16x16xf32>
}

// Rows and columns split over the two axes of a 2x2 mesh.
// IR-LABEL: func.func @both_axes(
// IR-SAME: %arg0: tensor<2x2x3xf32>
// IR-NOT: = mesh.
// IR: tensor.extract %arg0[{{.*}}] : tensor<2x2x3xf32>
// IR: return
func.func @both_axes(%x: tensor<2x4x6xf32>) -> tensor<2x8x12xf32> {
  %s = mesh.sharding @mesh2 split_axes = [[], [0], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<2x4x6xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %two = arith.constant 2.000000e+00 : f32
  %five = arith.constant 5.000000e+00 : f32
  %six = arith.constant 6.000000e+00 : f32
  %seven = arith.constant 7.000000e+00 : f32
  %e = tensor.empty() : tensor<2x8x12xf32>
  %u = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e : tensor<2x8x12xf32>) {
  ^bb0(%out: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %rc = arith.index_cast %i : index to i64
    %rf = arith.sitofp %rc : i64 to f32
    %rq = arith.divf %rf, %two : f32
    %rl = math.floor %rq : f32
    %rlo = arith.maximumf %rl, %zero : f32
    %rhi = arith.minimumf %rlo, %seven : f32
    %rn = arith.fptosi %rhi : f32 to i64
    %r = arith.index_cast %rn : i64 to index
    %cc = arith.index_cast %j : index to i64
    %cf = arith.sitofp %cc : i64 to f32
    %cq = arith.divf %cf, %two : f32
    %cl = math.floor %cq : f32
    %clo = arith.maximumf %cl, %zero : f32
    %chi = arith.minimumf %clo, %five : f32
    %cn = arith.fptosi %chi : f32 to i64
    %c = arith.index_cast %cn : i64 to index
    %v = tensor.extract %xs[%b, %r, %c] : tensor<2x4x6xf32>
    linalg.yield %v : f32
  } -> tensor<2x8x12xf32>
  %us = mesh.shard %u to %s : tensor<2x8x12xf32>
  return %us : tensor<2x8x12xf32>
}

// 6 input rows for 12 output rows over 4 devices: a device's 3 output rows
// do not start at an even row, so partition alone (which splits the loop as
// %y is split) reads the input whole, at the global row.  Propagation moves
// the axis to the columns instead (8 outputs read 4 inputs at j floordiv 2:
// a device's 2 columns read its 1 column), by one all_to_all of each
// operand and one back: 336 bytes a device, where gathering took 768.
// IR-LABEL: func.func @uneven(
// IR-NOT: mesh.all_gather
// IR: mesh.all_to_all %arg1 on @mesh mesh_axes = [0] split_axis = 2 concat_axis = 1 : tensor<2x3x8xf32> -> tensor<2x12x2xf32>
// IR: mesh.all_to_all %{{.*}} on @mesh mesh_axes = [0] split_axis = 2 concat_axis = 1 : tensor<2x2x4xf32> -> tensor<2x8x1xf32>
// IR: tensor.extract %{{.*}} : tensor<2x6x1xf32>
// IR: mesh.all_to_all %{{.*}} on @mesh mesh_axes = [0] split_axis = 1 concat_axis = 2 : tensor<2x12x2xf32> -> tensor<2x3x8xf32>
// IR-NOT: mesh.all_gather
// IR: return
// PART-LABEL: func.func @uneven(
// PART: mesh.all_gather
// PART: %[[I:.*]] = linalg.index 1 : index
// PART: %[[G:.*]] = arith.addi %[[I]], %{{.*}} : index
// PART: arith.index_cast %[[G]] : index to i64
// PART: tensor.extract %{{.*}} : tensor<2x6x4xf32>
// PART: return
func.func @uneven(%x: tensor<2x6x4xf32>, %y: tensor<2x12x8xf32>) -> tensor<2x12x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<2x6x4xf32>
  %ys = mesh.shard %y to %s annotate_for_users : tensor<2x12x8xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %two = arith.constant 2.000000e+00 : f32
  %five = arith.constant 5.000000e+00 : f32
  %c2 = arith.constant 2 : index
  %e = tensor.empty() : tensor<2x12x8xf32>
  %u = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ys : tensor<2x12x8xf32>) outs(%e : tensor<2x12x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %rc = arith.index_cast %i : index to i64
    %rf = arith.sitofp %rc : i64 to f32
    %rq = arith.divf %rf, %two : f32
    %rl = math.floor %rq : f32
    %rlo = arith.maximumf %rl, %zero : f32
    %rhi = arith.minimumf %rlo, %five : f32
    %rn = arith.fptosi %rhi : f32 to i64
    %r = arith.index_cast %rn : i64 to index
    %c = arith.floordivsi %j, %c2 : index
    %v = tensor.extract %xs[%b, %r, %c] : tensor<2x6x4xf32>
    %w = arith.addf %v, %in : f32
    linalg.yield %w : f32
  } -> tensor<2x12x8xf32>
  %us = mesh.shard %u to %s : tensor<2x12x8xf32>
  return %us : tensor<2x12x8xf32>
}

// The clamp stops at row 6 where row 7 is read: not i floordiv 2, so the
// input is not read piece by piece along the rows.
// IR-LABEL: func.func @clamped(
// IR: mesh.all
// IR: return
func.func @clamped(%x: tensor<2x8x4xf32>) -> tensor<2x16x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<2x8x4xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %two = arith.constant 2.000000e+00 : f32
  %five = arith.constant 5.000000e+00 : f32
  %six = arith.constant 6.000000e+00 : f32
  %seven = arith.constant 7.000000e+00 : f32
  %e = tensor.empty() : tensor<2x16x8xf32>
  %u = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]} outs(%e : tensor<2x16x8xf32>) {
  ^bb0(%out: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %rc = arith.index_cast %i : index to i64
    %rf = arith.sitofp %rc : i64 to f32
    %rq = arith.divf %rf, %two : f32
    %rl = math.floor %rq : f32
    %rlo = arith.maximumf %rl, %zero : f32
    %rhi = arith.minimumf %rlo, %six : f32
    %rn = arith.fptosi %rhi : f32 to i64
    %r = arith.index_cast %rn : i64 to index
    %cc = arith.index_cast %j : index to i64
    %cf = arith.sitofp %cc : i64 to f32
    %cq = arith.divf %cf, %two : f32
    %cl = math.floor %cq : f32
    %clo = arith.maximumf %cl, %zero : f32
    %chi = arith.minimumf %clo, %seven : f32
    %cn = arith.fptosi %chi : f32 to i64
    %c = arith.index_cast %cn : i64 to index
    %v = tensor.extract %xs[%b, %r, %c] : tensor<2x8x4xf32>
    linalg.yield %v : f32
  } -> tensor<2x16x8xf32>
  %us = mesh.shard %u to %s : tensor<2x16x8xf32>
  return %us : tensor<2x16x8xf32>
}

// A vocabulary-parallel lookup whose row is up-sampled: the table's rows are
// masked (`masked_read`), its columns read at j floordiv 2 keep the local
// index on the devices' pieces of the columns.
// IR-LABEL: func.func @masked(
// IR-SAME: %arg0: tensor<128x2xf32>
// IR-NOT: mesh.all_gather
// IR: %[[J:.*]] = linalg.index 1 : index
// IR-NEXT: arith.floordivsi %[[J]], %{{.*}} : index
// IR: mesh.all_reduce
// IR: return
func.func @masked(%table: tensor<256x4xf32>, %ids: tensor<6xi64>) -> tensor<6x8xf32> {
  %st = mesh.sharding @mesh2 split_axes = [[0], [1]] : !mesh.sharding
  %ts = mesh.shard %table to %st annotate_for_users : tensor<256x4xf32>
  %so = mesh.sharding @mesh2 split_axes = [[], [1]] : !mesh.sharding
  %c2 = arith.constant 2 : index
  %c256 = arith.constant 256 : index
  %e = tensor.empty() : tensor<6x8xf32>
  %g = linalg.generic {indexing_maps = [#rows, #id2], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<6xi64>) outs(%e : tensor<6x8xf32>) {
  ^bb0(%id: i64, %out: f32):
    %n = arith.index_cast %id : i64 to index
    %row = arith.remui %n, %c256 : index
    %j = linalg.index 1 : index
    %col = arith.floordivsi %j, %c2 : index
    %v = tensor.extract %ts[%row, %col] : tensor<256x4xf32>
    linalg.yield %v : f32
  } -> tensor<6x8xf32>
  %gs = mesh.shard %g to %so : tensor<6x8xf32>
  return %gs : tensor<6x8xf32>
}
