// Strided slices (`x[:, ::2]`), their gradient (an interior pad) and
// strided tensor slices along a split dimension run on each device's piece
// when it holds exactly the elements of its piece of the result: the piece
// size is a multiple of the stride and the first element is below it.
// Other starts and limits read at an offset that depends on the device,
// need halos or give uneven pieces; those keep the all_to_all plan.
// Before, any strided dimension stayed whole: x[:, ::2] of a 4-way split
// moved 72 bytes (all_to_all, slice, all_to_all) where XLA moves none.
// RUN: mesh-opt --split-input-file --allow-unregistered-dialect --pass-pipeline='builtin.module(import-shardings, sharding-propagation, mesh-partition, mesh-optimize-collectives)' %s | FileCheck %s

// JAX's x[:, ::2] of a 4x16 array split over "model" (Shardy).
"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}], function_type = (tensor<4x16xf32>) -> tensor<4x8xf32>, res_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<4x16xf32>):
    %0 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 4, 16>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 2>}> : (tensor<4x16xf32>) -> tensor<4x8xf32>
    "func.return"(%0) : (tensor<4x8xf32>) -> ()
  }) : () -> ()
}) : () -> ()

// CHECK-LABEL: func.func public @main(
// CHECK-SAME: %arg0: tensor<4x4xf32>
// CHECK-NEXT: %[[S:.*]] = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 4, 4>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 2>}> : (tensor<4x4xf32>) -> tensor<4x2xf32>
// CHECK-NEXT: return %[[S]] : tensor<4x2xf32>

// -----

mesh.mesh @m(shape = 4)
mesh.mesh @m2(shape = 2x2)

