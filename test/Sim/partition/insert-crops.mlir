// Inserted crops: a tensor.insert_slice writing a run of rows into a split
// dimension (a KV cache's new keys at a static position, a block of rows)
// keeps the destination split: each device writes the part of the run its
// piece holds, at an offset into its piece and of a size read from tables
// at its piece number (none where the run misses its piece), and keeps its
// other rows.  The inserted piece arrives cut where each device's part
// starts: sliced from a whole value for free, resharded from one split by
// hand.  Partition alone does the same from the result's annotation.
// RUN: mesh-opt --sharding-propagation %s | FileCheck %s --check-prefix=PROP
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: mesh-opt --mesh-partition %s -o %t.alone.mlir
// RUN: FileCheck %s --input-file=%t.alone.mlir --check-prefix=ALONE
// RUN: mesh-run %t.mlir -f kv_step --compare-with %s --seed 1 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.alone.mlir -f kv_step --compare-with %s --seed 11 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f run_across --compare-with %s --seed 2 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.alone.mlir -f run_across --compare-with %s --seed 12 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f uneven --compare-with %s --seed 3 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.alone.mlir -f uneven --compare-with %s --seed 13 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f two_dims --compare-with %s --seed 4 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.alone.mlir -f two_dims --compare-with %s --seed 14 -q | FileCheck %s --check-prefix=SIM
// SIM: match

mesh.mesh @m4(shape = 4)
mesh.mesh @m24(shape = 2x4)
mesh.mesh @m22(shape = 2x2)

// A decoding step's new keys written at position 9 of a cache whose batch
// and sequence are split: only the device holding row 9 writes.
func.func @kv_step(%cache: tensor<2x16x8xf32>, %new: tensor<2x1x8xf32>) -> tensor<2x16x8xf32> {
  %s = mesh.sharding @m24 split_axes = [[0], [1]] : !mesh.sharding
  %c = mesh.shard %cache to %s : tensor<2x16x8xf32>
  %r = tensor.insert_slice %new into %c[0, 9, 0] [2, 1, 8] [1, 1, 1] : tensor<2x1x8xf32> into tensor<2x16x8xf32>
  %o = mesh.shard %r to %s : tensor<2x16x8xf32>
  return %o : tensor<2x16x8xf32>
}
// PROP-LABEL: func.func @kv_step
// PROP: mesh.sharding @m24 split_axes = {{\[\[0\], \[1\]\]}} sharded_dims_offsets = [0, 1, 2, 0, 0, 0, 1, 1]
// PROP: tensor.insert_slice {{.*}} {mesh.sharding_option = #mesh.sharding<@m24, {{\[\[0\], \[\], \[1\]\]}}>}
// CHECK-LABEL: func.func @kv_step
// CHECK-SAME: %[[C:.*]]: tensor<1x4x8xf32>
// CHECK-SAME: %[[N:.*]]: tensor<1x?x8xf32> {mesh.sharding = #mesh.sharding<@m24, {{\[\[0\], \[1\]\]}}, sharded_dims_offsets = [0, 1, 2, 0, 0, 0, 1, 1]>}
// CHECK-NOT: mesh.all_
// CHECK: %[[P:.*]] = mesh.process_multi_index on @m24 axes = [1] : index
// CHECK: arith.constant dense<[4, 4, 1, 0]> : tensor<4xindex>
// CHECK: %[[AT:.*]] = tensor.extract %{{.*}}[%[[P]]]
// CHECK: arith.constant dense<[0, 0, 1, 0]> : tensor<4xindex>
// CHECK: %[[ROWS:.*]] = tensor.extract %{{.*}}[%[[P]]]
// CHECK: tensor.insert_slice %[[N]] into %[[C]][0, %[[AT]], 0] [1, %[[ROWS]], 8] [1, 1, 1] : tensor<1x?x8xf32> into tensor<1x4x8xf32>
// CHECK-NEXT: return
// ALONE-LABEL: func.func @kv_step
// ALONE: mesh.all_slice %arg1 on @m24 mesh_axes = [0] slice_axis = 0 : tensor<2x1x8xf32> -> tensor<1x1x8xf32>
// ALONE-NOT: mesh.all_
// ALONE: tensor.insert_slice

