// Slices, inserts and concatenations along dimensions they take whole run
// on pieces of unequal sizes, as linalg ops do: each device slices (writes,
// joins) its own piece, the size read from it.  The last token's logits of a vocabulary
// the mesh does not divide (50 over 4), and a row written into such a
// cache at a static or run-time position, used to gather the whole tensor.
// Each function is simulated against the unpartitioned program.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir -f last_token --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f last_token --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f write_row --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f write_at --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f write_at --compare-with %s -q --seed 3 | FileCheck %s
// RUN: mesh-run %t.mlir -f write_at --compare-with %s -q --seed 4 | FileCheck %s
// RUN: mesh-run %t.mlir -f write_at_both --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f write_at_both --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f write_at_both --compare-with %s -q --seed 5 | FileCheck %s
// RUN: mesh-run %t.mlir -f concat_cols --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f strided --compare-with %s -q --seed 1 | FileCheck %s
// CHECK: match

mesh.mesh @mesh(shape = 4)
mesh.mesh @mesh2d(shape = 4x2)

// IR-LABEL: func.func @last_token(
// IR-SAME: %arg0: tensor<2x8x?xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}], [], [0]], sharded_dims_offsets = [0, 12, 24, 37, 50]>}
// IR-NEXT: %[[C2:.*]] = arith.constant 2 : index
// IR-NEXT: %[[N:.*]] = tensor.dim %arg0, %[[C2]] : tensor<2x8x?xf32>
// IR-NEXT: %[[X:.*]] = tensor.extract_slice %arg0[0, 7, 0] [2, 1, %[[N]]] [1, 1, 1] : tensor<2x8x?xf32> to tensor<2x?xf32>
// IR-NEXT: return %[[X]]
func.func @last_token(%logits: tensor<2x8x50xf32>) -> tensor<2x50xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [], [0]] : !mesh.sharding
  %l = mesh.shard %logits to %s annotate_for_users : tensor<2x8x50xf32>
  %x = tensor.extract_slice %l[0, 7, 0] [2, 1, 50] [1, 1, 1] : tensor<2x8x50xf32> to tensor<2x50xf32>
  %o = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %r = mesh.shard %x to %o : tensor<2x50xf32>
  return %r : tensor<2x50xf32>
}

// IR-LABEL: func.func @write_row(
// IR-NEXT: arith.constant 2 : index
// IR-NEXT: tensor.dim %arg0
// IR-NEXT: tensor.insert_slice %arg1 into %arg0[0, 7, 0] [2, 1, %{{.*}}] [1, 1, 1] : tensor<2x?xf32> into tensor<2x8x?xf32>
// IR-NEXT: return
func.func @write_row(%cache: tensor<2x8x50xf32>, %v: tensor<2x50xf32>) -> tensor<2x8x50xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [], [0]] : !mesh.sharding
  %c = mesh.shard %cache to %s annotate_for_users : tensor<2x8x50xf32>
  %s2 = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %vv = mesh.shard %v to %s2 annotate_for_users : tensor<2x50xf32>
  %x = tensor.insert_slice %vv into %c[0, 7, 0] [2, 1, 50] [1, 1, 1] : tensor<2x50xf32> into tensor<2x8x50xf32>
  %r = mesh.shard %x to %s : tensor<2x8x50xf32>
  return %r : tensor<2x8x50xf32>
}

// A column written at a run-time position (a random index in [0, 16)),
// the rows (6 over 4) split.
// IR-LABEL: func.func @write_at(
// IR-NOT: mesh.all_
// IR: %[[AT:.*]] = arith.remui %arg2
// IR-NOT: mesh.all_
// IR: tensor.insert_slice %arg1 into %arg0[0, %[[AT]]] [%{{.*}}, 1] [1, 1] : tensor<?xf32> into tensor<?x16xf32>
// IR-NEXT: return
func.func @write_at(%cache: tensor<6x16xf32>, %v: tensor<6xf32>, %pos: index) -> tensor<6x16xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %c = mesh.shard %cache to %s : tensor<6x16xf32>
  %vs = mesh.shard %v to %s : tensor<6xf32>
  %c16 = arith.constant 16 : index
  %at = arith.remui %pos, %c16 : index
  %r = tensor.insert_slice %vs into %c[0, %at] [6, 1] [1, 1] : tensor<6xf32> into tensor<6x16xf32>
  %rs = mesh.shard %r to %s : tensor<6x16xf32>
  return %rs : tensor<6x16xf32>
}

