// RUN: mesh-opt --split-input-file --test-mesh-resharding %s | FileCheck %s

// The worked examples of upstream's resharding notes
// (Dialect/Mesh/Transforms/ReshardingSpmdizationDoc.md), one function each,
// plus the basis moves the notes list and the partial layouts they leave
// out.  Every function reshards its argument from a source layout to a
// target layout; the pass replaces the pair of mesh.shard ops by the
// planner's collectives on the local piece, between two casts.
//
// The plans are the planner's (sharding/resharding.py), which minimises the
// bytes a device receives; where the notes give a decomposition, the plan is
// either that decomposition or a cheaper one (the comments give both costs,
// in bytes received per device for f32 elements, as `plan_resharding` and
// `apply_steps` report them).  test/Sim/resharding/ runs the same examples
// on the simulator and compares them with the unpartitioned program.
//
// Shapes: the notes draw their first examples as a 2x3 tensor split over all
// six devices of a 2x3 mesh along one dimension, which cannot split evenly
// (neither 2 rows nor 3 columns make 6 pieces).  Those examples use a
// tensor<6xf32> instead: the same six elements, one per device.  Other
// shapes are the notes' own, or the smallest that split evenly where the
// notes use symbols (KxL) or sizes that do not divide
// (test-mesh-resharding-uneven.mlir).

// [[0, 1]] -> [[1, 0]] on 2x3: both layouts cut the tensor into 6 pieces,
// so one permutation of the devices realises it (the notes swap contents
// between devices with the same linear index); 4 bytes, the lower bound.
// Device (a, b) holds piece 3a+b and wants piece 2b+a: linear index l sends
// to perm[l] and receives from the inverse permutation; each cycle of the
// permutation alternates send-first and receive-first devices, fixed points
// (devices 0 and 5) keep their piece.

mesh.mesh @mesh(shape = 2x3)

// CHECK-LABEL: func.func @axis_swap(
// CHECK-NOT: mesh.shard %
// CHECK: %[[IN:.*]] = builtin.unrealized_conversion_cast %arg0 : tensor<6xf32> to tensor<1xf32>
// CHECK-NEXT: %[[IDX:.*]]:2 = mesh.process_multi_index on @mesh axes = [0, 1] : index, index
// CHECK-NEXT: %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT: %[[MUL:.*]] = arith.muli %[[IDX]]#0, %[[C3]] : index
// CHECK-NEXT: %[[LIN:.*]] = arith.addi %[[MUL]], %[[IDX]]#1 : index
// CHECK-NEXT: %[[PERM:.*]] = arith.constant dense<[0, 3, 1, 4, 2, 5]> : tensor<6xindex>
// CHECK-NEXT: %[[TO:.*]] = tensor.extract %[[PERM]][%[[LIN]]] : tensor<6xindex>
// CHECK-NEXT: %[[TC3:.*]] = arith.constant 3 : index
// CHECK-NEXT: %[[TO1:.*]] = arith.remui %[[TO]], %[[TC3]] : index
// CHECK-NEXT: %[[TOQ:.*]] = arith.divui %[[TO]], %[[TC3]] : index
// CHECK-NEXT: %[[TC2:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[TO0:.*]] = arith.remui %[[TOQ]], %[[TC2]] : index
// CHECK-NEXT: arith.divui
// CHECK-NEXT: %[[INV:.*]] = arith.constant dense<[0, 2, 4, 1, 3, 5]> : tensor<6xindex>
// CHECK-NEXT: %[[FROM:.*]] = tensor.extract %[[INV]][%[[LIN]]] : tensor<6xindex>
// CHECK-NEXT: %[[FC3:.*]] = arith.constant 3 : index
// CHECK-NEXT: %[[FROM1:.*]] = arith.remui %[[FROM]], %[[FC3]] : index
// CHECK-NEXT: %[[FROMQ:.*]] = arith.divui %[[FROM]], %[[FC3]] : index
// CHECK-NEXT: %[[FC2:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[FROM0:.*]] = arith.remui %[[FROMQ]], %[[FC2]] : index
// CHECK-NEXT: arith.divui
// CHECK-NEXT: %[[MOVES:.*]] = arith.cmpi ne, %[[TO]], %[[LIN]] : index
// CHECK-NEXT: %[[POS:.*]] = arith.constant dense<[0, 0, 3, 1, 2, 0]> : tensor<6xindex>
// CHECK: %[[EVEN:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[R:.*]] = scf.if %[[MOVES]] -> (tensor<1xf32>) {
// CHECK-NEXT: %[[R2:.*]] = scf.if %[[EVEN]] -> (tensor<1xf32>) {
// CHECK-NEXT: mesh.send %[[IN]] on @mesh mesh_axes = [0, 1] destination = [%[[TO0]], %[[TO1]]] : (tensor<1xf32>, index, index) -> tensor<1xf32>
// CHECK-NEXT: %[[A:.*]] = mesh.recv %[[IN]] on @mesh mesh_axes = [0, 1] source = [%[[FROM0]], %[[FROM1]]] : (tensor<1xf32>, index, index) -> tensor<1xf32>
// CHECK-NEXT: scf.yield %[[A]] : tensor<1xf32>
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[B:.*]] = mesh.recv %[[IN]] on @mesh mesh_axes = [0, 1] source = [%[[FROM0]], %[[FROM1]]] : (tensor<1xf32>, index, index) -> tensor<1xf32>
// CHECK-NEXT: mesh.send %[[IN]] on @mesh mesh_axes = [0, 1] destination = [%[[TO0]], %[[TO1]]] : (tensor<1xf32>, index, index) -> tensor<1xf32>
// CHECK-NEXT: scf.yield %[[B]] : tensor<1xf32>
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield %[[R2]] : tensor<1xf32>
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[IN]] : tensor<1xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[OUT:.*]] = builtin.unrealized_conversion_cast %[[R]] : tensor<1xf32> to tensor<6xf32>
// CHECK-NEXT: return %[[OUT]] : tensor<6xf32>
func.func @axis_swap(%arg0: tensor<6xf32>) -> tensor<6xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[0, 1]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<6xf32>
  %s1 = mesh.sharding @mesh split_axes = [[1, 0]] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<6xf32>
  return %1 : tensor<6xf32>
}