// Six rows from row 7 on: devices 1, 2 and 3 each write their part, the
// piece arriving whole (each device slices its rows).
func.func @run_across(%x: tensor<16x8xf32>, %new: tensor<6x8xf32>) -> tensor<16x8xf32> {
  %s = mesh.sharding @m4 split_axes = [[0]] : !mesh.sharding
  %whole = mesh.sharding @m4 split_axes = [] : !mesh.sharding
  %c = mesh.shard %x to %s : tensor<16x8xf32>
  %n = mesh.shard %new to %whole annotate_for_users : tensor<6x8xf32>
  %r = tensor.insert_slice %n into %c[7, 0] [6, 8] [1, 1] : tensor<6x8xf32> into tensor<16x8xf32>
  %o = mesh.shard %r to %s : tensor<16x8xf32>
  return %o : tensor<16x8xf32>
}
// CHECK-LABEL: func.func @run_across
// CHECK-SAME: %[[C:.*]]: tensor<4x8xf32>
// CHECK-SAME: %[[N:.*]]: tensor<6x8xf32> {mesh.sharding = #mesh.sharding<@m4, {{\[\[\]\]}}>}
// CHECK-NOT: mesh.all_
// CHECK: arith.constant dense<[0, 0, 1, 5]> : tensor<4xindex>
// CHECK: arith.constant dense<[0, 1, 4, 1]> : tensor<4xindex>
// CHECK: %[[MINE:.*]] = tensor.extract_slice %[[N]][%{{.*}}, 0] [%{{.*}}, 8] [1, 1] : tensor<6x8xf32> to tensor<?x8xf32>
// CHECK: arith.constant dense<[4, 3, 0, 0]> : tensor<4xindex>
// CHECK: tensor.insert_slice %[[MINE]] into %[[C]][%{{.*}}, 0] [%{{.*}}, 8] [1, 1] : tensor<?x8xf32> into tensor<4x8xf32>

// Ten rows over four devices (3, 3, 2, 2): three rows from row 4 on.
func.func @uneven(%x: tensor<10x4xf32>, %new: tensor<3x4xf32>) -> tensor<10x4xf32> {
  %s = mesh.sharding @m4 split_axes = [[0]] : !mesh.sharding
  %c = mesh.shard %x to %s : tensor<10x4xf32>
  %r = tensor.insert_slice %new into %c[4, 0] [3, 4] [1, 1] : tensor<3x4xf32> into tensor<10x4xf32>
  %o = mesh.shard %r to %s : tensor<10x4xf32>
  return %o : tensor<10x4xf32>
}
// CHECK-LABEL: func.func @uneven
// CHECK-SAME: sharded_dims_offsets = [0, 2, 4, 7, 10]
// CHECK-NOT: mesh.all_
// CHECK: arith.constant dense<[2, 2, 0, 0]> : tensor<4xindex>
// CHECK: arith.constant dense<[0, 0, 3, 0]> : tensor<4xindex>
// CHECK: tensor.insert_slice {{.*}} : tensor<?x4xf32> into tensor<?x4xf32>

// A 5x3 block at [2, 4] of a 12x8 matrix split along both dimensions, the
// block arriving split along its rows as written by hand.
func.func @two_dims(%x: tensor<12x8xf32>, %new: tensor<5x3xf32>) -> tensor<12x8xf32> {
  %s = mesh.sharding @m22 split_axes = [[0], [1]] : !mesh.sharding
  %rows = mesh.sharding @m22 split_axes = [[1]] : !mesh.sharding
  %c = mesh.shard %x to %s : tensor<12x8xf32>
  %n = mesh.shard %new to %rows annotate_for_users : tensor<5x3xf32>
  %r = tensor.insert_slice %n into %c[2, 4] [5, 3] [1, 1] : tensor<5x3xf32> into tensor<12x8xf32>
  %o = mesh.shard %r to %s : tensor<12x8xf32>
  return %o : tensor<12x8xf32>
}
// CHECK-LABEL: func.func @two_dims
// CHECK: mesh.all_to_all
// CHECK: arith.constant dense<[2, 0]> : tensor<2xindex>
// CHECK: arith.constant dense<[4, 0]> : tensor<2xindex>
// CHECK: tensor.insert_slice {{.*}} : tensor<?x?xf32> into tensor<6x4xf32>
