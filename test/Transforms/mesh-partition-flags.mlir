// RUN: mesh-opt --split-input-file --sharding-propagation --mesh-partition %s | FileCheck %s

// A reduction split along its reduction loop folds, on each device, only
// its own piece, from the init (first device) or the neutral value (the
// others).  Those running values are no prefix of the whole fold: the whole
// sum of [INT32_MIN, INT32_MAX, INT32_MAX, 1] never wraps, yet the second
// device's INT32_MAX + 1 does.  nsw, nuw and ninf promised something of the
// whole fold only, and on a piece they would make the partial sum poison, so
// the combiner drops them; nnan and the other fast-math flags stay (a NaN
// in a piece is a NaN of the whole), as do the flags of body ops that see
// the same values as before.

mesh.mesh @mesh(shape = 2)

// CHECK-LABEL: func.func @sum_nsw(
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0(%[[IN:.*]]: i32, %[[OUT:.*]]: i32):
// CHECK-NEXT: arith.addi %[[IN]], %[[OUT]] : i32
func.func @sum_nsw(%x: tensor<4xi32>, %init: tensor<i32>) -> tensor<i32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<4xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%x0 : tensor<4xi32>) outs(%init : tensor<i32>) {
  ^bb0(%a: i32, %acc: i32):
    %t = arith.addi %a, %acc overflow<nsw> : i32
    linalg.yield %t : i32
  } -> tensor<i32>
  return %r : tensor<i32>
}

// -----

mesh.mesh @mesh(shape = 2)

// `fast` is every flag: all but ninf remain.
// CHECK-LABEL: func.func @sum_fast(
// CHECK: linalg.reduce
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<reassoc,nnan,nsz,arcp,contract,afn> : f32
func.func @sum_fast(%x: tensor<4xf32>, %init: tensor<f32>) -> tensor<f32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<4xf32>
  %r = linalg.reduce ins(%x0 : tensor<4xf32>) outs(%init : tensor<f32>) dimensions = [0]
    (%a: f32, %acc: f32) {
      %t = arith.addf %a, %acc fastmath<fast> : f32
      linalg.yield %t : f32
    }
  return %r : tensor<f32>
}

// -----

mesh.mesh @mesh(shape = 2)

// A product's pieces overflow too ([0, 65536 | 65536, 65536]: the whole
// product stays 0, the second piece's wraps).
// CHECK-LABEL: func.func @product_nuw(
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0(%[[IN:.*]]: i32, %[[OUT:.*]]: i32):
// CHECK-NEXT: arith.muli %[[OUT]], %[[IN]] : i32
func.func @product_nuw(%x: tensor<4xi32>, %init: tensor<i32>) -> tensor<i32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<4xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%x0 : tensor<4xi32>) outs(%init : tensor<i32>) {
  ^bb0(%a: i32, %acc: i32):
    %t = arith.muli %acc, %a overflow<nsw, nuw> : i32
    linalg.yield %t : i32
  } -> tensor<i32>
  return %r : tensor<i32>
}

// -----

mesh.mesh @mesh(shape = 2)

// A matmul split along k: the products are the ones the whole matmul
// computes, so their multiply keeps nsw; the sum of them does not.
// CHECK-LABEL: func.func @matmul_k(
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0(%[[X:.*]]: i32, %[[Y:.*]]: i32, %[[OUT:.*]]: i32):
// CHECK-NEXT: %[[M:.*]] = arith.muli %[[X]], %[[Y]] overflow<nsw> : i32
// CHECK-NEXT: arith.addi %[[OUT]], %[[M]] : i32
// CHECK: mesh.all_reduce
func.func @matmul_k(%a: tensor<2x4xi32>, %b: tensor<4x2xi32>, %c: tensor<2x2xi32>) -> tensor<2x2xi32> {
  %sa = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %sb = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %sr = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %a0 = mesh.shard %a to %sa : tensor<2x4xi32>
  %b0 = mesh.shard %b to %sb : tensor<4x2xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a0, %b0 : tensor<2x4xi32>, tensor<4x2xi32>) outs(%c : tensor<2x2xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %m = arith.muli %x, %y overflow<nsw> : i32
    %t = arith.addi %o, %m overflow<nsw, nuw> : i32
    linalg.yield %t : i32
  } -> tensor<2x2xi32>
  %r0 = mesh.shard %r to %sr : tensor<2x2xi32>
  return %r0 : tensor<2x2xi32>
}

// -----

mesh.mesh @mesh(shape = 2)

