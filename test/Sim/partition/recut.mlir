// A value whose pieces must start elsewhere along the same mesh axis (its
// annotations cut it differently, or a slice of a split dimension reads
// each device's outputs from rows its piece does not start at) is recut:
// each device receives from its neighbours only the rows of its new piece
// it lacks, with sends and receives (partition gathered the dimension whole
// and cut it again).  Each function simulates equal to the original.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir -f one_row_later --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir -f one_row_later --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir -f slice_beside_uneven_rows --compare-with %s -q --seed 3 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir -f slice_beside_uneven_rows --compare-with %s -q --seed 4 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir -f both_ways --compare-with %s -q --seed 5 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir -f gather_then_recut --compare-with %s -q --seed 6 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir -f gather_then_recut --compare-with %s -q --seed 7 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-opt --mesh-analysis %t.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BYTES
// MATCH: match

mesh.mesh @m4(shape = 4)
mesh.mesh @m24(shape = 2x4)

// Pieces of 8 rows made pieces of 9, 8, 8, 7: devices 0 to 2 each receive
// the first row of the next device's piece (4 bytes; two all_gathers
// received 204), and the exp runs on the pieces.
// BYTES-LABEL: @one_row_later on @m4
// BYTES: max     recv 1, send 1             4
// CHECK-LABEL: func.func @one_row_later(
// CHECK-SAME: %arg0: tensor<8xf32> {mesh.sharding = #mesh.sharding<@m4, {{\[\[0\]\]}}>}
// CHECK-NOT: mesh.all_gather
// CHECK: %[[ME:.*]] = mesh.process_multi_index on @m4 axes = [0] : index
// CHECK: arith.constant dense<[9, 8, 8, 7]> : tensor<4xindex>
// CHECK: %[[KEPT:.*]] = tensor.extract_slice %arg0[%{{.*}}] [%{{.*}}] [1] : tensor<8xf32> to tensor<?xf32>
// CHECK: %[[NEW:.*]] = tensor.insert_slice %[[KEPT]] into %{{.*}}[0] [%{{.*}}] [1] : tensor<?xf32> into tensor<?xf32>
// CHECK: %[[BLOCK:.*]] = tensor.extract_slice %arg0[0] [1] [1] : tensor<8xf32> to tensor<1xf32>
// CHECK: mesh.send %[[BLOCK]] on @m4 mesh_axes = [0] destination = [%{{.*}}] : (tensor<1xf32>, index) -> tensor<1xf32>
// CHECK: %[[GOT:.*]] = scf.if %{{.*}} -> (tensor<?xf32>) {
// CHECK: mesh.recv %{{.*}} on @m4 mesh_axes = [0] source = [%{{.*}}] : (tensor<1xf32>, index) -> tensor<1xf32>
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[NEW]] : tensor<?xf32>
// CHECK: mesh.send %[[BLOCK]] on @m4 mesh_axes = [0] destination = [%{{.*}}]
// CHECK: %[[E:.*]] = math.exp %[[GOT]] : tensor<?xf32>
// CHECK-NEXT: return %[[E]] : tensor<?xf32>
func.func @one_row_later(%x: tensor<32xf32>) -> tensor<32xf32> {
  %even = mesh.sharding @m4 split_axes = [[0]] : !mesh.sharding
  %later = mesh.sharding @m4 split_axes = [[0]] sharded_dims_offsets = [0, 9, 17, 25, 32] : !mesh.sharding
  %xs = mesh.shard %x to %even : tensor<32xf32>
  %y = mesh.shard %xs to %later annotate_for_users : tensor<32xf32>
  %z = math.exp %y : tensor<32xf32>
  %zs = mesh.shard %z to %later : tensor<32xf32>
  return %zs : tensor<32xf32>
}