// -----

// [[0, 1]] -> [[1]] on 2x3 (also a basis move of the notes): mesh axis 0 is
// the major axis of the split, so gathering over it alone would not give
// contiguous pieces.  The plan swaps the order first (the permutation of
// @axis_swap), then gathers over the now innermost axis 0: 8 bytes, the
// lower bound.

mesh.mesh @mesh(shape = 2x3)

// CHECK-LABEL: func.func @drop_major_axis(
// CHECK: %[[IN:.*]] = builtin.unrealized_conversion_cast %arg0 : tensor<6xf32> to tensor<1xf32>
// CHECK-NEXT: mesh.process_multi_index on @mesh axes = [0, 1] : index, index
// CHECK: arith.constant dense<[0, 3, 1, 4, 2, 5]> : tensor<6xindex>
// CHECK: %[[P:.*]] = scf.if %{{.*}} -> (tensor<1xf32>) {
// CHECK: mesh.send %[[IN]] on @mesh mesh_axes = [0, 1] destination = [%{{.*}}, %{{.*}}] : (tensor<1xf32>, index, index) -> tensor<1xf32>
// CHECK-NEXT: mesh.recv %[[IN]] on @mesh mesh_axes = [0, 1] source = [%{{.*}}, %{{.*}}] : (tensor<1xf32>, index, index) -> tensor<1xf32>
// CHECK: } else {
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[IN]] : tensor<1xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[G:.*]] = mesh.all_gather %[[P]] on @mesh mesh_axes = [0] gather_axis = 0 : tensor<1xf32> -> tensor<2xf32>
// CHECK-NEXT: %[[OUT:.*]] = builtin.unrealized_conversion_cast %[[G]] : tensor<2xf32> to tensor<6xf32>
// CHECK-NEXT: return %[[OUT]]
func.func @drop_major_axis(%arg0: tensor<6xf32>) -> tensor<6xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[0, 1]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<6xf32>
  %s1 = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<6xf32>
  return %1 : tensor<6xf32>
}

// -----

// [[], [0, 1]] -> [[], [0]] on 2x3, a 4x6 tensor (the notes' heading says
// 4x6; their drawing shows two rows): axis 1 is the innermost axis of the
// split, so one all_gather over it, as in the notes; 32 bytes, the lower
// bound.

mesh.mesh @mesh(shape = 2x3)

// CHECK-LABEL: func.func @drop_minor_axis(
// CHECK-NOT: mesh.shard %
// CHECK: %[[IN:.*]] = builtin.unrealized_conversion_cast %arg0 : tensor<4x6xf32> to tensor<4x1xf32>
// CHECK-NEXT: %[[G:.*]] = mesh.all_gather %[[IN]] on @mesh mesh_axes = [1] gather_axis = 1 : tensor<4x1xf32> -> tensor<4x3xf32>
// CHECK-NEXT: %[[OUT:.*]] = builtin.unrealized_conversion_cast %[[G]] : tensor<4x3xf32> to tensor<4x6xf32>
// CHECK-NEXT: return %[[OUT]]
func.func @drop_minor_axis(%arg0: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[], [0, 1]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<4x6xf32>
  %s1 = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<4x6xf32>
  return %1 : tensor<4x6xf32>
}

