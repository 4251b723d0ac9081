// A body that reads its loop index (linalg.index) computes with global
// positions: where the loop is split, partition adds the device's first
// index along it (read from a table at its piece number, so uneven pieces
// count right too), and the op runs on its piece.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir -f iota --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir -f causal_mask --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir -f causal_mask --compare-with %s -q --seed 5 | FileCheck %s
// RUN: mesh-run %t.mlir -f weighted_row_sum --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir -f weighted_row_sum --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f two_axes --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir -f mapped --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir -f inner_index --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir -f into_argument --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir -f into_argument --compare-with %s -q --seed 3 | FileCheck %s
// CHECK: result 0: max error {{[0-9.e-]+}}
// CHECK-NEXT: match

mesh.mesh @mesh(shape = 2)
mesh.mesh @quad(shape = 4)
mesh.mesh @grid(shape = 2x3)
mesh.mesh @square(shape = 2x2)

// IR-LABEL: func.func @iota(
// IR-SAME: tensor<4xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>}
// IR-NOT: mesh.all_gather
// IR: %[[I:.*]] = linalg.index 0 : index
// IR-NEXT: arith.addi %[[I]], %{{.*}} : index
func.func @iota(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s annotate_for_users : tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x0 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %y = arith.addf %a, %f : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// A causal mask on scores whose 6 rows are split 4 ways (1, 1, 2, 2): each
// device compares its own global rows with the columns.
// IR-LABEL: func.func @causal_mask(
// IR-SAME: tensor<?x5xi32> {mesh.sharding = #mesh.sharding<@quad, {{\[\[}}0]], sharded_dims_offsets = [0, 1, 2, 4, 6]>}
// IR-NOT: mesh.all_
// IR: return
func.func @causal_mask(%s: tensor<6x5xi32>) -> tensor<6x5xi32> {
  %rows = mesh.sharding @quad split_axes = [[0]] : !mesh.sharding
  %s0 = mesh.shard %s to %rows : tensor<6x5xi32>
  %e = tensor.empty() : tensor<6x5xi32>
  %m = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s0 : tensor<6x5xi32>) outs(%e : tensor<6x5xi32>) {
  ^bb0(%a: i32, %o: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %later = arith.cmpi ugt, %j, %i : index
    %low = arith.constant -1000 : i32
    %y = arith.select %later, %low, %a : i32
    linalg.yield %y : i32
  } -> tensor<6x5xi32>
  %r = mesh.shard %m to %rows : tensor<6x5xi32>
  return %r : tensor<6x5xi32>
}

// The index of the reduction loop, split with the contraction: each device
// weighs its columns by their global positions, and the partial sums are
// reduced once.
// IR-LABEL: func.func @weighted_row_sum(
// IR: linalg.index 1 : index
// IR-NEXT: arith.addi
// IR: mesh.all_reduce %{{.*}} on @quad mesh_axes = [0] : tensor<3xi64> -> tensor<3xi64>
func.func @weighted_row_sum(%x: tensor<3x8xi64>) -> tensor<3xi64> {
  %cols = mesh.sharding @quad split_axes = [[], [0]] : !mesh.sharding
  %whole = mesh.sharding @quad split_axes = [[]] : !mesh.sharding
  %x0 = mesh.shard %x to %cols : tensor<3x8xi64>
  %zero = arith.constant 0 : i64
  %e = tensor.empty() : tensor<3xi64>
  %f = linalg.fill ins(%zero : i64) outs(%e : tensor<3xi64>) -> tensor<3xi64>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%x0 : tensor<3x8xi64>) outs(%f : tensor<3xi64>) {
  ^bb0(%a: i64, %acc: i64):
    %j = linalg.index 1 : index
    %jj = arith.index_cast %j : index to i64
    %w = arith.muli %a, %jj : i64
    %t = arith.addi %w, %acc : i64
    linalg.yield %t : i64
  } -> tensor<3xi64>
  %rs = mesh.shard %r to %whole : tensor<3xi64>
  return %rs : tensor<3xi64>
}