// Each output's combiner, and only it: the square sees what it saw before.
// CHECK-LABEL: func.func @two_outputs(
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %[[O0:.*]]: f32, %[[O1:.*]]: f32):
// CHECK-NEXT: %[[SQ:.*]] = arith.mulf %[[IN]], %[[IN]] fastmath<ninf> : f32
// CHECK-NEXT: arith.addf %[[IN]], %[[O0]] fastmath<nnan> : f32
// CHECK-NEXT: arith.addf %[[SQ]], %[[O1]] : f32
func.func @two_outputs(%x: tensor<4xf32>, %i0: tensor<f32>, %i1: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<4xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%x0 : tensor<4xf32>) outs(%i0, %i1 : tensor<f32>, tensor<f32>) {
  ^bb0(%a: f32, %o0: f32, %o1: f32):
    %sq = arith.mulf %a, %a fastmath<ninf> : f32
    %t0 = arith.addf %a, %o0 fastmath<nnan,ninf> : f32
    %t1 = arith.addf %sq, %o1 fastmath<ninf> : f32
    linalg.yield %t0, %t1 : f32, f32
  } -> (tensor<f32>, tensor<f32>)
  return %r#0, %r#1 : tensor<f32>, tensor<f32>
}

// -----

mesh.mesh @mesh(shape = 2)

// Split along a parallel loop only, every device folds whole rows, as the
// whole op does: the flags stay.
// CHECK-LABEL: func.func @rows(
// CHECK: arith.addi %{{.*}}, %{{.*}} overflow<nsw> : i32
func.func @rows(%x: tensor<4x4xi32>, %init: tensor<4xi32>) -> tensor<4xi32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<4x4xi32>
  %r = linalg.reduce ins(%x0 : tensor<4x4xi32>) outs(%init : tensor<4xi32>) dimensions = [1]
    (%a: i32, %acc: i32) {
      %t = arith.addi %a, %acc overflow<nsw> : i32
      linalg.yield %t : i32
    }
  %r0 = mesh.shard %r to %s : tensor<4xi32>
  return %r0 : tensor<4xi32>
}

// -----

mesh.mesh @mesh(shape = 2)

// An add of partial sums runs on each device's terms, whose sum is the
// result's partial sum: nothing is reduced.  Terms may wrap where their
// totals do not, so the add loses its overflow flags.
// CHECK-LABEL: func.func @elementwise_of_partials(
// CHECK-NEXT: %[[C:.*]] = arith.addi %arg0, %arg1 : tensor<4xi32>
// CHECK-NEXT: return %[[C]]
func.func @elementwise_of_partials(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %s = mesh.sharding @mesh split_axes = [[]] partial = sum [0] : !mesh.sharding
  %a0 = mesh.shard %a to %s : tensor<4xi32>
  %b0 = mesh.shard %b to %s : tensor<4xi32>
  %c = arith.addi %a0, %b0 overflow<nsw> : tensor<4xi32>
  %c0 = mesh.shard %c to %s : tensor<4xi32>
  return %c0 : tensor<4xi32>
}

// -----

mesh.mesh @mesh(shape = 2)

// A product of two partial sums reads one as its total: the other's terms
// times that total are the product's terms, and the product loses its
// flags.
// CHECK-LABEL: func.func @product_of_partials(
// CHECK-NEXT: %[[B:.*]] = mesh.all_reduce %arg1 on @mesh mesh_axes = [0] : tensor<4xi32> -> tensor<4xi32>
// CHECK-NEXT: %[[C:.*]] = arith.muli %arg0, %[[B]] : tensor<4xi32>
// CHECK-NEXT: return %[[C]]
func.func @product_of_partials(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %s = mesh.sharding @mesh split_axes = [[]] partial = sum [0] : !mesh.sharding
  %a0 = mesh.shard %a to %s : tensor<4xi32>
  %b0 = mesh.shard %b to %s : tensor<4xi32>
  %c = arith.muli %a0, %b0 overflow<nsw> : tensor<4xi32>
  %c0 = mesh.shard %c to %s : tensor<4xi32>
  return %c0 : tensor<4xi32>
}

// -----

mesh.mesh @mesh(shape = 2)

// Other elementwise ops never run on partial values: partition all-reduces
// them first (no rule takes a partial operand), so the op sees the totals
// and keeps its flags, even when its result is wanted partial again.
// CHECK-LABEL: func.func @shift_of_partials(
// CHECK: %[[A:.*]] = mesh.all_reduce %arg0
// CHECK: %[[B:.*]] = mesh.all_reduce %arg1
// CHECK: arith.shli %[[A]], %[[B]] overflow<nsw> : tensor<4xi32>
func.func @shift_of_partials(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %s = mesh.sharding @mesh split_axes = [[]] partial = sum [0] : !mesh.sharding
  %a0 = mesh.shard %a to %s : tensor<4xi32>
  %b0 = mesh.shard %b to %s : tensor<4xi32>
  %c = arith.shli %a0, %b0 overflow<nsw> : tensor<4xi32>
  %c0 = mesh.shard %c to %s : tensor<4xi32>
  return %c0 : tensor<4xi32>
}