// -----

// [[0], [1, 2]] -> [[0], [2]] on 2x2x2, 4x8: the notes' two steps, a swap
// to [[0], [2, 1]] then an all_gather over axis 1; the swap only involves
// axes 1 and 2 (axis 0 keeps its rows).  32 bytes, the lower bound.

mesh.mesh @mesh(shape = 2x2x2)

// CHECK-LABEL: func.func @drop_axis_2x2x2(
// CHECK: %[[IN:.*]] = builtin.unrealized_conversion_cast %arg0 : tensor<4x8xf32> to tensor<2x2xf32>
// CHECK-NEXT: mesh.process_multi_index on @mesh axes = [1, 2] : index, index
// CHECK: arith.constant dense<[0, 2, 1, 3]> : tensor<4xindex>
// CHECK: %[[P:.*]] = scf.if %{{.*}} -> (tensor<2x2xf32>) {
// CHECK: mesh.send %[[IN]] on @mesh mesh_axes = [1, 2] destination = [%{{.*}}, %{{.*}}] : (tensor<2x2xf32>, index, index) -> tensor<2x2xf32>
// CHECK-NEXT: mesh.recv %[[IN]] on @mesh mesh_axes = [1, 2] source = [%{{.*}}, %{{.*}}] : (tensor<2x2xf32>, index, index) -> tensor<2x2xf32>
// CHECK: } else {
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[IN]] : tensor<2x2xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[G:.*]] = mesh.all_gather %[[P]] on @mesh mesh_axes = [1] gather_axis = 1 : tensor<2x2xf32> -> tensor<2x4xf32>
// CHECK-NEXT: %[[OUT:.*]] = builtin.unrealized_conversion_cast %[[G]] : tensor<2x4xf32> to tensor<4x8xf32>
// CHECK-NEXT: return %[[OUT]]
func.func @drop_axis_2x2x2(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[0], [1, 2]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<4x8xf32>
  %s1 = mesh.sharding @mesh split_axes = [[0], [2]] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// [[0], [1]] -> [[1], [0]] on 2x3, 6x6 (no algorithm in the notes; their
// basis decomposition, all_gather + all_to_all + all_slice, costs 84
// bytes).  The plan is three all_to_alls, 44 bytes (lower bound 24):
// fold axis 0 into dimension 1, move both axes to dimension 0 (the
// all_to_all over [1, 0] keeps axis 1 major), and move axis 0 back.

mesh.mesh @mesh(shape = 2x3)

// CHECK-LABEL: func.func @transpose_2x3(
// CHECK-NOT: mesh.shard %
// CHECK: %[[IN:.*]] = builtin.unrealized_conversion_cast %arg0 : tensor<6x6xf32> to tensor<3x2xf32>
// CHECK-NEXT: %[[A:.*]] = mesh.all_to_all %[[IN]] on @mesh mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<3x2xf32> -> tensor<6x1xf32>
// CHECK-NEXT: %[[B:.*]] = mesh.all_to_all %[[A]] on @mesh mesh_axes = [1, 0] split_axis = 0 concat_axis = 1 : tensor<6x1xf32> -> tensor<1x6xf32>
// CHECK-NEXT: %[[C:.*]] = mesh.all_to_all %[[B]] on @mesh mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<1x6xf32> -> tensor<2x3xf32>
// CHECK-NEXT: %[[OUT:.*]] = builtin.unrealized_conversion_cast %[[C]] : tensor<2x3xf32> to tensor<6x6xf32>
// CHECK-NEXT: return %[[OUT]]
func.func @transpose_2x3(%arg0: tensor<6x6xf32>) -> tensor<6x6xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<6x6xf32>
  %s1 = mesh.sharding @mesh split_axes = [[1], [0]] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<6x6xf32>
  return %1 : tensor<6x6xf32>
}

// -----

// [[0], [1]] -> [[1], [0]] on 2x6, 6x6 (no algorithm in the notes; the
// basis decomposition costs 96 bytes).  The plan gathers the rows over axis
// 0 (3x1 -> 6x1), moves axis 1 from columns to rows with an all_to_all, and
// keeps its half of the columns with an all_slice over axis 0: 32 bytes
// (lower bound 12).

mesh.mesh @mesh(shape = 2x6)

