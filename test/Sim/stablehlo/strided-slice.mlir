// Strided slices and interior pads along split dimensions, simulated
// against the unpartitioned program: every other column from 0 and from 1
// (the pieces run the slice locally), 3::3 up to 13 (one column per
// device, at an offset that depends on the device), both dimensions of a
// 2x2 mesh, a dimension split over two axes, mhlo's spelling with a limit
// short of the end (1:14:4, local too); then the
// ones that keep the all_to_all plan: ::3 (6 columns over 4 devices) and
// 0:8:2 (halos); then the gradients (interior pads) of x[:, ::2] and
// x[:, 1::2], a pad of 2 between and 1 around, and one of low 2; last,
// a slice taking one row and every other column (the row is read where it
// is held), and one taking columns 6::3, which needs halos on a 2x2 mesh.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir -f local --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f local --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f local --compare-with %s -q --seed 3 | FileCheck %s
// RUN: mesh-run %t.mlir -f moving --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f moving --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f two_axes --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f two_axes --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f two_axes --compare-with %s -q --seed 3 | FileCheck %s
// RUN: mesh-run %t.mlir -f kept --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f kept --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f pads --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f pads --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f pads --compare-with %s -q --seed 3 | FileCheck %s
// RUN: mesh-run %t.mlir -f row --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f row --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f row --compare-with %s -q --seed 3 | FileCheck %s
// CHECK: match

// IR-LABEL: func.func @local(
// IR-NOT: = mesh.
// IR: return
// IR-LABEL: func.func @moving(
// IR-NOT: = mesh.all
// IR: mesh.process_multi_index
// IR-NOT: = mesh.all
// IR: return
// IR-LABEL: func.func @two_axes(
// IR-NOT: = mesh.
// IR: return
// IR-LABEL: func.func @kept(
// IR-NOT: mesh.update_halo
// IR-COUNT-3: mesh.all_to_all
// IR-NOT: = mesh.all
// IR: return
// IR-LABEL: func.func @pads(
// IR-COUNT-2: mesh.all_to_all
// IR-NOT: = mesh.all
// IR: return
// IR-LABEL: func.func @row(
// IR: %[[R:.*]] = tensor.extract_slice %arg0[%{{.*}}, 0] [1, 8] [1, 1] : tensor<4x8xf32> to tensor<1x8xf32>
// IR-NEXT: "stablehlo.slice"(%[[R]]) <{limit_indices = array<i64: 1, 8>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 2>}> : (tensor<1x8xf32>) -> tensor<1x4xf32>
// IR: mesh.update_halo
// IR: "stablehlo.slice"(%{{.*}}) <{limit_indices = array<i64: 1, 4>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 3>}> : (tensor<1x4xf32>) -> tensor<1x2xf32>

mesh.mesh @m(shape = 4)
mesh.mesh @m2(shape = 2x2)

func.func @local(%x: tensor<4x16xf32>, %y: tensor<4x16xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x4xf32>) {
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x16xf32>
  %ys = mesh.shard %y to %s : tensor<4x16xf32>
  %0 = "stablehlo.slice"(%xs) <{start_indices = array<i64: 0, 0>, limit_indices = array<i64: 4, 16>, strides = array<i64: 1, 2>}> : (tensor<4x16xf32>) -> tensor<4x8xf32>
  %1 = "stablehlo.slice"(%xs) <{start_indices = array<i64: 0, 1>, limit_indices = array<i64: 4, 16>, strides = array<i64: 1, 2>}> : (tensor<4x16xf32>) -> tensor<4x8xf32>
  %2 = "mhlo.slice"(%ys) {start_indices = dense<[0, 1]> : tensor<2xi64>, limit_indices = dense<[4, 14]> : tensor<2xi64>, strides = dense<[1, 4]> : tensor<2xi64>} : (tensor<4x16xf32>) -> tensor<4x4xf32>
  %r0 = mesh.shard %0 to %s : tensor<4x8xf32>
  %r1 = mesh.shard %1 to %s : tensor<4x8xf32>
  %r2 = mesh.shard %2 to %s : tensor<4x4xf32>
  return %r0, %r1, %r2 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x4xf32>
}