// The same write with the columns also split (over a second mesh axis):
// each device writes the part of the column its piece holds, the dropped
// unit dimension put back on a piece of unequal size (`_unreduced`).
// IR-LABEL: func.func @write_at_both(
// IR-NOT: mesh.all_
// IR: %[[N:.*]] = tensor.dim %arg1, %{{.*}} : tensor<?xf32>
// IR-NEXT: tensor.expand_shape %arg1 {{\[\[}}0, 1]] output_shape [%[[N]], 1] : tensor<?xf32> into tensor<?x1xf32>
// IR-NOT: mesh.all_
// IR: tensor.insert_slice %{{.*}} into %arg0[0, %{{.*}}] [%{{.*}}, %{{.*}}] [1, 1] : tensor<?x?xf32> into tensor<?x8xf32>
// IR-NEXT: return
func.func @write_at_both(%cache: tensor<6x16xf32>, %v: tensor<6xf32>, %pos: index) -> tensor<6x16xf32> {
  %s = mesh.sharding @mesh2d split_axes = [[0], [1]] : !mesh.sharding
  %sv = mesh.sharding @mesh2d split_axes = [[0]] : !mesh.sharding
  %c = mesh.shard %cache to %s : tensor<6x16xf32>
  %vs = mesh.shard %v to %sv : tensor<6xf32>
  %c16 = arith.constant 16 : index
  %at = arith.remui %pos, %c16 : index
  %r = tensor.insert_slice %vs into %c[0, %at] [6, 1] [1, 1] : tensor<6xf32> into tensor<6x16xf32>
  %rs = mesh.shard %r to %s : tensor<6x16xf32>
  return %rs : tensor<6x16xf32>
}

// Two tensors joined along their columns, the rows (6 over 4) split: each
// device joins its rows.
// IR-LABEL: func.func @concat_cols(
// IR-NEXT: tensor.concat dim(1) %arg0, %arg1 : (tensor<?x8xf32>, tensor<?x4xf32>) -> tensor<?x12xf32>
// IR-NEXT: return
func.func @concat_cols(%x: tensor<6x8xf32>, %y: tensor<6x4xf32>) -> tensor<6x12xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a = mesh.shard %x to %s annotate_for_users : tensor<6x8xf32>
  %b = mesh.shard %y to %s annotate_for_users : tensor<6x4xf32>
  %c = tensor.concat dim(1) %a, %b : (tensor<6x8xf32>, tensor<6x4xf32>) -> tensor<6x12xf32>
  %r = mesh.shard %c to %s : tensor<6x12xf32>
  return %r : tensor<6x12xf32>
}

// Every other row of 50 over 4 (25 over 4): the operand's pieces and the
// result's do not line up, so the rows cannot stay split.  Their axis moves
// to the columns, which the slice crops (one all_to_all there and one back:
// 480 bytes a device, where gathering the rows took 1,248).
// IR-LABEL: func.func @strided(
// IR-NOT: mesh.all_gather
// IR: mesh.all_to_all %{{.*}} on @mesh mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<13x8xf32> -> tensor<52x2xf32>
// IR: tensor.extract_slice %{{.*}}[0, %{{.*}}] [25, %{{.*}}] [2, 1] : tensor<50x2xf32> to tensor<25x?xf32>
// IR: mesh.all_to_all %{{.*}} on @mesh mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<28x2xf32> -> tensor<7x8xf32>
// IR-NOT: mesh.all_gather
func.func @strided(%x: tensor<50x8xf32>) -> tensor<25x7xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %l = mesh.shard %x to %s annotate_for_users : tensor<50x8xf32>
  %y = tensor.extract_slice %l[0, 1] [25, 7] [2, 1] : tensor<50x8xf32> to tensor<25x7xf32>
  %r = mesh.shard %y to %s : tensor<25x7xf32>
  return %r : tensor<25x7xf32>
}