// CHECK-LABEL: func.func @transpose_2x6(
// CHECK-NOT: mesh.shard %
// CHECK: %[[IN:.*]] = builtin.unrealized_conversion_cast %arg0 : tensor<6x6xf32> to tensor<3x1xf32>
// CHECK-NEXT: %[[A:.*]] = mesh.all_gather %[[IN]] on @mesh mesh_axes = [0] gather_axis = 0 : tensor<3x1xf32> -> tensor<6x1xf32>
// CHECK-NEXT: %[[B:.*]] = mesh.all_to_all %[[A]] on @mesh mesh_axes = [1] split_axis = 0 concat_axis = 1 : tensor<6x1xf32> -> tensor<1x6xf32>
// CHECK-NEXT: %[[C:.*]] = mesh.all_slice %[[B]] on @mesh mesh_axes = [0] slice_axis = 1 : tensor<1x6xf32> -> tensor<1x3xf32>
// CHECK-NEXT: %[[OUT:.*]] = builtin.unrealized_conversion_cast %[[C]] : tensor<1x3xf32> to tensor<6x6xf32>
// CHECK-NEXT: return %[[OUT]]
func.func @transpose_2x6(%arg0: tensor<6x6xf32>) -> tensor<6x6xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<6x6xf32>
  %s1 = mesh.sharding @mesh split_axes = [[1], [0]] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<6x6xf32>
  return %1 : tensor<6x6xf32>
}

// -----

// [[0], [1]] -> [[1], [0]] on an MxN mesh for a KxL tensor (the notes
// derive the index maps and leave the algorithm open).  Their first check
// uses M=3, N=4; K=12, L=24 are the smallest sizes near theirs that split
// evenly both ways.  Three all_to_alls as on 2x3: 216 bytes (the basis
// decomposition: 544; lower bound 96).

mesh.mesh @mesh(shape = 3x4)

// CHECK-LABEL: func.func @transpose_3x4(
// CHECK: %[[IN:.*]] = builtin.unrealized_conversion_cast %arg0 : tensor<12x24xf32> to tensor<4x6xf32>
// CHECK-NEXT: %[[A:.*]] = mesh.all_to_all %[[IN]] on @mesh mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<4x6xf32> -> tensor<12x2xf32>
// CHECK-NEXT: %[[B:.*]] = mesh.all_to_all %[[A]] on @mesh mesh_axes = [1, 0] split_axis = 0 concat_axis = 1 : tensor<12x2xf32> -> tensor<1x24xf32>
// CHECK-NEXT: %[[C:.*]] = mesh.all_to_all %[[B]] on @mesh mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<1x24xf32> -> tensor<3x8xf32>
// CHECK-NEXT: %[[OUT:.*]] = builtin.unrealized_conversion_cast %[[C]] : tensor<3x8xf32> to tensor<12x24xf32>
// CHECK-NEXT: return %[[OUT]]
func.func @transpose_3x4(%arg0: tensor<12x24xf32>) -> tensor<12x24xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<12x24xf32>
  %s1 = mesh.sharding @mesh split_axes = [[1], [0]] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<12x24xf32>
  return %1 : tensor<12x24xf32>
}

// -----

// The same on the notes' second check mesh, M=5, N=2, with K=10, L=20:
// here the plan goes through dimension 0 instead (fold axis 1 into the
// rows, move both to the columns, move axis 1 back): 152 bytes (the basis
// decomposition: 208; lower bound 80).

mesh.mesh @mesh(shape = 5x2)

// CHECK-LABEL: func.func @transpose_5x2(
// CHECK: %[[IN:.*]] = builtin.unrealized_conversion_cast %arg0 : tensor<10x20xf32> to tensor<2x10xf32>
// CHECK-NEXT: %[[A:.*]] = mesh.all_to_all %[[IN]] on @mesh mesh_axes = [1] split_axis = 0 concat_axis = 1 : tensor<2x10xf32> -> tensor<1x20xf32>
// CHECK-NEXT: %[[B:.*]] = mesh.all_to_all %[[A]] on @mesh mesh_axes = [0, 1] split_axis = 1 concat_axis = 0 : tensor<1x20xf32> -> tensor<10x2xf32>
// CHECK-NEXT: %[[C:.*]] = mesh.all_to_all %[[B]] on @mesh mesh_axes = [1] split_axis = 0 concat_axis = 1 : tensor<10x2xf32> -> tensor<5x4xf32>
// CHECK-NEXT: %[[OUT:.*]] = builtin.unrealized_conversion_cast %[[C]] : tensor<5x4xf32> to tensor<10x20xf32>
// CHECK-NEXT: return %[[OUT]]
func.func @transpose_5x2(%arg0: tensor<10x20xf32>) -> tensor<10x20xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<10x20xf32>
  %s1 = mesh.sharding @mesh split_axes = [[1], [0]] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<10x20xf32>
  return %1 : tensor<10x20xf32>
}

// -----

// [[0], [1]] -> [[1], [0]] on 2x3 for a KxL tensor whose source and target
// tiles differ in shape (the notes' tiling picture, algorithm left open):
// 6x12, source tiles 3x4, target tiles 2x6.  88 bytes (the basis
// decomposition: 168; lower bound 48).

