// A depthwise causal convolution along a split sequence, written as JAX
// writes one (Mamba's short convolution): the sequence padded in front,
// read by slices at offsets 0, 1 and 3, each scaled by a row of the
// weights broadcast down the sequence.  Partition trades the sequence for
// the channels (two all_to_alls, the weights' columns sliced to each
// device's channels).  mesh-optimize-collectives gives each device its own
// rows of every channel instead: a halo of the previous device's last
// rows, and each broadcast weight row made again from the whole weights
// (partition sliced them from a whole argument; a weight each device holds
// its own piece of is gathered instead, see test_mesh_optimize_collectives):
// 96 bytes on the busiest device, where the all_to_alls received 384.
// Compared with the original.
// RUN: mesh-opt --allow-unregistered-dialect --sharding-propagation --mesh-partition %s -o %t.part.mlir
// RUN: mesh-opt --allow-unregistered-dialect --mesh-optimize-collectives %t.part.mlir -o %t.mlir
// RUN: FileCheck %s --check-prefix=PART < %t.part.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f depthwise --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f depthwise --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-opt --allow-unregistered-dialect --mesh-analysis %t.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BYTES
// MATCH: match

mesh.mesh @m4(shape = 4)

// PART-LABEL: func.func @depthwise(
// PART: mesh.all_to_all %arg0 on @m4 mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<8x8xf32> -> tensor<32x2xf32>
// PART: mesh.all_to_all %{{.*}} on @m4 mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<32x2xf32> -> tensor<8x8xf32>

// CHECK-LABEL: func.func @depthwise(
// CHECK-NOT: mesh.all_
// CHECK: %[[HALO:.*]] = mesh.update_halo %arg0 into %{{.*}} on @m4 split_axes = {{\[\[0\]\]}} destination_halo_sizes = [3, 0] : tensor<8x8xf32> -> tensor<11x8xf32>
// CHECK: %[[R3:.*]] = "stablehlo.slice"(%arg1) <{limit_indices = array<i64: 4, 8>, start_indices = array<i64: 3, 0>, strides = array<i64: 1, 1>}> : (tensor<4x8xf32>) -> tensor<1x8xf32>
// CHECK: "stablehlo.broadcast_in_dim"(%[[R3]]) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x8xf32>) -> tensor<8x8xf32>
// CHECK: %[[R1:.*]] = "stablehlo.slice"(%arg1) <{limit_indices = array<i64: 2, 8>, start_indices = array<i64: 1, 0>, strides = array<i64: 1, 1>}> : (tensor<4x8xf32>) -> tensor<1x8xf32>
// CHECK: %[[V1:.*]] = "stablehlo.reshape"(%[[R1]]) : (tensor<1x8xf32>) -> tensor<8xf32>
// CHECK: "stablehlo.broadcast_in_dim"(%[[V1]]) <{broadcast_dimensions = array<i64: 1>}> : (tensor<8xf32>) -> tensor<8x8xf32>
// CHECK: %[[R0:.*]] = "stablehlo.slice"(%arg1) <{limit_indices = array<i64: 1, 8>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<4x8xf32>) -> tensor<1x8xf32>
// CHECK-NOT: mesh.all_
// CHECK: return

// BYTES: max update_halo 1 96

func.func @depthwise(%x: tensor<32x8xf32>, %w: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<32x8xf32> {
  %rows = mesh.sharding @m4 split_axes = [[0]] : !mesh.sharding
  %whole = mesh.sharding @m4 split_axes = [] : !mesh.sharding
  %xs = mesh.shard %x to %rows annotate_for_users : tensor<32x8xf32>
  %ws = mesh.shard %w to %whole annotate_for_users : tensor<4x8xf32>
  %bs = mesh.shard %b to %whole annotate_for_users : tensor<8xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %p = "stablehlo.pad"(%xs, %zero) <{edge_padding_high = array<i64: 0, 0>, edge_padding_low = array<i64: 3, 0>, interior_padding = array<i64: 0, 0>}> : (tensor<32x8xf32>, tensor<f32>) -> tensor<35x8xf32>
  %s0 = "stablehlo.slice"(%p) <{start_indices = array<i64: 0, 0>, limit_indices = array<i64: 32, 8>, strides = array<i64: 1, 1>}> : (tensor<35x8xf32>) -> tensor<32x8xf32>
  %s1 = "stablehlo.slice"(%p) <{start_indices = array<i64: 1, 0>, limit_indices = array<i64: 33, 8>, strides = array<i64: 1, 1>}> : (tensor<35x8xf32>) -> tensor<32x8xf32>
  %s2 = "stablehlo.slice"(%p) <{start_indices = array<i64: 3, 0>, limit_indices = array<i64: 35, 8>, strides = array<i64: 1, 1>}> : (tensor<35x8xf32>) -> tensor<32x8xf32>
  %w0 = "stablehlo.slice"(%ws) <{start_indices = array<i64: 0, 0>, limit_indices = array<i64: 1, 8>, strides = array<i64: 1, 1>}> : (tensor<4x8xf32>) -> tensor<1x8xf32>
  %w1 = "stablehlo.slice"(%ws) <{start_indices = array<i64: 1, 0>, limit_indices = array<i64: 2, 8>, strides = array<i64: 1, 1>}> : (tensor<4x8xf32>) -> tensor<1x8xf32>
  %w3 = "stablehlo.slice"(%ws) <{start_indices = array<i64: 3, 0>, limit_indices = array<i64: 4, 8>, strides = array<i64: 1, 1>}> : (tensor<4x8xf32>) -> tensor<1x8xf32>
  %v0 = "stablehlo.reshape"(%w0) : (tensor<1x8xf32>) -> tensor<8xf32>
  %v1 = "stablehlo.reshape"(%w1) : (tensor<1x8xf32>) -> tensor<8xf32>
  %b0 = "stablehlo.broadcast_in_dim"(%v0) <{broadcast_dimensions = array<i64: 1>}> : (tensor<8xf32>) -> tensor<32x8xf32>
  %b1 = "stablehlo.broadcast_in_dim"(%v1) <{broadcast_dimensions = array<i64: 1>}> : (tensor<8xf32>) -> tensor<32x8xf32>
  %b3 = "stablehlo.broadcast_in_dim"(%w3) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x8xf32>) -> tensor<32x8xf32>
  %bb = "stablehlo.broadcast_in_dim"(%bs) <{broadcast_dimensions = array<i64: 1>}> : (tensor<8xf32>) -> tensor<32x8xf32>
  %m0 = "stablehlo.multiply"(%s0, %b0) : (tensor<32x8xf32>, tensor<32x8xf32>) -> tensor<32x8xf32>
  %m1 = "stablehlo.multiply"(%s1, %b1) : (tensor<32x8xf32>, tensor<32x8xf32>) -> tensor<32x8xf32>
  %m3 = "stablehlo.multiply"(%s2, %b3) : (tensor<32x8xf32>, tensor<32x8xf32>) -> tensor<32x8xf32>
  %a0 = "stablehlo.add"(%m0, %m1) : (tensor<32x8xf32>, tensor<32x8xf32>) -> tensor<32x8xf32>
  %a1 = "stablehlo.add"(%a0, %m3) : (tensor<32x8xf32>, tensor<32x8xf32>) -> tensor<32x8xf32>
  %y = "stablehlo.add"(%a1, %bb) : (tensor<32x8xf32>, tensor<32x8xf32>) -> tensor<32x8xf32>
  %ys = mesh.shard %y to %rows : tensor<32x8xf32>
  return %ys : tensor<32x8xf32>
}