// x[:, 1::2], mhlo's spelling, and both dimensions of a 2x2 mesh at once
// (rows 1::2 of 8 over axis 0, columns 2::4 of 16 over axis 1)
// CHECK-LABEL: func.func @odd(
// CHECK-NEXT: "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 4, 4>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 2>}> : (tensor<4x4xf32>) -> tensor<4x2xf32>
// CHECK-NEXT: "mhlo.slice"(%arg1) {limit_indices = dense<4> : tensor<2xi64>, start_indices = dense<[0, 1]> : tensor<2xi64>, strides = dense<[1, 2]> : tensor<2xi64>} : (tensor<4x4xf32>) -> tensor<4x2xf32>
// CHECK-NEXT: return
func.func @odd(%x: tensor<4x16xf32>, %y: tensor<4x16xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x16xf32>
  %ys = mesh.shard %y to %s : tensor<4x16xf32>
  %0 = "stablehlo.slice"(%xs) <{start_indices = array<i64: 0, 1>, limit_indices = array<i64: 4, 16>, strides = array<i64: 1, 2>}> : (tensor<4x16xf32>) -> tensor<4x8xf32>
  %1 = "mhlo.slice"(%ys) {start_indices = dense<[0, 1]> : tensor<2xi64>, limit_indices = dense<[4, 16]> : tensor<2xi64>, strides = dense<[1, 2]> : tensor<2xi64>} : (tensor<4x16xf32>) -> tensor<4x8xf32>
  %r0 = mesh.shard %0 to %s : tensor<4x8xf32>
  %r1 = mesh.shard %1 to %s : tensor<4x8xf32>
  return %r0, %r1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// CHECK-LABEL: func.func @both(
// CHECK-NEXT: "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 4, 8>, start_indices = array<i64: 1, 2>, strides = array<i64: 2, 4>}> : (tensor<4x8xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: return
func.func @both(%x: tensor<8x16xf32>) -> tensor<4x4xf32> {
  %s = mesh.sharding @m2 split_axes = [[0], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<8x16xf32>
  %0 = "stablehlo.slice"(%xs) <{start_indices = array<i64: 1, 2>, limit_indices = array<i64: 8, 16>, strides = array<i64: 2, 4>}> : (tensor<8x16xf32>) -> tensor<4x4xf32>
  %r = mesh.shard %0 to %s : tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// A dimension split over both axes of the 2x2 mesh (4 pieces).
// CHECK-LABEL: func.func @two_axes(
// CHECK-NEXT: "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 4, 4>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 2>}> : (tensor<4x4xf32>) -> tensor<4x2xf32>
// CHECK-NEXT: return
func.func @two_axes(%x: tensor<4x16xf32>) -> tensor<4x8xf32> {
  %s = mesh.sharding @m2 split_axes = [[], [0, 1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x16xf32>
  %0 = "stablehlo.slice"(%xs) <{start_indices = array<i64: 0, 1>, limit_indices = array<i64: 4, 16>, strides = array<i64: 1, 2>}> : (tensor<4x16xf32>) -> tensor<4x8xf32>
  %r = mesh.shard %0 to %s : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// x[:, 3:13:3]: elements 3, 6, 9, 12, one in each piece, at local offset
// 3 - p on device p: cut there, then sliced from 0.
// CHECK-LABEL: func.func @moving(
// CHECK-NEXT: %[[P:.*]] = mesh.process_multi_index on @m axes = [0] : index
// CHECK-NEXT: %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT: %[[CM1:.*]] = arith.constant -1 : index
// CHECK-NEXT: %[[M:.*]] = arith.muli %[[P]], %[[CM1]] : index
// CHECK-NEXT: %[[O:.*]] = arith.addi %[[C3]], %[[M]] : index
// CHECK-NEXT: %[[X:.*]] = tensor.extract_slice %arg0[0, %[[O]]] [4, 1] [1, 1] : tensor<4x4xf32> to tensor<4x1xf32>
// CHECK-NEXT: "stablehlo.slice"(%[[X]]) <{limit_indices = array<i64: 4, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 3>}> : (tensor<4x1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT: return
func.func @moving(%x: tensor<4x16xf32>) -> tensor<4x4xf32> {
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x16xf32>
  %0 = "stablehlo.slice"(%xs) <{start_indices = array<i64: 0, 3>, limit_indices = array<i64: 4, 13>, strides = array<i64: 1, 3>}> : (tensor<4x16xf32>) -> tensor<4x4xf32>
  %r = mesh.shard %0 to %s : tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// x[:, ::3] gives 6 columns, which 4 devices do not split evenly, and
// x[:, 0:8:2] would need 6 columns of halo on every device: both keep the
// all_to_all plan.
// CHECK-LABEL: func.func @uneven(
// CHECK: mesh.all_to_all %arg0 on @m mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<4x4xf32> -> tensor<1x16xf32>
// CHECK: "stablehlo.slice"(%{{.*}}) <{limit_indices = array<i64: 1, 16>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 3>}> : (tensor<1x16xf32>) -> tensor<1x6xf32>
// CHECK: mesh.all_to_all
func.func @uneven(%x: tensor<4x16xf32>) -> tensor<4x6xf32> {
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x16xf32>
  %0 = "stablehlo.slice"(%xs) <{start_indices = array<i64: 0, 0>, limit_indices = array<i64: 4, 16>, strides = array<i64: 1, 3>}> : (tensor<4x16xf32>) -> tensor<4x6xf32>
  %r = mesh.shard %0 to %s : tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}

// CHECK-LABEL: func.func @halo(
// CHECK-NOT: mesh.update_halo
// CHECK: mesh.all_to_all %arg0 on @m mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<4x4xf32> -> tensor<1x16xf32>
// CHECK: "stablehlo.slice"(%{{.*}}) <{limit_indices = array<i64: 1, 8>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 2>}> : (tensor<1x16xf32>) -> tensor<1x4xf32>
// CHECK: mesh.all_to_all
func.func @halo(%x: tensor<4x16xf32>) -> tensor<4x4xf32> {
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x16xf32>
  %0 = "stablehlo.slice"(%xs) <{start_indices = array<i64: 0, 0>, limit_indices = array<i64: 4, 8>, strides = array<i64: 1, 2>}> : (tensor<4x16xf32>) -> tensor<4x4xf32>
  %r = mesh.shard %0 to %s : tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// The gradients of x[:, ::2] and x[:, 1::2] (a cell after each element, 0
// or 1 before the first), and 2 cells between, 1 around: each piece pads
// alike.  Low 2 with interior 1 starts every piece's pattern elsewhere:
// all_to_all plan.
// CHECK-LABEL: func.func @pads(
// CHECK-NEXT: %[[Z:.*]] = "stablehlo.constant"
// CHECK-NEXT: "stablehlo.pad"(%arg0, %[[Z]]) <{edge_padding_high = array<i64: 0, 1>, edge_padding_low = array<i64: 0, 0>, interior_padding = array<i64: 0, 1>}> : (tensor<4x2xf32>, tensor<f32>) -> tensor<4x4xf32>
// CHECK-NEXT: "stablehlo.pad"(%arg0, %[[Z]]) <{edge_padding_high = array<i64: 0, 0>, edge_padding_low = array<i64: 0, 1>, interior_padding = array<i64: 0, 1>}> : (tensor<4x2xf32>, tensor<f32>) -> tensor<4x4xf32>
// CHECK-NEXT: "stablehlo.pad"(%arg1, %[[Z]]) <{edge_padding_high = array<i64: 0, 1>, edge_padding_low = array<i64: 0, 1>, interior_padding = array<i64: 0, 2>}> : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x3xf32>
// CHECK-NEXT: mesh.all_to_all %arg0
// CHECK-NEXT: "stablehlo.pad"({{.*}}) <{edge_padding_high = array<i64: 0, -1>, edge_padding_low = array<i64: 0, 2>, interior_padding = array<i64: 0, 1>}> : (tensor<1x8xf32>, tensor<f32>) -> tensor<1x16xf32>
// CHECK-NEXT: mesh.all_to_all
// CHECK-NEXT: return
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

// tensor slices taking every other column from 1, inserting into them,
// and a rank-reducing one (row 2, columns 3::4), all over both axes
// CHECK-LABEL: func.func @tensor_slices(
// CHECK-NEXT: tensor.extract_slice %arg0[0, 1] [4, 2] [1, 2] : tensor<4x4xf32> to tensor<4x2xf32>
// CHECK-NEXT: tensor.insert_slice %arg1 into %arg0[0, 1] [4, 2] [1, 2] : tensor<4x2xf32> into tensor<4x4xf32>
// CHECK-NEXT: tensor.extract_slice %arg2[2, 3] [1, 1] [1, 4] : tensor<4x4xf32> to tensor<1xf32>
// CHECK-NEXT: return
func.func @tensor_slices(%x: tensor<4x16xf32>, %y: tensor<4x8xf32>, %z: tensor<4x16xf32>) -> (tensor<4x8xf32>, tensor<4x16xf32>, tensor<4xf32>) {
  %s = mesh.sharding @m2 split_axes = [[], [0, 1]] : !mesh.sharding
  %t = mesh.sharding @m2 split_axes = [[0, 1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x16xf32>
  %ys = mesh.shard %y to %s : tensor<4x8xf32>
  %zs = mesh.shard %z to %s : tensor<4x16xf32>
  %0 = tensor.extract_slice %xs[0, 1] [4, 8] [1, 2] : tensor<4x16xf32> to tensor<4x8xf32>
  %1 = tensor.insert_slice %ys into %xs[0, 1] [4, 8] [1, 2] : tensor<4x8xf32> into tensor<4x16xf32>
  %2 = tensor.extract_slice %zs[2, 3] [1, 4] [1, 4] : tensor<4x16xf32> to tensor<4xf32>
  %r0 = mesh.shard %0 to %s : tensor<4x8xf32>
  %r1 = mesh.shard %1 to %s : tensor<4x16xf32>
  %r2 = mesh.shard %2 to %t : tensor<4xf32>
  return %r0, %r1, %r2 : tensor<4x8xf32>, tensor<4x16xf32>, tensor<4xf32>
}

// -----

// A mesh axis of dynamic size cuts 8 and 16 at run time into pieces that
// need not line up (3 devices: 3, 3, 2 and 6, 5, 5): the interior pad, and
// a reshape merging 4x8 into 32 (refused before: its pieces had dynamic
// sizes), run whole.
mesh.mesh @d(shape = ?)

// CHECK-LABEL: func.func @dynamic_pad(
// CHECK: %[[G:.*]] = mesh.all_gather %{{.*}} on @d mesh_axes = [0] gather_axis = 1 : tensor<4x?xf32> -> tensor<4x?xf32>
// CHECK: "stablehlo.pad"(%{{.*}}, %{{.*}}) <{edge_padding_high = array<i64: 0, 1>, edge_padding_low = array<i64: 0, 0>, interior_padding = array<i64: 0, 1>}> : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x16xf32>
func.func @dynamic_pad(%g: tensor<4x8xf32>) -> tensor<4x16xf32> {
  %s = mesh.sharding @d split_axes = [[], [0]] : !mesh.sharding
  %gs = mesh.shard %g to %s : tensor<4x8xf32>
  %z = "stablehlo.constant"() <{value = dense<0.5> : tensor<f32>}> : () -> tensor<f32>
  %0 = "stablehlo.pad"(%gs, %z) <{edge_padding_low = array<i64: 0, 0>, edge_padding_high = array<i64: 0, 1>, interior_padding = array<i64: 0, 1>}> : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x16xf32>
  %r = mesh.shard %0 to %s : tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @dynamic_reshape(
// CHECK: mesh.all_gather %{{.*}} on @d mesh_axes = [0] gather_axis = 0 : tensor<?x8xf32> -> tensor<?x8xf32>
// CHECK: "stablehlo.reshape"(%{{.*}}) : (tensor<4x8xf32>) -> tensor<32xf32>
func.func @dynamic_reshape(%g: tensor<4x8xf32>) -> tensor<32xf32> {
  %s = mesh.sharding @d split_axes = [[0]] : !mesh.sharding
  %gs = mesh.shard %g to %s : tensor<4x8xf32>
  %0 = "stablehlo.reshape"(%gs) : (tensor<4x8xf32>) -> tensor<32xf32>
  %r = mesh.shard %0 to %s : tensor<32xf32>
  return %r : tensor<32xf32>
}
