// A linalg body that reads a tensor from outside its op (torch-mlir's
// embedding extracts rows from its table this way) indexes it with global
// indices: a split or partial one is made whole in front of the op (once,
// with the usual warning for an argument gathered whole), and the body
// reads that.  It was refused.  Each is simulated against the
// unpartitioned program.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir -f rows --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f table --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f table --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f partial --compare-with %s -q --seed 3 | FileCheck %s
// CHECK: match
// WARN: captured-split.mlir:[[@LINE+43]]:8: warning: function argument 1 (tensor<6x8xf32>, split_axes = {{\[\[}}], [0, 1]]) is gathered whole on every device here: 144 bytes received per device

// IR-LABEL: func.func @rows(
// IR: %[[W:.*]] = mesh.all_gather %arg0 on @mesh mesh_axes = [0] gather_axis = 0 : tensor<4x16xf32> -> tensor<8x16xf32>
// IR: tensor.extract %[[W]][%{{.*}}, %{{.*}}] : tensor<8x16xf32>

// IR-LABEL: func.func @table(
// IR: %[[T:.*]] = mesh.all_gather %arg1 on @mesh2 mesh_axes = [0, 1] gather_axis = 1 : tensor<6x2xf32> -> tensor<6x8xf32>
// IR: linalg.generic
// IR: tensor.extract %[[T]][%{{.*}}, %{{.*}}] : tensor<6x8xf32>

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
    %r = arith.subi %c7, %i : index
    %v = tensor.extract %x0[%r, %j] : tensor<8x16xf32>
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
