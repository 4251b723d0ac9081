// A linalg body that reads a tensor from outside its op (torch-mlir's
// embedding extracts rows from its table this way) indexes it with global
// indices: a split or partial one is made whole in front of the op (once,
// with the usual warning for an argument gathered whole), and the body
// reads that, except in the dimensions it reads at the op's own loop
// indices (captured-aligned.mlir).  It was refused.  Each is simulated against the
// unpartitioned program.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir -f rows --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f table --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f table --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f partial --compare-with %s -q --seed 3 | FileCheck %s
// CHECK: match
// WARN: captured-split.mlir:{{[0-9]+}}:8: warning: function argument 0 (tensor<8x16xf32>, split_axes = {{\[\[}}0]]) is gathered whole on every device here: 256 bytes received per device
// WARN-NOT: function argument 1

// IR-LABEL: func.func @rows(
// IR: %[[W:.*]] = mesh.all_gather %arg0 on @mesh mesh_axes = [0] gather_axis = 0 : tensor<4x16xf32> -> tensor<8x16xf32>
// IR: tensor.extract %[[W]][%{{.*}}, %{{.*}}] : tensor<8x16xf32>

// The table's columns are read at the op's own column index: the op runs
// with its columns split as the table's are, and reads its piece.
// IR-LABEL: func.func @table(
// IR-NOT: mesh.all_gather %arg1
// IR: linalg.generic
// IR: %[[J:.*]] = linalg.index 1 : index
// IR: tensor.extract %arg1[%{{.*}}, %[[J]]] : tensor<6x2xf32>

// IR-LABEL: func.func @partial(
// IR: %[[S:.*]] = mesh.all_reduce %arg0 on @mesh mesh_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
// IR: tensor.extract %[[S]]

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>
mesh.mesh @mesh(shape = 2)
mesh.mesh @mesh2(shape = 2x2)

func.func @rows(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<8x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %g = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<8x16xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %c15 = arith.constant 15 : index
    %r = arith.subi %c7, %i : index
    %k = arith.subi %c15, %j : index
    %v = tensor.extract %x0[%r, %k] : tensor<8x16xf32>
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  return %g : tensor<8x16xf32>
}

// An embedding: token ids (made in range from the row number) look up rows
// of a table whose columns are split over both axes.
func.func @table(%ids: tensor<4xf32>, %t: tensor<6x8xf32>) -> tensor<4x8xf32> {
  %cols = mesh.sharding @mesh2 split_axes = [[], [0, 1]] : !mesh.sharding
  %rows = mesh.sharding @mesh2 split_axes = [[0]] : !mesh.sharding
  %ts = mesh.shard %t to %cols annotate_for_users : tensor<6x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %g = linalg.generic {indexing_maps = [#rows, #id2], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%id: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c6 = arith.constant 6 : index
    %c5 = arith.constant 5 : index
    %k = arith.muli %i, %c5 : index
    %row = arith.remui %k, %c6 : index
    %v = tensor.extract %ts[%row, %j] : tensor<6x8xf32>
    %y = arith.addf %v, %id : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  %out = mesh.shard %g to %rows : tensor<4x8xf32>
  return %out : tensor<4x8xf32>
}

func.func @partial(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = mesh.sharding @mesh split_axes = [[]] partial = sum [0] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<8x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %g = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<8x16xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %v = tensor.extract %x0[%i, %j] : tensor<8x16xf32>
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  return %g : tensor<8x16xf32>
}