mesh.mesh @mesh(shape = 2x3)

// CHECK-LABEL: func.func @transpose_2x3_tiles(
// CHECK: %[[IN:.*]] = builtin.unrealized_conversion_cast %arg0 : tensor<6x12xf32> to tensor<3x4xf32>
// CHECK-NEXT: %[[A:.*]] = mesh.all_to_all %[[IN]] on @mesh mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<3x4xf32> -> tensor<6x2xf32>
// CHECK-NEXT: %[[B:.*]] = mesh.all_to_all %[[A]] on @mesh mesh_axes = [1, 0] split_axis = 0 concat_axis = 1 : tensor<6x2xf32> -> tensor<1x12xf32>
// CHECK-NEXT: %[[C:.*]] = mesh.all_to_all %[[B]] on @mesh mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<1x12xf32> -> tensor<2x6xf32>
// CHECK-NEXT: %[[OUT:.*]] = builtin.unrealized_conversion_cast %[[C]] : tensor<2x6xf32> to tensor<6x12xf32>
// CHECK-NEXT: return %[[OUT]]
func.func @transpose_2x3_tiles(%arg0: tensor<6x12xf32>) -> tensor<6x12xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<6x12xf32>
  %s1 = mesh.sharding @mesh split_axes = [[1], [0]] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<6x12xf32>
  return %1 : tensor<6x12xf32>
}

// -----

// [[0], []] -> [[], [0]] on a mesh of 3, 6x6 (also the notes' basis move
// between tensor dimensions): exactly the notes' all_to_all, 2x6 -> 6x2;
// 32 bytes, the lower bound.

mesh.mesh @mesh(shape = 3)

// CHECK-LABEL: func.func @move_axis_mesh3(
// CHECK-NOT: mesh.shard %
// CHECK: %[[IN:.*]] = builtin.unrealized_conversion_cast %arg0 : tensor<6x6xf32> to tensor<2x6xf32>
// CHECK-NEXT: %[[A:.*]] = mesh.all_to_all %[[IN]] on @mesh mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<2x6xf32> -> tensor<6x2xf32>
// CHECK-NEXT: %[[OUT:.*]] = builtin.unrealized_conversion_cast %[[A]] : tensor<6x2xf32> to tensor<6x6xf32>
// CHECK-NEXT: return %[[OUT]]
func.func @move_axis_mesh3(%arg0: tensor<6x6xf32>) -> tensor<6x6xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[0], []] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<6x6xf32>
  %s1 = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<6x6xf32>
  return %1 : tensor<6x6xf32>
}

// -----

// [[0], [1, 2]] -> [[0, 1], [2]] on 2x2x2, 4x4: an all_to_all over axis 2
// alone would give [[0, 2], [1]], so, as in the notes, the collectives swap
// to [[0], [2, 1]] and move axis 1 to the rows with an all_to_all: 12 bytes,
// where a device lacks 8 (the lower bound).  A direct exchange receives just
// those 8, in two rounds (no more than those two steps): each device copies
// the 1x1 blocks of its 1x2 piece that it holds, then per round sends one
// block and receives one, the offsets and peers read from tables indexed by
// its linear index.  Device 0 (0, 0, 0) holds its column 0; in round 1 it
// sends its row 1 to device 2 before receiving column 1 from device 1.
// Device 3 (0, 1, 1) holds column 1 of its piece, sits round 1 out, and in
// round 2 receives column 0 from device 2 and sends to device 1.

mesh.mesh @mesh(shape = 2x2x2)