// x[:, :15] - x[:, 1:] with 5 rows over 2 devices (2 and 3): the columns
// the first slice's outputs read start one column before each device's
// piece, so the columns are recut (12 bytes on the busiest device; the
// whole argument was gathered, 288) while the rows keep their cut.
// BYTES-LABEL: @slice_beside_uneven_rows on @m24
// BYTES: max     recv 1, send 1            12
// CHECK-LABEL: func.func @slice_beside_uneven_rows(
// CHECK-NOT: mesh.all_gather
// CHECK: mesh.recv %{{.*}} on @m24 mesh_axes = [1] source = [%{{.*}}] : (tensor<?x1xf32>, index) -> tensor<?x1xf32>
// CHECK-NOT: mesh.all_gather
// CHECK: arith.subf %{{.*}}, %{{.*}} : tensor<?x?xf32>
func.func @slice_beside_uneven_rows(%x: tensor<5x16xf32>) -> tensor<5x15xf32> {
  %s = mesh.sharding @m24 split_axes = [[0], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<5x16xf32>
  %a = tensor.extract_slice %xs[0, 0] [5, 15] [1, 1] : tensor<5x16xf32> to tensor<5x15xf32>
  %b = tensor.extract_slice %xs[0, 1] [5, 15] [1, 1] : tensor<5x16xf32> to tensor<5x15xf32>
  %d = arith.subf %a, %b : tensor<5x15xf32>
  %ds = mesh.shard %d to %s : tensor<5x15xf32>
  return %ds : tensor<5x15xf32>
}

// Rows move both ways (a cut of 10 over 4 at 0, 1, 4, 8, 10 made 0, 3, 5,
// 6, 10): devices 0 and 1 receive from the next device, device 3 from the
// one before, in two rounds; device 2 sends in both.  A round's block is
// its longest run (2 rows): device 1 receives 24 bytes for its 1 row.  (The value is only resharded: an
// op between two cuts of one size would run on one of them.)
// BYTES-LABEL: @both_ways on @m4
// BYTES: [1]     recv 1, send 1            24
// BYTES: [2]     send 2                     0
// CHECK-LABEL: func.func @both_ways(
// CHECK-NOT: mesh.all_gather
// CHECK-COUNT-2: mesh.recv
// CHECK-NOT: mesh.all_gather
// CHECK: return
func.func @both_ways(%x: tensor<10x3xf32>) -> tensor<10x3xf32> {
  %from = mesh.sharding @m4 split_axes = [[0]] sharded_dims_offsets = [0, 1, 4, 8, 10] : !mesh.sharding
  %to = mesh.sharding @m4 split_axes = [[0]] sharded_dims_offsets = [0, 3, 5, 6, 10] : !mesh.sharding
  %xs = mesh.shard %x to %from : tensor<10x3xf32>
  %y = mesh.shard %xs to %to : tensor<10x3xf32>
  return %y : tensor<10x3xf32>
}

// Rows over axis 0 and columns over axis 1, to the rows cut 3, 5 and whole
// columns: the columns are gathered, then device 1 receives one row (8
// floats) from device 0: 128 bytes, where gathering the rows and cutting
// them again received 152.
// BYTES-LABEL: @gather_then_recut on @m24
// BYTES: max     all_gather 1, recv 1, send 1           128
// CHECK-LABEL: func.func @gather_then_recut(
// CHECK: %[[G:.*]] = mesh.all_gather %arg0 on @m24 mesh_axes = [1] gather_axis = 1 : tensor<4x2xf32> -> tensor<4x8xf32>
// CHECK-NOT: mesh.all_
// CHECK: mesh.send %{{.*}} on @m24 mesh_axes = [0] destination = [%{{.*}}] : (tensor<1x8xf32>, index) -> tensor<1x8xf32>
// CHECK: mesh.recv %{{.*}} on @m24 mesh_axes = [0] source = [%{{.*}}] : (tensor<1x8xf32>, index) -> tensor<1x8xf32>
// CHECK-NOT: mesh.all_
// CHECK: return
func.func @gather_then_recut(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %from = mesh.sharding @m24 split_axes = [[0], [1]] : !mesh.sharding
  %to = mesh.sharding @m24 split_axes = [[0]] sharded_dims_offsets = [0, 3, 8] : !mesh.sharding
  %xs = mesh.shard %x to %from : tensor<8x8xf32>
  %y = mesh.shard %xs to %to : tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}