// A loop split over both axes of a 2x3 mesh (12 rows, 2 each): the start
// is the device's piece number over both axes times 2.
// IR-LABEL: func.func @two_axes(
// IR: linalg.index 0 : index
// IR-NEXT: arith.addi
func.func @two_axes(%x: tensor<12x2xi32>) -> tensor<12x2xi32> {
  %both = mesh.sharding @grid split_axes = [[0, 1]] : !mesh.sharding
  %x0 = mesh.shard %x to %both : tensor<12x2xi32>
  %e = tensor.empty() : tensor<12x2xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x0 : tensor<12x2xi32>) outs(%e : tensor<12x2xi32>) {
  ^bb0(%a: i32, %o: i32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %y = arith.muli %a, %ii : i32
    linalg.yield %y : i32
  } -> tensor<12x2xi32>
  %rs = mesh.shard %r to %both : tensor<12x2xi32>
  return %rs : tensor<12x2xi32>
}

// linalg.map reads its loops' indices the same way.
// IR-LABEL: func.func @mapped(
// IR: linalg.index 0 : index
// IR-NEXT: arith.addi
func.func @mapped(%x: tensor<8xi32>) -> tensor<8xi32> {
  %rows = mesh.sharding @quad split_axes = [[0]] : !mesh.sharding
  %x0 = mesh.shard %x to %rows : tensor<8xi32>
  %e = tensor.empty() : tensor<8xi32>
  %r = linalg.map ins(%x0 : tensor<8xi32>) outs(%e : tensor<8xi32>)
    (%a: i32, %o: i32) {
      %i = linalg.index 0 : index
      %ii = arith.index_cast %i : index to i32
      %y = arith.addi %a, %ii : i32
      linalg.yield %y : i32
    }
  %rs = mesh.shard %r to %rows : tensor<8xi32>
  return %rs : tensor<8xi32>
}

// A linalg op nested in the body reads its own loop's index, not the outer
// op's: only the outer op's reads are offset.
// IR-LABEL: func.func @inner_index(
// IR: linalg.index 0 : index
// IR-NEXT: arith.index_cast
func.func @inner_index(%x: tensor<8xi32>) -> tensor<8xi32> {
  %rows = mesh.sharding @quad split_axes = [[0]] : !mesh.sharding
  %x0 = mesh.shard %x to %rows annotate_for_users : tensor<8xi32>
  %e = tensor.empty() : tensor<8xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x0 : tensor<8xi32>) outs(%e : tensor<8xi32>) {
  ^bb0(%a: i32, %o: i32):
    %t = tensor.empty() : tensor<3xi32>
    %iota = linalg.generic {indexing_maps = [affine_map<(k) -> (k)>], iterator_types = ["parallel"]} outs(%t : tensor<3xi32>) {
    ^bb1(%q: i32):
      %k = linalg.index 0 : index
      %kk = arith.index_cast %k : index to i32
      linalg.yield %kk : i32
    } -> tensor<3xi32>
    %c1 = arith.constant 1 : index
    %v = tensor.extract %iota[%c1] : tensor<3xi32>
    %y = arith.addi %a, %v : i32
    linalg.yield %y : i32
  } -> tensor<8xi32>
  %rs = mesh.shard %r to %rows : tensor<8xi32>
  return %rs : tensor<8xi32>
}

// A sum accumulated into an argument split along the indexed loop, the
// reduction split over the other axis: partition keeps the argument on one
// device of each group and gives the others zeros, and the offset still
// comes from the argument's whole size (6 rows, pieces of 3).
// IR-LABEL: func.func @into_argument(
// IR: linalg.index 0 : index
// IR-NEXT: arith.addi
func.func @into_argument(%x: tensor<4xi32>, %acc: tensor<6xi32>) -> tensor<6xi32> {
  %cols = mesh.sharding @square split_axes = [[1]] : !mesh.sharding
  %rows = mesh.sharding @square split_axes = [[0]] : !mesh.sharding
  %x0 = mesh.shard %x to %cols annotate_for_users : tensor<4xi32>
  %a0 = mesh.shard %acc to %rows annotate_for_users : tensor<6xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"], mesh.sharding_option = #mesh.sharding<@square, [[0], [1]]>} ins(%x0 : tensor<4xi32>) outs(%a0 : tensor<6xi32>) {
  ^bb0(%a: i32, %o: i32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %p = arith.muli %a, %ii : i32
    %z = arith.addi %o, %p : i32
    linalg.yield %z : i32
  } -> tensor<6xi32>
  %rs = mesh.shard %r to %rows : tensor<6xi32>
  return %rs : tensor<6xi32>
}