// CHECK-LABEL: func.func @split_both_2x2x2(
// CHECK: %[[IN:.*]] = builtin.unrealized_conversion_cast %arg0 : tensor<4x4xf32> to tensor<2x1xf32>
// CHECK-NEXT: %[[IX:.*]]:3 = mesh.process_multi_index on @mesh axes = [0, 1, 2] : index, index, index
// CHECK: %[[LIN:.*]] = arith.addi %{{.*}}, %[[IX]]#2 : index
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<1x2xf32>
// CHECK-NEXT: %[[B0:.*]] = tensor.extract_slice %[[IN]][0, 0] [1, 1] [1, 1] : tensor<2x1xf32> to tensor<1x1xf32>
// CHECK-NEXT: %[[S0:.*]] = tensor.insert_slice %[[B0]] into %[[E]][0, 0] [1, 1] [1, 1]
// CHECK-NEXT: arith.constant dense<[0, 0, 0, 1, 0, 0, 0, 1]> : tensor<8xindex>
// CHECK: %[[S1:.*]] = tensor.insert_slice %{{.*}} into %[[S0]][0, 1] [1, 1] [1, 1]
// CHECK-NEXT: arith.constant dense<[2, 0, 1, 3, 6, 4, 5, 7]> : tensor<8xindex>
// CHECK: arith.constant dense<[1, 2, 0, 3, 5, 6, 4, 7]> : tensor<8xindex>
// CHECK: arith.constant dense<[1, 1, 0, 0, 1, 1, 0, 0]> : tensor<8xindex>
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: mesh.send %{{.*}} on @mesh mesh_axes = [0, 1, 2] destination = [%{{.*}}, %{{.*}}, %{{.*}}] : (tensor<1x1xf32>, index, index, index) -> tensor<1x1xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[R1:.*]] = scf.if %{{.*}} -> (tensor<1x2xf32>) {
// CHECK-NEXT: tensor.empty() : tensor<1x1xf32>
// CHECK-NEXT: %[[GOT:.*]] = mesh.recv %{{.*}} on @mesh mesh_axes = [0, 1, 2] source = [%{{.*}}, %{{.*}}, %{{.*}}] : (tensor<1x1xf32>, index, index, index) -> tensor<1x1xf32>
// CHECK: tensor.insert_slice %[[GOT]] into %[[S1]][0, %{{.*}}] [1, 1] [1, 1]
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[S1]] : tensor<1x2xf32>
// CHECK-NEXT: }
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: mesh.send
// CHECK-NEXT: }
// CHECK-NEXT: arith.constant dense<[0, 2, 3, 1, 4, 6, 7, 5]> : tensor<8xindex>
// CHECK: %[[R2:.*]] = scf.if %{{.*}} -> (tensor<1x2xf32>) {
// CHECK: mesh.recv
// CHECK: tensor.insert_slice %{{.*}} into %[[R1]][0, %{{.*}}] [1, 1] [1, 1]
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: mesh.send
// CHECK-NEXT: }
// CHECK-NEXT: %[[OUT:.*]] = builtin.unrealized_conversion_cast %[[R2]] : tensor<1x2xf32> to tensor<4x4xf32>
// CHECK-NEXT: return %[[OUT]]
func.func @split_both_2x2x2(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[0], [1, 2]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<4x4xf32>
  %s1 = mesh.sharding @mesh split_axes = [[0, 1], [2]] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}

// -----

// Basis move: [[]] -> [[1]], adding an axis: a local slice, no data moves.

mesh.mesh @mesh(shape = 2x3)

// CHECK-LABEL: func.func @replicate_to_split(
// CHECK-NOT: mesh.shard %
// CHECK: %[[IN:.*]] = builtin.unrealized_conversion_cast %arg0 : tensor<6xf32> to tensor<6xf32>
// CHECK-NEXT: %[[A:.*]] = mesh.all_slice %[[IN]] on @mesh mesh_axes = [1] slice_axis = 0 : tensor<6xf32> -> tensor<2xf32>
// CHECK-NEXT: %[[OUT:.*]] = builtin.unrealized_conversion_cast %[[A]] : tensor<2xf32> to tensor<6xf32>
// CHECK-NEXT: return %[[OUT]]
func.func @replicate_to_split(%arg0: tensor<6xf32>) -> tensor<6xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<6xf32>
  %s1 = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<6xf32>
  return %1 : tensor<6xf32>
}

// -----

// Basis move: [[0]] -> [[]], removing an axis: one all_gather.

mesh.mesh @mesh(shape = 2x3)

// CHECK-LABEL: func.func @split_to_replicate(
// CHECK-NOT: mesh.shard %
// CHECK: %[[IN:.*]] = builtin.unrealized_conversion_cast %arg0 : tensor<6xf32> to tensor<3xf32>
// CHECK-NEXT: %[[A:.*]] = mesh.all_gather %[[IN]] on @mesh mesh_axes = [0] gather_axis = 0 : tensor<3xf32> -> tensor<6xf32>
// CHECK-NEXT: %[[OUT:.*]] = builtin.unrealized_conversion_cast %[[A]] : tensor<6xf32> to tensor<6xf32>
// CHECK-NEXT: return %[[OUT]]
func.func @split_to_replicate(%arg0: tensor<6xf32>) -> tensor<6xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<6xf32>
  %s1 = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<6xf32>
  return %1 : tensor<6xf32>
}

// -----

// A 1-D move between mesh axes of the same size, [[0]] -> [[1]] on 2x2: the
// same number of pieces, so one permutation (devices (0, 1) and (1, 0)
// trade their pieces); 8 bytes, the lower bound.

mesh.mesh @mesh(shape = 2x2)

