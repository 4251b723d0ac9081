// Resharding by direct exchange.  Where two layouts trade mesh axes between
// dimensions they cut into different numbers of pieces, every sequence of
// whole-axis collectives moves some data twice; a device only lacks the
// part of its new piece that its old piece does not cover.  Partition then
// copies the blocks a device holds and receives each other block from a
// device that holds it, one block per round, as long as that takes no more
// rounds than the collectives take steps.  Every function is compared with
// the original, and mesh-analysis counts what a device receives.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir -f transpose_swap --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f transpose_swap --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f cube_i32 --compare-with %s -q --seed 3 | FileCheck %s
// RUN: mesh-run %t.mlir -f kept --compare-with %s -q --seed 4 | FileCheck %s
// RUN: mesh-opt --mesh-analysis %t.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BYTES
// CHECK: result 0: max error 0
// CHECK-NEXT: match

mesh.mesh @mesh(shape = 2x4)
mesh.mesh @cube(shape = 2x2x2)
mesh.mesh @m23(shape = 2x3)

// x.T with the same layout in and out (XLA's plan: an all-to-all over half
// an axis and a permutation, 384 bytes; three all_to_alls receive 480).
// A device's 16x4 piece of the result is two 8x4 blocks of the transposed
// pieces: it receives the one or two it does not hold (256 bytes at most),
// in two rounds.
// IR-LABEL: func.func @transpose_swap(
// IR-SAME: %arg0: tensor<8x8xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0], [1]]>}
// IR-SAME: -> (tensor<16x4xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0], [1]]>})
// IR-NOT: mesh.all_
// IR: mesh.send {{.*}} : (tensor<4x8xf32>, index, index) -> tensor<4x8xf32>
// IR: mesh.recv {{.*}} : (tensor<4x8xf32>, index, index) -> tensor<4x8xf32>
// IR: mesh.send
// IR: mesh.send
// IR: mesh.recv
// IR: mesh.send
// IR-NOT: mesh.
// IR: linalg.transpose
// IR: return
// BYTES: @transpose_swap on @mesh (shape 2x4, 8 devices)
// BYTES: [0, 0]  recv 1, send 1             128
// BYTES: max     recv 2, send 2             256
func.func @transpose_swap(%x: tensor<16x32xf32>) -> tensor<32x16xf32> {
  %s = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<16x32xf32>
  %e = tensor.empty() : tensor<32x16xf32>
  %t = linalg.transpose ins(%xs : tensor<16x32xf32>) outs(%e : tensor<32x16xf32>) permutation = [1, 0]
  %ts = mesh.shard %t to %s : tensor<32x16xf32>
  return %ts : tensor<32x16xf32>
}

// The last dimension's split over axis 0 becomes the middle one's over axes
// 0 and 1: one round of 256 bytes, where the collectives take two steps
// and 384.
// IR-LABEL: func.func @cube_i32(
// IR-SAME: %arg0: tensor<8x8x4xi32>
// IR-SAME: -> (tensor<8x2x8xi32>
// IR-NOT: mesh.all_
// IR: mesh.send {{.*}} : (tensor<8x2x4xi32>, index, index) -> tensor<8x2x4xi32>
// IR: mesh.recv
// IR: mesh.send
// IR-NOT: mesh.
// IR: return
// BYTES: @cube_i32 on @cube (shape 2x2x2, 8 devices)
// BYTES: max        recv 1, send 1           256
func.func @cube_i32(%x: tensor<8x8x8xi32>) -> tensor<8x8x8xi32> {
  %s0 = mesh.sharding @cube split_axes = [[], [], [0]] : !mesh.sharding
  %0 = mesh.shard %x to %s0 : tensor<8x8x8xi32>
  %s1 = mesh.sharding @cube split_axes = [[], [0, 1]] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<8x8x8xi32>
  return %1 : tensor<8x8x8xi32>
}

// An exchange would receive 288 bytes here against 336, but in six rounds
// of 6x2 blocks where the collectives take two steps: they stay.
// IR-LABEL: func.func @kept(
// IR-NEXT: mesh.all_gather %arg0 on @m23 mesh_axes = [1] gather_axis = 1
// IR-NEXT: mesh.all_to_all %0 on @m23 mesh_axes = [0] split_axis = 1 concat_axis = 0
// IR-NEXT: return
// BYTES: @kept on @m23 (shape 2x3, 6 devices)
// BYTES: max     all_gather 1, all_to_all 1           336
func.func @kept(%x: tensor<12x12xf32>) -> tensor<12x12xf32> {
  %s0 = mesh.sharding @m23 split_axes = [[0], [1]] : !mesh.sharding
  %0 = mesh.shard %x to %s0 : tensor<12x12xf32>
  %s1 = mesh.sharding @m23 split_axes = [[], [0]] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<12x12xf32>
  return %1 : tensor<12x12xf32>
}
