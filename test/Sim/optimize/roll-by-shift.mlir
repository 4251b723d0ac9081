// A rotation of a split dimension (two slices concatenated the other way
// round, as jnp.roll writes it) partitions to an all_to_all that gathers the
// dimension, the rotation, and an all_to_all that splits it again (an
// all_gather and an all_slice for a tensor of one dimension); the
// optimizer turns that into a rotating mesh.shift of the cells that wrap
// around (and of whole pieces first when the rotation spans one), up or down,
// whichever moves fewer cells.  A dimension split over several mesh axes
// moves the same cells by sends and receives along the devices' row-major
// order over those axes.  Every function is compared with the original.
// RUN: mesh-opt --allow-unregistered-dialect --sharding-propagation --mesh-partition %s -o %t.part.mlir
// RUN: mesh-opt --allow-unregistered-dialect --mesh-optimize-collectives %t.part.mlir -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f up3 --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f down20 --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f up2_i32 --compare-with %s -q --seed 3 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f two_axes --compare-with %s -q --seed 4 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f hlo_up3 --compare-with %s -q --seed 5 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f mhlo_i32_up3 --compare-with %s -q --seed 6 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f gathered_down5 --compare-with %s -q --seed 7 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f tuple_up3 --compare-with %s -q --seed 8 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f chain_up3 --compare-with %s -q --seed 9 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f chain_traded_up3 --compare-with %s -q --seed 10 | FileCheck %s --check-prefix=MATCH
// MATCH: match

mesh.mesh @m4(shape = 4)
mesh.mesh @m24(shape = 2x4)
mesh.mesh @m22(shape = 2x2)

// Up by 3: each device takes the last 3 columns of the piece before it
// (96 bytes where the two all_to_alls received 768).
// CHECK-LABEL: func.func @up3(
// CHECK-NOT: mesh.all_to_all
// CHECK: %[[KEEP:.*]] = tensor.extract_slice %arg0[0, 0] [8, 13] [1, 1] : tensor<8x16xf32> to tensor<8x13xf32>
// CHECK: %[[TAIL:.*]] = tensor.extract_slice %arg0[0, 13] [8, 3] [1, 1] : tensor<8x16xf32> to tensor<8x3xf32>
// CHECK: %[[MOVED:.*]] = mesh.shift %[[TAIL]] on @m4 mesh_axes = [0] shift_axis = 0 offset = 1 rotate : tensor<8x3xf32> -> tensor<8x3xf32>
// CHECK: %[[Y:.*]] = tensor.concat dim(1) %[[MOVED]], %[[KEEP]] : (tensor<8x3xf32>, tensor<8x13xf32>) -> tensor<8x16xf32>
// CHECK-NOT: mesh.all_to_all
// CHECK: return %[[Y]]
func.func @up3(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %cols = mesh.sharding @m4 split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %cols : tensor<8x64xf32>
  %a = tensor.extract_slice %xs[0, 61] [8, 3] [1, 1] : tensor<8x64xf32> to tensor<8x3xf32>
  %b = tensor.extract_slice %xs[0, 0] [8, 61] [1, 1] : tensor<8x64xf32> to tensor<8x61xf32>
  %y = tensor.concat dim(1) %a, %b : (tensor<8x3xf32>, tensor<8x61xf32>) -> tensor<8x64xf32>
  %ys = mesh.shard %y to %cols : tensor<8x64xf32>
  return %ys : tensor<8x64xf32>
}

// Down by 20 (a piece of 16 and 4 more): the whole piece after, then the
// first 4 columns of the one after that.
// CHECK-LABEL: func.func @down20(
// CHECK-NOT: mesh.all_to_all
// CHECK: %[[NEXT:.*]] = mesh.shift %arg0 on @m4 mesh_axes = [0] shift_axis = 0 offset = -1 rotate : tensor<8x16xf32> -> tensor<8x16xf32>
// CHECK: %[[HEAD:.*]] = tensor.extract_slice %[[NEXT]][0, 0] [8, 4] [1, 1] : tensor<8x16xf32> to tensor<8x4xf32>
// CHECK: %[[REST:.*]] = tensor.extract_slice %[[NEXT]][0, 4] [8, 12] [1, 1] : tensor<8x16xf32> to tensor<8x12xf32>
// CHECK: %[[MOVED:.*]] = mesh.shift %[[HEAD]] on @m4 mesh_axes = [0] shift_axis = 0 offset = -1 rotate : tensor<8x4xf32> -> tensor<8x4xf32>
// CHECK: tensor.concat dim(1) %[[REST]], %[[MOVED]] : (tensor<8x12xf32>, tensor<8x4xf32>) -> tensor<8x16xf32>
// CHECK-NOT: mesh.all_to_all
// CHECK-LABEL: func.func @up2_i32(
func.func @down20(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %cols = mesh.sharding @m4 split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %cols : tensor<8x64xf32>
  %a = tensor.extract_slice %xs[0, 20] [8, 44] [1, 1] : tensor<8x64xf32> to tensor<8x44xf32>
  %b = tensor.extract_slice %xs[0, 0] [8, 20] [1, 1] : tensor<8x64xf32> to tensor<8x20xf32>
  %y = tensor.concat dim(1) %a, %b : (tensor<8x44xf32>, tensor<8x20xf32>) -> tensor<8x64xf32>
  %ys = mesh.shard %y to %cols : tensor<8x64xf32>
  return %ys : tensor<8x64xf32>
}