// CHECK-LABEL: func.func @move_1d_2x2(
// CHECK: %[[IN:.*]] = builtin.unrealized_conversion_cast %arg0 : tensor<4xf32> to tensor<2xf32>
// CHECK-NEXT: mesh.process_multi_index on @mesh axes = [0, 1] : index, index
// CHECK: arith.constant dense<[0, 2, 1, 3]> : tensor<4xindex>
// CHECK: arith.constant dense<[0, 2, 1, 3]> : tensor<4xindex>
// CHECK: %[[P:.*]] = scf.if %{{.*}} -> (tensor<2xf32>) {
// CHECK: mesh.send %[[IN]] on @mesh mesh_axes = [0, 1] destination = [%{{.*}}, %{{.*}}] : (tensor<2xf32>, index, index) -> tensor<2xf32>
// CHECK-NEXT: mesh.recv %[[IN]] on @mesh mesh_axes = [0, 1] source = [%{{.*}}, %{{.*}}] : (tensor<2xf32>, index, index) -> tensor<2xf32>
// CHECK: } else {
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[IN]] : tensor<2xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[OUT:.*]] = builtin.unrealized_conversion_cast %[[P]] : tensor<2xf32> to tensor<4xf32>
// CHECK-NEXT: return %[[OUT]]
func.func @move_1d_2x2(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<4xf32>
  %s1 = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// The notes' 4-D example, [[3, 2], [], [0, 1]] -> [[0], [1, 2], []], on a
// 2x2x2x2 mesh with an 8x8x8 tensor.  The notes decompose it into three
// all_to_alls and an all_gather (384 bytes); the plan permutes the devices
// to [[0, 3], [], [1, 2]] (every axis involved), moves axes 1 and 2 to
// dimension 1 with one all_to_all and gathers axis 3: 352 bytes (lower
// bound 256).

mesh.mesh @mesh(shape = 2x2x2x2)

// CHECK-LABEL: func.func @mesh_4d(
// CHECK: %[[IN:.*]] = builtin.unrealized_conversion_cast %arg0 : tensor<8x8x8xf32> to tensor<2x8x2xf32>
// CHECK-NEXT: mesh.process_multi_index on @mesh axes = [0, 1, 2, 3] : index, index, index, index
// CHECK: arith.constant dense<[0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15]> : tensor<16xindex>
// CHECK: arith.constant dense<[0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15]> : tensor<16xindex>
// CHECK: %[[P:.*]] = scf.if %{{.*}} -> (tensor<2x8x2xf32>) {
// CHECK: mesh.send %[[IN]] on @mesh mesh_axes = [0, 1, 2, 3] destination = [%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : (tensor<2x8x2xf32>, index, index, index, index) -> tensor<2x8x2xf32>
// CHECK-NEXT: mesh.recv %[[IN]] on @mesh mesh_axes = [0, 1, 2, 3] source = [%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : (tensor<2x8x2xf32>, index, index, index, index) -> tensor<2x8x2xf32>
// CHECK: } else {
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[IN]] : tensor<2x8x2xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[A:.*]] = mesh.all_to_all %[[P]] on @mesh mesh_axes = [1, 2] split_axis = 1 concat_axis = 2 : tensor<2x8x2xf32> -> tensor<2x2x8xf32>
// CHECK-NEXT: %[[G:.*]] = mesh.all_gather %[[A]] on @mesh mesh_axes = [3] gather_axis = 0 : tensor<2x2x8xf32> -> tensor<4x2x8xf32>
// CHECK-NEXT: %[[OUT:.*]] = builtin.unrealized_conversion_cast %[[G]] : tensor<4x2x8xf32> to tensor<8x8x8xf32>
// CHECK-NEXT: return %[[OUT]]
func.func @mesh_4d(%arg0: tensor<8x8x8xf32>) -> tensor<8x8x8xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[3, 2], [], [0, 1]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<8x8x8xf32>
  %s1 = mesh.sharding @mesh split_axes = [[0], [1, 2], []] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<8x8x8xf32>
  return %1 : tensor<8x8x8xf32>
}

// -----

// Partial values (not in the notes).  Partial sum -> replicated: one
// all_reduce (its reduction, sum, is the default and not printed).

mesh.mesh @mesh(shape = 2)