func.func @moving(%x: tensor<4x16xf32>) -> tensor<4x4xf32> {
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x16xf32>
  %0 = "stablehlo.slice"(%xs) <{start_indices = array<i64: 0, 3>, limit_indices = array<i64: 4, 13>, strides = array<i64: 1, 3>}> : (tensor<4x16xf32>) -> tensor<4x4xf32>
  %r = mesh.shard %0 to %s : tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

func.func @two_axes(%x: tensor<4x16xf32>, %y: tensor<8x16xf32>) -> (tensor<4x8xf32>, tensor<4x4xf32>) {
  %s = mesh.sharding @m2 split_axes = [[], [0, 1]] : !mesh.sharding
  %t = mesh.sharding @m2 split_axes = [[0], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x16xf32>
  %ys = mesh.shard %y to %t : tensor<8x16xf32>
  %0 = "stablehlo.slice"(%xs) <{start_indices = array<i64: 0, 1>, limit_indices = array<i64: 4, 16>, strides = array<i64: 1, 2>}> : (tensor<4x16xf32>) -> tensor<4x8xf32>
  %1 = "stablehlo.slice"(%ys) <{start_indices = array<i64: 1, 2>, limit_indices = array<i64: 8, 16>, strides = array<i64: 2, 4>}> : (tensor<8x16xf32>) -> tensor<4x4xf32>
  %r0 = mesh.shard %0 to %s : tensor<4x8xf32>
  %r1 = mesh.shard %1 to %t : tensor<4x4xf32>
  return %r0, %r1 : tensor<4x8xf32>, tensor<4x4xf32>
}

func.func @kept(%x: tensor<4x16xf32>) -> (tensor<4x6xf32>, tensor<4x4xf32>) {
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x16xf32>
  %0 = "stablehlo.slice"(%xs) <{start_indices = array<i64: 0, 0>, limit_indices = array<i64: 4, 16>, strides = array<i64: 1, 3>}> : (tensor<4x16xf32>) -> tensor<4x6xf32>
  %1 = "stablehlo.slice"(%xs) <{start_indices = array<i64: 0, 0>, limit_indices = array<i64: 4, 8>, strides = array<i64: 1, 2>}> : (tensor<4x16xf32>) -> tensor<4x4xf32>
  %r0 = mesh.shard %0 to %s : tensor<4x6xf32>
  %r1 = mesh.shard %1 to %s : tensor<4x4xf32>
  return %r0, %r1 : tensor<4x6xf32>, tensor<4x4xf32>
}

func.func @pads(%g: tensor<4x8xf32>, %h: tensor<4x4xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x12xf32>, tensor<4x16xf32>) {
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %gs = mesh.shard %g to %s : tensor<4x8xf32>
  %hs = mesh.shard %h to %s : tensor<4x4xf32>
  %z = "stablehlo.constant"() <{value = dense<0.5> : tensor<f32>}> : () -> tensor<f32>
  %0 = "stablehlo.pad"(%gs, %z) <{edge_padding_low = array<i64: 0, 0>, edge_padding_high = array<i64: 0, 1>, interior_padding = array<i64: 0, 1>}> : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x16xf32>
  %1 = "stablehlo.pad"(%gs, %z) <{edge_padding_low = array<i64: 0, 1>, edge_padding_high = array<i64: 0, 0>, interior_padding = array<i64: 0, 1>}> : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x16xf32>
  %2 = "stablehlo.pad"(%hs, %z) <{edge_padding_low = array<i64: 0, 1>, edge_padding_high = array<i64: 0, 1>, interior_padding = array<i64: 0, 2>}> : (tensor<4x4xf32>, tensor<f32>) -> tensor<4x12xf32>
  %3 = "stablehlo.pad"(%gs, %z) <{edge_padding_low = array<i64: 0, 2>, edge_padding_high = array<i64: 0, -1>, interior_padding = array<i64: 0, 1>}> : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x16xf32>
  %r0 = mesh.shard %0 to %s : tensor<4x16xf32>
  %r1 = mesh.shard %1 to %s : tensor<4x16xf32>
  %r2 = mesh.shard %2 to %s : tensor<4x12xf32>
  %r3 = mesh.shard %3 to %s : tensor<4x16xf32>
  return %r0, %r1, %r2, %r3 : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x12xf32>, tensor<4x16xf32>
}

func.func @row(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> (tensor<1x8xf32>, tensor<1x4xf32>) {
  %s = mesh.sharding @m2 split_axes = [[0], [1]] : !mesh.sharding
  %t = mesh.sharding @m2 split_axes = [[], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<8x16xf32>
  %ys = mesh.shard %y to %s : tensor<8x16xf32>
  %0 = "stablehlo.slice"(%xs) <{start_indices = array<i64: 5, 1>, limit_indices = array<i64: 6, 16>, strides = array<i64: 1, 2>}> : (tensor<8x16xf32>) -> tensor<1x8xf32>
  %1 = "stablehlo.slice"(%ys) <{start_indices = array<i64: 2, 6>, limit_indices = array<i64: 3, 16>, strides = array<i64: 1, 3>}> : (tensor<8x16xf32>) -> tensor<1x4xf32>
  %r0 = mesh.shard %0 to %t : tensor<1x8xf32>
  %r1 = mesh.shard %1 to %t : tensor<1x4xf32>
  return %r0, %r1 : tensor<1x8xf32>, tensor<1x4xf32>
}