// The rotated dimension split over the second axis of a 2x4 mesh, the first
// split over the first: the shift runs within each row of devices.
// CHECK: mesh.shift %{{.*}} on @m24 mesh_axes = [1] shift_axis = 1 offset = 1 rotate : tensor<3x2x4xi32> -> tensor<3x2x4xi32>
// CHECK-NOT: mesh.all_to_all
// CHECK-LABEL: func.func @two_axes(
func.func @up2_i32(%x: tensor<6x32x4xi32>) -> tensor<6x32x4xi32> {
  %s = mesh.sharding @m24 split_axes = [[0], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<6x32x4xi32>
  %a = tensor.extract_slice %xs[0, 30, 0] [6, 2, 4] [1, 1, 1] : tensor<6x32x4xi32> to tensor<6x2x4xi32>
  %b = tensor.extract_slice %xs[0, 0, 0] [6, 30, 4] [1, 1, 1] : tensor<6x32x4xi32> to tensor<6x30x4xi32>
  %y = tensor.concat dim(1) %a, %b : (tensor<6x2x4xi32>, tensor<6x30x4xi32>) -> tensor<6x32x4xi32>
  %ys = mesh.shard %y to %s : tensor<6x32x4xi32>
  return %ys : tensor<6x32x4xi32>
}

// A dimension split over two mesh axes: its pieces follow the devices in
// row-major order over both, so a rotation by 5 (a piece of 4 and one
// cell) sends each device's piece to the next device in that order, then
// the last column of what it got to the one after (160 bytes, where the
// two all_to_alls received 192).
// CHECK-NOT: mesh.all_to_all
// CHECK: mesh.send %arg0 on @m22 mesh_axes = [0, 1] destination = [%{{.*}}, %{{.*}}] : (tensor<8x4xf32>, index, index) -> tensor<8x4xf32>
// CHECK: mesh.send %{{.*}} on @m22 mesh_axes = [0, 1] destination = [%{{.*}}, %{{.*}}] : (tensor<8x1xf32>, index, index) -> tensor<8x1xf32>
// CHECK-NOT: mesh.all_to_all
// CHECK-LABEL: func.func @hlo_up3(
func.func @two_axes(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = mesh.sharding @m22 split_axes = [[], [0, 1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<8x16xf32>
  %a = tensor.extract_slice %xs[0, 11] [8, 5] [1, 1] : tensor<8x16xf32> to tensor<8x5xf32>
  %b = tensor.extract_slice %xs[0, 0] [8, 11] [1, 1] : tensor<8x16xf32> to tensor<8x11xf32>
  %y = tensor.concat dim(1) %a, %b : (tensor<8x5xf32>, tensor<8x11xf32>) -> tensor<8x16xf32>
  %ys = mesh.shard %y to %s : tensor<8x16xf32>
  return %ys : tensor<8x16xf32>
}

// As JAX writes jnp.roll(x, 3, 1), in stablehlo: the slices and the
// concatenation stay stablehlo ops.
// CHECK: %[[HK:.*]] = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 8, 13>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x16xf32>) -> tensor<8x13xf32>
// CHECK: %[[HT:.*]] = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 8, 16>, start_indices = array<i64: 0, 13>, strides = array<i64: 1, 1>}> : (tensor<8x16xf32>) -> tensor<8x3xf32>
// CHECK: %[[HM:.*]] = mesh.shift %[[HT]] on @m4 mesh_axes = [0] shift_axis = 0 offset = 1 rotate
// CHECK: "stablehlo.concatenate"(%[[HM]], %[[HK]]) <{dimension = 1 : i64}>
// CHECK-NOT: mesh.all_to_all
func.func @hlo_up3(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %cols = mesh.sharding @m4 split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %cols : tensor<8x64xf32>
  %a = "stablehlo.slice"(%xs) <{limit_indices = array<i64: 8, 64>, start_indices = array<i64: 0, 61>, strides = array<i64: 1, 1>}> : (tensor<8x64xf32>) -> tensor<8x3xf32>
  %b = "stablehlo.slice"(%xs) <{limit_indices = array<i64: 8, 61>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x64xf32>) -> tensor<8x61xf32>
  %y = "stablehlo.concatenate"(%a, %b) <{dimension = 1 : i64}> : (tensor<8x3xf32>, tensor<8x61xf32>) -> tensor<8x64xf32>
  %ys = mesh.shard %y to %cols : tensor<8x64xf32>
  return %ys : tensor<8x64xf32>
}

// mhlo's slices with i32 index lists: partition resizes them and the
// rewrite writes its new slices in the same width (both failed before).
// CHECK-LABEL: func.func @mhlo_i32_up3(
// CHECK: "mhlo.slice"(%arg0) {limit_indices = dense<[8, 16]> : tensor<2xi32>, start_indices = dense<[0, 13]> : tensor<2xi32>
// CHECK: mesh.shift
// CHECK-NOT: mesh.all_to_all
func.func @mhlo_i32_up3(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %cols = mesh.sharding @m4 split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %cols : tensor<8x64xf32>
  %a = "mhlo.slice"(%xs) {start_indices = dense<[0, 61]> : tensor<2xi32>, limit_indices = dense<[8, 64]> : tensor<2xi32>, strides = dense<[1, 1]> : tensor<2xi32>} : (tensor<8x64xf32>) -> tensor<8x3xf32>
  %b = "mhlo.slice"(%xs) {start_indices = dense<[0, 0]> : tensor<2xi32>, limit_indices = dense<[8, 61]> : tensor<2xi32>, strides = dense<[1, 1]> : tensor<2xi32>} : (tensor<8x64xf32>) -> tensor<8x61xf32>
  %y = "mhlo.concatenate"(%a, %b) {dimension = 1 : i64} : (tensor<8x3xf32>, tensor<8x61xf32>) -> tensor<8x64xf32>
  %ys = mesh.shard %y to %cols : tensor<8x64xf32>
  return %ys : tensor<8x64xf32>
}

// One dimension only: partition gathers it whole and slices it again; the
// first 5 cells of the next piece join the end of each piece (20 bytes where
// the all_gather received 192).
// CHECK-LABEL: func.func @gathered_down5(
// CHECK-NOT: mesh.all_gather
// CHECK: %[[HEAD:.*]] = tensor.extract_slice %arg0[0] [5] [1] : tensor<16xf32> to tensor<5xf32>
// CHECK: %[[REST:.*]] = tensor.extract_slice %arg0[5] [11] [1] : tensor<16xf32> to tensor<11xf32>
// CHECK: %[[NEXT:.*]] = mesh.shift %[[HEAD]] on @m4 mesh_axes = [0] shift_axis = 0 offset = -1 rotate : tensor<5xf32> -> tensor<5xf32>
// CHECK: tensor.concat dim(0) %[[REST]], %[[NEXT]] : (tensor<11xf32>, tensor<5xf32>) -> tensor<16xf32>
// CHECK-NOT: mesh.all_slice
func.func @gathered_down5(%x: tensor<64xf32>) -> tensor<64xf32> {
  %rows = mesh.sharding @m4 split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<64xf32>
  %a = tensor.extract_slice %xs[5] [59] [1] : tensor<64xf32> to tensor<59xf32>
  %b = tensor.extract_slice %xs[0] [5] [1] : tensor<64xf32> to tensor<5xf32>
  %y = tensor.concat dim(0) %a, %b : (tensor<59xf32>, tensor<5xf32>) -> tensor<64xf32>
  %ys = mesh.shard %y to %rows : tensor<64xf32>
  return %ys : tensor<64xf32>
}

// jnp.roll(x, 3, 1) of a sequence split over both axes of a 2x4 mesh (3
// rows, which no axis divides, so the columns are gathered over both):
// each device sends its last 3 columns to the next device in row-major
// order, the last device to the first (36 bytes, where the all_gather
// received 336).
// CHECK-LABEL: func.func @tuple_up3(
// CHECK-NOT: mesh.all_gather
// CHECK: mesh.send %{{.*}} on @m24 mesh_axes = [0, 1] destination = [%{{.*}}, %{{.*}}] : (tensor<3x3xf32>, index, index) -> tensor<3x3xf32>
// CHECK-NOT: mesh.all_
// CHECK: return
func.func @tuple_up3(%x: tensor<3x32xf32>) -> tensor<3x32xf32> {
  %s = mesh.sharding @m24 split_axes = [[], [0, 1]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<3x32xf32>
  %a = "stablehlo.slice"(%x0) <{start_indices = array<i64: 0, 29>, limit_indices = array<i64: 3, 32>, strides = array<i64: 1, 1>}> : (tensor<3x32xf32>) -> tensor<3x3xf32>
  %b = "stablehlo.slice"(%x0) <{start_indices = array<i64: 0, 0>, limit_indices = array<i64: 3, 29>, strides = array<i64: 1, 1>}> : (tensor<3x32xf32>) -> tensor<3x29xf32>
  %y = "stablehlo.concatenate"(%a, %b) <{dimension = 1 : i64}> : (tensor<3x3xf32>, tensor<3x29xf32>) -> tensor<3x32xf32>
  %y0 = mesh.shard %y to %s : tensor<3x32xf32>
  return %y0 : tensor<3x32xf32>
}

// jnp.roll(x, 3, 1) with the columns split over the axes (1, 0) of a 2x4
// mesh and 4 rows, which the 8 devices do not divide: partition gathers
// axis 0 (an all_gather), trades the columns for the rows over axis 1 (an
// all_to_all), rotates, and undoes both.  The two pairs are one rotation
// over the group in the order (1, 0): each device sends its last 3 columns
// to the next device in that order (48 bytes, where the collectives
// received 512).
// CHECK-LABEL: func.func @chain_up3(
// CHECK-NOT: mesh.all_
// CHECK: mesh.send %{{.*}} on @m24 mesh_axes = [1, 0] destination = [%{{.*}}, %{{.*}}] : (tensor<4x3xf32>, index, index) -> tensor<4x3xf32>
// CHECK-NOT: mesh.all_
// CHECK: return
func.func @chain_up3(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %s = mesh.sharding @m24 split_axes = [[], [1, 0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<4x64xf32>
  %a = "stablehlo.slice"(%x0) <{start_indices = array<i64: 0, 61>, limit_indices = array<i64: 4, 64>, strides = array<i64: 1, 1>}> : (tensor<4x64xf32>) -> tensor<4x3xf32>
  %b = "stablehlo.slice"(%x0) <{start_indices = array<i64: 0, 0>, limit_indices = array<i64: 4, 61>, strides = array<i64: 1, 1>}> : (tensor<4x64xf32>) -> tensor<4x61xf32>
  %y = "stablehlo.concatenate"(%a, %b) <{dimension = 1 : i64}> : (tensor<4x3xf32>, tensor<4x61xf32>) -> tensor<4x64xf32>
  %y0 = mesh.shard %y to %s : tensor<4x64xf32>
  return %y0 : tensor<4x64xf32>
}

// The same over the axes (0, 1): partition trades the columns for the rows
// over axis 1 first (an all_to_all), then gathers them over axis 0.
// CHECK-LABEL: func.func @chain_traded_up3(
// CHECK-NOT: mesh.all_
// CHECK: mesh.send %{{.*}} on @m24 mesh_axes = [0, 1] destination = [%{{.*}}, %{{.*}}] : (tensor<4x3xf32>, index, index) -> tensor<4x3xf32>
// CHECK-NOT: mesh.all_
// CHECK: return
func.func @chain_traded_up3(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %s = mesh.sharding @m24 split_axes = [[], [0, 1]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<4x64xf32>
  %a = "stablehlo.slice"(%x0) <{start_indices = array<i64: 0, 61>, limit_indices = array<i64: 4, 64>, strides = array<i64: 1, 1>}> : (tensor<4x64xf32>) -> tensor<4x3xf32>
  %b = "stablehlo.slice"(%x0) <{start_indices = array<i64: 0, 0>, limit_indices = array<i64: 4, 61>, strides = array<i64: 1, 1>}> : (tensor<4x64xf32>) -> tensor<4x61xf32>
  %y = "stablehlo.concatenate"(%a, %b) <{dimension = 1 : i64}> : (tensor<4x3xf32>, tensor<4x61xf32>) -> tensor<4x64xf32>
  %y0 = mesh.shard %y to %s : tensor<4x64xf32>
  return %y0 : tensor<4x64xf32>
}