// CHECK-LABEL: func.func @partial_to_replicated(
// CHECK-NOT: mesh.shard %
// CHECK: %[[IN:.*]] = builtin.unrealized_conversion_cast %arg0 : tensor<4xf32> to tensor<4xf32>
// CHECK-NEXT: %[[A:.*]] = mesh.all_reduce %[[IN]] on @mesh mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %[[OUT:.*]] = builtin.unrealized_conversion_cast %[[A]] : tensor<4xf32> to tensor<4xf32>
// CHECK-NEXT: return %[[OUT]]
func.func @partial_to_replicated(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[]] partial = sum [0] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<4xf32>
  %s1 = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Partial sum -> split over the same axis: one reduce_scatter (half the
// bytes of an all_reduce).

mesh.mesh @mesh(shape = 2)

// CHECK-LABEL: func.func @partial_to_split(
// CHECK: %[[IN:.*]] = builtin.unrealized_conversion_cast %arg0 : tensor<4xf32> to tensor<4xf32>
// CHECK-NEXT: %[[A:.*]] = mesh.reduce_scatter %[[IN]] on @mesh mesh_axes = [0] scatter_axis = 0 : tensor<4xf32> -> tensor<2xf32>
// CHECK-NEXT: %[[OUT:.*]] = builtin.unrealized_conversion_cast %[[A]] : tensor<2xf32> to tensor<4xf32>
// CHECK-NEXT: return %[[OUT]]
func.func @partial_to_split(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[]] partial = sum [0] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<4xf32>
  %s1 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Partial sum over axis 0 -> [[0], [1]] on 2x3: slice the columns over the
// free axis 1 first (no data moves), so the reduce_scatter over axis 0
// reduces a third of the tensor: 16 bytes, the lower bound (48 in the
// other order).

mesh.mesh @mesh(shape = 2x3)

// CHECK-LABEL: func.func @partial_to_split_2x3(
// CHECK: %[[IN:.*]] = builtin.unrealized_conversion_cast %arg0 : tensor<4x6xf32> to tensor<4x6xf32>
// CHECK-NEXT: %[[A:.*]] = mesh.all_slice %[[IN]] on @mesh mesh_axes = [1] slice_axis = 1 : tensor<4x6xf32> -> tensor<4x2xf32>
// CHECK-NEXT: %[[B:.*]] = mesh.reduce_scatter %[[A]] on @mesh mesh_axes = [0] scatter_axis = 0 : tensor<4x2xf32> -> tensor<2x2xf32>
// CHECK-NEXT: %[[OUT:.*]] = builtin.unrealized_conversion_cast %[[B]] : tensor<2x2xf32> to tensor<4x6xf32>
// CHECK-NEXT: return %[[OUT]]
func.func @partial_to_split_2x3(%arg0: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[]] partial = sum [0] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<4x6xf32>
  %s1 = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<4x6xf32>
  return %1 : tensor<4x6xf32>
}

// -----

// Split and partial -> replicated: reduce the small pieces first, then
// gather: 96 bytes, the lower bound (gathering first, then reducing a
// tensor three times larger: 160).

mesh.mesh @mesh(shape = 2x3)

// CHECK-LABEL: func.func @partial_split_to_replicated(
// CHECK: %[[IN:.*]] = builtin.unrealized_conversion_cast %arg0 : tensor<4x6xf32> to tensor<4x2xf32>
// CHECK-NEXT: %[[A:.*]] = mesh.all_reduce %[[IN]] on @mesh mesh_axes = [0] : tensor<4x2xf32> -> tensor<4x2xf32>
// CHECK-NEXT: %[[B:.*]] = mesh.all_gather %[[A]] on @mesh mesh_axes = [1] gather_axis = 1 : tensor<4x2xf32> -> tensor<4x6xf32>
// CHECK-NEXT: %[[OUT:.*]] = builtin.unrealized_conversion_cast %[[B]] : tensor<4x6xf32> to tensor<4x6xf32>
// CHECK-NEXT: return %[[OUT]]
func.func @partial_split_to_replicated(%arg0: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[], [1]] partial = sum [0] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<4x6xf32>
  %s1 = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<4x6xf32>
  return %1 : tensor<4x6xf32>
}

// -----

// Partial max over axis 0 -> split over axis 1: slice locally, then an
// all_reduce of kind max over axis 0 (a reduce_scatter would leave the
// tensor split over axis 0, which the target does not want): 32 bytes, the
// lower bound.

mesh.mesh @mesh(shape = 2x3)

// CHECK-LABEL: func.func @partial_max_to_split(
// CHECK: %[[IN:.*]] = builtin.unrealized_conversion_cast %arg0 : tensor<4x6xf32> to tensor<4x6xf32>
// CHECK-NEXT: %[[A:.*]] = mesh.all_slice %[[IN]] on @mesh mesh_axes = [1] slice_axis = 1 : tensor<4x6xf32> -> tensor<4x2xf32>
// CHECK-NEXT: %[[B:.*]] = mesh.all_reduce %[[A]] on @mesh mesh_axes = [0] reduction = <max> : tensor<4x2xf32> -> tensor<4x2xf32>
// CHECK-NEXT: %[[OUT:.*]] = builtin.unrealized_conversion_cast %[[B]] : tensor<4x2xf32> to tensor<4x6xf32>
// CHECK-NEXT: return %[[OUT]]
func.func @partial_max_to_split(%arg0: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[]] partial = max [0] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<4x6xf32>
  %s1 = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<4x6xf32>
  return %1 : tensor<4x6xf32>
}
