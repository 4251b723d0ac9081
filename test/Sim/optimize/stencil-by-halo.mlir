// Slices, pads and elementwise ops of a split dimension that give back a
// tensor of its size (a finite difference x[1:] - x[:-1] padded back, a
// second difference, the same in stablehlo) partition to a collective that
// gathers the dimension, the ops, and one that splits it again.  Row i of
// the result reads rows a fixed distance from i, so the optimizer has each
// device compute its own rows from its piece and a halo of its neighbours'
// rows: one mesh.update_halo, the ops on pieces, and the padding value put
// on the rows each pad adds (a table read at the device's index).  A
// padding value that may differ between devices keeps the collectives.
// A value read at several distances (a pad read by three slices, as a
// causal filter reads it) is computed at each.  The rows may also end in
// an hlo reduce whose partial results an all_reduce adds up over the same
// axis (a total variation, a product of shifted columns summed): each
// device reduces its own rows, those past the end reading as the init.
// (Partition now keeps those two split through their hlo slices, CROP
// below; the optimizer meets them as partition wrote them before, in
// Inputs/.)  Every function is compared with the original.
// RUN: mesh-opt --allow-unregistered-dialect --sharding-propagation --mesh-partition %s -o %t.part.mlir
// RUN: mesh-opt --allow-unregistered-dialect --mesh-optimize-collectives %t.part.mlir -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir -f diff_rows --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir -f diff_linalg --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir -f second_difference --compare-with %s -q --seed 3 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir -f diff_1d --compare-with %s -q --seed 4 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir -f fill_per_device --compare-with %s -q --seed 5 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f hlo_diff --compare-with %s -q --seed 6 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir -f causal_filter --compare-with %s -q --seed 7 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f hlo_second_difference --compare-with %s -q --seed 8 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f hlo_total_variation --compare-with %s -q --seed 9 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f hlo_shifted_product --compare-with %s -q --seed 10 | FileCheck %s --check-prefix=MATCH
// RUN: FileCheck %s --check-prefix=CROP < %t.mlir
// RUN: mesh-opt --allow-unregistered-dialect --mesh-optimize-collectives %S/Inputs/stencil-by-halo-partitioned.mlir -o %t.before.mlir
// RUN: FileCheck %s --check-prefix=BEFORE < %t.before.mlir
// RUN: mesh-run --allow-unregistered-dialect %t.before.mlir -f hlo_total_variation --compare-with %s -q --seed 11 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run --allow-unregistered-dialect %t.before.mlir -f hlo_shifted_product --compare-with %s -q --seed 12 | FileCheck %s --check-prefix=MATCH
// MATCH: match

mesh.mesh @m4(shape = 4)
mesh.mesh @m24(shape = 2x4)

// 48 rows in pieces of 12: each device reads the first row of the next
// device's piece (64 bytes where the two all_to_alls received 1,152), and
// the last device's last row is padding.
// CHECK-LABEL: func.func @diff_rows(
// CHECK-NOT: mesh.all_to_all
// CHECK: %[[HALO:.*]] = mesh.update_halo %arg0 into %{{.*}} on @m4 split_axes = {{\[\[0\]\]}} destination_halo_sizes = [0, 1] : tensor<12x16xf32> -> tensor<13x16xf32>
// CHECK: %[[B:.*]] = tensor.extract_slice %[[HALO]][0, 0] [12, 16] [1, 1] : tensor<13x16xf32> to tensor<12x16xf32>
// CHECK: %[[A:.*]] = tensor.extract_slice %[[HALO]][1, 0] [12, 16] [1, 1] : tensor<13x16xf32> to tensor<12x16xf32>
// CHECK: %[[D:.*]] = arith.subf %[[A]], %[[B]] : tensor<12x16xf32>
// CHECK: %[[PAD:.*]] = tensor.splat %{{.*}} : tensor<12x16xf32>
// CHECK: %[[ME:.*]] = mesh.process_multi_index on @m4 axes = [0] : index
// CHECK: %[[KEPT:.*]] = arith.constant dense<[12, 12, 12, 11]> : tensor<4xindex>
// CHECK: %[[N:.*]] = tensor.extract %[[KEPT]][%[[ME]]] : tensor<4xindex>
// CHECK: %[[ROWS:.*]] = tensor.extract_slice %[[D]][0, 0] [%[[N]], 16] [1, 1] : tensor<12x16xf32> to tensor<?x16xf32>
// CHECK: %[[R:.*]] = tensor.insert_slice %[[ROWS]] into %[[PAD]][0, 0] [%[[N]], 16] [1, 1] : tensor<?x16xf32> into tensor<12x16xf32>
// CHECK-NOT: mesh.all_to_all
// CHECK: return %[[R]] : tensor<12x16xf32>
func.func @diff_rows(%x: tensor<48x16xf32>) -> tensor<48x16xf32> {
  %rows = mesh.sharding @m4 split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows annotate_for_users : tensor<48x16xf32>
  %a = tensor.extract_slice %xs[1, 0] [47, 16] [1, 1] : tensor<48x16xf32> to tensor<47x16xf32>
  %b = tensor.extract_slice %xs[0, 0] [47, 16] [1, 1] : tensor<48x16xf32> to tensor<47x16xf32>
  %d = arith.subf %a, %b : tensor<47x16xf32>
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %d low[0, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<47x16xf32> to tensor<48x16xf32>
  %r = mesh.shard %p to %rows : tensor<48x16xf32>
  return %r : tensor<48x16xf32>
}

// The same with a linalg op: its init is made again at the piece's size.
// CHECK-LABEL: func.func @diff_linalg(
// CHECK-NOT: mesh.all_to_all
// CHECK: mesh.update_halo %arg0 into %{{.*}} destination_halo_sizes = [0, 1] : tensor<12x16xf32> -> tensor<13x16xf32>
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<12x16xf32>
// CHECK: linalg.sub ins(%{{.*}}, %{{.*}} : tensor<12x16xf32>, tensor<12x16xf32>) outs(%[[INIT]] : tensor<12x16xf32>) -> tensor<12x16xf32>
// CHECK-NOT: mesh.all_to_all
// CHECK: return
func.func @diff_linalg(%x: tensor<48x16xf32>) -> tensor<48x16xf32> {
  %rows = mesh.sharding @m4 split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows annotate_for_users : tensor<48x16xf32>
  %a = tensor.extract_slice %xs[1, 0] [47, 16] [1, 1] : tensor<48x16xf32> to tensor<47x16xf32>
  %b = tensor.extract_slice %xs[0, 0] [47, 16] [1, 1] : tensor<48x16xf32> to tensor<47x16xf32>
  %e = tensor.empty() : tensor<47x16xf32>
  %d = linalg.sub ins(%a, %b : tensor<47x16xf32>, tensor<47x16xf32>) outs(%e : tensor<47x16xf32>) -> tensor<47x16xf32>
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %d low[0, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<47x16xf32> to tensor<48x16xf32>
  %r = mesh.shard %p to %rows : tensor<48x16xf32>
  return %r : tensor<48x16xf32>
}

// x[2:] - 2 x[1:-1] + x[:-2], padded by a row on each side: a row of each
// neighbour (128 bytes), the splat made again at the piece's size, the
// first device's first row and the last device's last row padding.
// CHECK-LABEL: func.func @second_difference(
// CHECK-NOT: mesh.all_to_all
// CHECK: %[[HALO:.*]] = mesh.update_halo %arg0 into %{{.*}} destination_halo_sizes = [1, 1] : tensor<12x16xf32> -> tensor<14x16xf32>
// CHECK: %[[C:.*]] = tensor.extract_slice %[[HALO]][0, 0] [12, 16] [1, 1]
// CHECK: %[[B:.*]] = tensor.extract_slice %[[HALO]][1, 0] [12, 16] [1, 1]
// CHECK: %[[TWO:.*]] = arith.constant dense<2.000000e+00> : tensor<12x16xf32>
// CHECK: %[[B2:.*]] = arith.mulf %[[B]], %[[TWO]] : tensor<12x16xf32>
// CHECK: %[[A:.*]] = tensor.extract_slice %[[HALO]][2, 0] [12, 16] [1, 1]
// CHECK: %[[AB:.*]] = arith.subf %[[A]], %[[B2]] : tensor<12x16xf32>
// CHECK: %[[D:.*]] = arith.addf %[[AB]], %[[C]] : tensor<12x16xf32>
// CHECK: arith.constant dense<[1, 0, 0, 0]> : tensor<4xindex>
// CHECK: arith.constant dense<[11, 12, 12, 11]> : tensor<4xindex>
// CHECK: tensor.extract_slice %[[D]][%{{.*}}, 0] [%{{.*}}, 16] [1, 1] : tensor<12x16xf32> to tensor<?x16xf32>
// CHECK: tensor.insert_slice
// CHECK-NOT: mesh.all_to_all
// CHECK: return
func.func @second_difference(%x: tensor<48x16xf32>) -> tensor<48x16xf32> {
  %rows = mesh.sharding @m4 split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows annotate_for_users : tensor<48x16xf32>
  %a = tensor.extract_slice %xs[2, 0] [46, 16] [1, 1] : tensor<48x16xf32> to tensor<46x16xf32>
  %b = tensor.extract_slice %xs[1, 0] [46, 16] [1, 1] : tensor<48x16xf32> to tensor<46x16xf32>
  %c = tensor.extract_slice %xs[0, 0] [46, 16] [1, 1] : tensor<48x16xf32> to tensor<46x16xf32>
  %two = arith.constant dense<2.0> : tensor<46x16xf32>
  %b2 = arith.mulf %b, %two : tensor<46x16xf32>
  %ab = arith.subf %a, %b2 : tensor<46x16xf32>
  %d = arith.addf %ab, %c : tensor<46x16xf32>
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %d low[1, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<46x16xf32> to tensor<48x16xf32>
  %r = mesh.shard %p to %rows : tensor<48x16xf32>
  return %r : tensor<48x16xf32>
}

// A vector has no other dimension to move the split to: partition gathers
// it whole and slices it back (144 bytes); one element of the next piece
// now (4).
// CHECK-LABEL: func.func @diff_1d(
// CHECK-NOT: mesh.all_gather
// CHECK: mesh.update_halo %arg0 into %{{.*}} on @m4 split_axes = {{\[\[0\]\]}} destination_halo_sizes = [0, 1] : tensor<12xf32> -> tensor<13xf32>
// CHECK-NOT: mesh.all_slice
// CHECK: return
func.func @diff_1d(%x: tensor<48xf32>) -> tensor<48xf32> {
  %rows = mesh.sharding @m4 split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows annotate_for_users : tensor<48xf32>
  %a = tensor.extract_slice %xs[1] [47] [1] : tensor<48xf32> to tensor<47xf32>
  %b = tensor.extract_slice %xs[0] [47] [1] : tensor<48xf32> to tensor<47xf32>
  %d = arith.subf %a, %b : tensor<47xf32>
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %d low[0] high[1] {
  ^bb0(%i: index):
    tensor.yield %zero : f32
  } : tensor<47xf32> to tensor<48xf32>
  %r = mesh.shard %p to %rows : tensor<48xf32>
  return %r : tensor<48xf32>
}

// The padding value is an argument each device may be handed differently:
// between the two all_to_alls each device's piece holds rows others
// padded, so the collectives stay.
// CHECK-LABEL: func.func @fill_per_device(
// CHECK-NOT: mesh.update_halo
// CHECK: mesh.all_to_all %arg0
// CHECK: tensor.pad
// CHECK: mesh.all_to_all
func.func @fill_per_device(%x: tensor<48x16xf32>, %f: f32) -> tensor<48x16xf32> {
  %rows = mesh.sharding @m4 split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows annotate_for_users : tensor<48x16xf32>
  %a = tensor.extract_slice %xs[1, 0] [47, 16] [1, 1] : tensor<48x16xf32> to tensor<47x16xf32>
  %b = tensor.extract_slice %xs[0, 0] [47, 16] [1, 1] : tensor<48x16xf32> to tensor<47x16xf32>
  %d = arith.subf %a, %b : tensor<47x16xf32>
  %p = tensor.pad %d low[0, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %f : f32
  } : tensor<47x16xf32> to tensor<48x16xf32>
  %r = mesh.shard %p to %rows : tensor<48x16xf32>
  return %r : tensor<48x16xf32>
}

// As JAX writes `jnp.pad(x[:, 1:] - x[:, :-1], ((0, 0), (0, 1), (0, 0)))`,
// the batch over the first mesh axis and the sequence over the second: the
// halo moves along the second only (XLA's one collective-permute).
// CHECK-LABEL: func.func @hlo_diff(
// CHECK-NOT: mesh.all_to_all
// CHECK: %[[HALO:.*]] = mesh.update_halo %arg0 into %{{.*}} on @m24 split_axes = {{\[\[\], \[1\]\]}} destination_halo_sizes = [0, 1] : tensor<1x12x16xf32> -> tensor<1x13x16xf32>
// CHECK: "stablehlo.subtract"(%{{.*}}, %{{.*}}) : (tensor<1x12x16xf32>, tensor<1x12x16xf32>) -> tensor<1x12x16xf32>
// CHECK: mesh.process_multi_index on @m24 axes = [1] : index
// CHECK-NOT: mesh.all_to_all
// CHECK: return
func.func @hlo_diff(%x: tensor<2x48x16xf32>) -> tensor<2x48x16xf32> {
  %s = mesh.sharding @m24 split_axes = [[0], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %s annotate_for_users : tensor<2x48x16xf32>
  %a = "stablehlo.slice"(%xs) <{limit_indices = array<i64: 2, 48, 16>, start_indices = array<i64: 0, 1, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<2x48x16xf32>) -> tensor<2x47x16xf32>
  %b = "stablehlo.slice"(%xs) <{limit_indices = array<i64: 2, 47, 16>, start_indices = array<i64: 0, 0, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<2x48x16xf32>) -> tensor<2x47x16xf32>
  %d = "stablehlo.subtract"(%a, %b) : (tensor<2x47x16xf32>, tensor<2x47x16xf32>) -> tensor<2x47x16xf32>
  %c = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %p = "stablehlo.pad"(%d, %c) <{edge_padding_high = array<i64: 0, 1, 0>, edge_padding_low = array<i64: 0, 0, 0>, interior_padding = array<i64: 0, 0, 0>}> : (tensor<2x47x16xf32>, tensor<f32>) -> tensor<2x48x16xf32>
  %r = mesh.shard %p to %s : tensor<2x48x16xf32>
  return %r : tensor<2x48x16xf32>
}

// A causal 3-tap filter: the rows padded by two zero rows in front, then
// read at three offsets and weighed.  The pad is read at three distances:
// each device pads (its first device only) the rows it reads at each,
// from its piece and the last two rows of the previous one (128 bytes).
// CHECK-LABEL: func.func @causal_filter(
// CHECK-NOT: mesh.all_to_all
// CHECK: %[[HALO:.*]] = mesh.update_halo %arg0 into %{{.*}} destination_halo_sizes = [2, 0] : tensor<12x16xf32> -> tensor<14x16xf32>
// CHECK-DAG: arith.constant dense<[2, 0, 0, 0]> : tensor<4xindex>
// CHECK-DAG: arith.constant dense<[1, 0, 0, 0]> : tensor<4xindex>
// CHECK-DAG: arith.constant dense<[10, 12, 12, 12]> : tensor<4xindex>
// CHECK-DAG: arith.constant dense<[11, 12, 12, 12]> : tensor<4xindex>
// CHECK-DAG: arith.constant dense<5.000000e-01> : tensor<12x16xf32>
// CHECK-NOT: mesh.all_to_all
// CHECK: return
func.func @causal_filter(%x: tensor<48x16xf32>) -> tensor<48x16xf32> {
  %rows = mesh.sharding @m4 split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows annotate_for_users : tensor<48x16xf32>
  %zero = arith.constant 0.0 : f32
  %w = tensor.pad %xs low[2, 0] high[0, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<48x16xf32> to tensor<50x16xf32>
  %a = tensor.extract_slice %w[2, 0] [48, 16] [1, 1] : tensor<50x16xf32> to tensor<48x16xf32>
  %b = tensor.extract_slice %w[1, 0] [48, 16] [1, 1] : tensor<50x16xf32> to tensor<48x16xf32>
  %c = tensor.extract_slice %w[0, 0] [48, 16] [1, 1] : tensor<50x16xf32> to tensor<48x16xf32>
  %half = arith.constant dense<0.5> : tensor<48x16xf32>
  %fifth = arith.constant dense<0.2> : tensor<48x16xf32>
  %ah = arith.mulf %a, %half : tensor<48x16xf32>
  %bh = arith.mulf %b, %fifth : tensor<48x16xf32>
  %ch = arith.mulf %c, %fifth : tensor<48x16xf32>
  %ab = arith.addf %ah, %bh : tensor<48x16xf32>
  %y = arith.addf %ab, %ch : tensor<48x16xf32>
  %r = mesh.shard %y to %rows : tensor<48x16xf32>
  return %r : tensor<48x16xf32>
}

// As JAX writes `jnp.pad(x[:, 2:] - 2.0 * x[:, 1:-1] + x[:, :-2], ...)`:
// the scalar 2.0 broadcast to the slices' shape is broadcast again to the
// piece's; a row of each neighbour along the second mesh axis (XLA moves
// 512 bytes in three collectives for the same program).
// CHECK-LABEL: func.func @hlo_second_difference(
// CHECK-NOT: mesh.all_to_all
// CHECK: mesh.update_halo %arg0 into %{{.*}} on @m24 split_axes = {{\[\[\], \[1\]\]}} destination_halo_sizes = [1, 1] : tensor<1x12x16xf32> -> tensor<1x14x16xf32>
// CHECK: "stablehlo.broadcast_in_dim"(%{{.*}}) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<1x12x16xf32>
// CHECK-NOT: mesh.all_to_all
// CHECK: return
func.func @hlo_second_difference(%x: tensor<2x48x16xf32>) -> tensor<2x48x16xf32> {
  %s = mesh.sharding @m24 split_axes = [[0], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %s annotate_for_users : tensor<2x48x16xf32>
  %a = "stablehlo.slice"(%xs) <{limit_indices = array<i64: 2, 48, 16>, start_indices = array<i64: 0, 2, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<2x48x16xf32>) -> tensor<2x46x16xf32>
  %b = "stablehlo.slice"(%xs) <{limit_indices = array<i64: 2, 47, 16>, start_indices = array<i64: 0, 1, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<2x48x16xf32>) -> tensor<2x46x16xf32>
  %two = "stablehlo.constant"() <{value = dense<2.0> : tensor<f32>}> : () -> tensor<f32>
  %twos = "stablehlo.broadcast_in_dim"(%two) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x46x16xf32>
  %b2 = "stablehlo.multiply"(%twos, %b) : (tensor<2x46x16xf32>, tensor<2x46x16xf32>) -> tensor<2x46x16xf32>
  %ab = "stablehlo.subtract"(%a, %b2) : (tensor<2x46x16xf32>, tensor<2x46x16xf32>) -> tensor<2x46x16xf32>
  %c = "stablehlo.slice"(%xs) <{limit_indices = array<i64: 2, 46, 16>, start_indices = array<i64: 0, 0, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<2x48x16xf32>) -> tensor<2x46x16xf32>
  %d = "stablehlo.add"(%ab, %c) : (tensor<2x46x16xf32>, tensor<2x46x16xf32>) -> tensor<2x46x16xf32>
  %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %p = "stablehlo.pad"(%d, %z) <{edge_padding_high = array<i64: 0, 1, 0>, edge_padding_low = array<i64: 0, 1, 0>, interior_padding = array<i64: 0, 0, 0>}> : (tensor<2x46x16xf32>, tensor<f32>) -> tensor<2x48x16xf32>
  %r = mesh.shard %p to %s : tensor<2x48x16xf32>
  return %r : tensor<2x48x16xf32>
}

// `jnp.sum(jnp.abs(x[:, 1:] - x[:, :-1]))`, the sequence over the second
// mesh axis: each device sums the differences of its own rows (its last
// device's last row is the init, 0), one row from the next device, and the
// all_reduce adds them up (128 + 8 bytes; the all_to_all took 1,152).
// BEFORE-LABEL: func.func @hlo_total_variation(
// BEFORE-NOT: mesh.all_to_all
// BEFORE: mesh.update_halo %arg0 into %{{.*}} on @m24 split_axes = {{\[\[\], \[1\]\]}} destination_halo_sizes = [0, 1] : tensor<1x12x16xf32> -> tensor<1x13x16xf32>
// BEFORE: "stablehlo.abs"(%{{.*}}) : (tensor<1x12x16xf32>) -> tensor<1x12x16xf32>
// BEFORE: arith.constant dense<[12, 12, 12, 11]> : tensor<4xindex>
// BEFORE: %[[MINE:.*]] = "stablehlo.reduce"(%{{.*}}, %{{.*}}) <{dimensions = array<i64: 0, 1, 2>}>
// BEFORE: mesh.all_reduce %[[MINE]] on @m24 mesh_axes = [0, 1] : tensor<f32> -> tensor<f32>
// BEFORE-NOT: mesh.all_to_all
// BEFORE: return
func.func @hlo_total_variation(%x: tensor<2x48x16xf32>) -> tensor<f32> {
  %s = mesh.sharding @m24 split_axes = [[0], [1]] : !mesh.sharding
  %whole = mesh.sharding @m24 split_axes = [] : !mesh.sharding
  %xs = mesh.shard %x to %s annotate_for_users : tensor<2x48x16xf32>
  %a = "stablehlo.slice"(%xs) <{limit_indices = array<i64: 2, 48, 16>, start_indices = array<i64: 0, 1, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<2x48x16xf32>) -> tensor<2x47x16xf32>
  %b = "stablehlo.slice"(%xs) <{limit_indices = array<i64: 2, 47, 16>, start_indices = array<i64: 0, 0, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<2x48x16xf32>) -> tensor<2x47x16xf32>
  %d = "stablehlo.subtract"(%a, %b) : (tensor<2x47x16xf32>, tensor<2x47x16xf32>) -> tensor<2x47x16xf32>
  %m = "stablehlo.abs"(%d) : (tensor<2x47x16xf32>) -> tensor<2x47x16xf32>
  %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %t = "stablehlo.reduce"(%m, %z) <{dimensions = array<i64: 0, 1, 2>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %r = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%r) : (tensor<f32>) -> ()
  }) : (tensor<2x47x16xf32>, tensor<f32>) -> tensor<f32>
  %ts = mesh.shard %t to %whole : tensor<f32>
  return %ts : tensor<f32>
}

// `jnp.sum(a[:, :-1] * b[:, 1:])` with the columns over 4 devices: each
// device reads the first column of the next device's piece of b only
// (32 bytes, and the all_reduce's 8: XLA's plan), where the two
// all_to_alls took 576.
// BEFORE-LABEL: func.func @hlo_shifted_product(
// BEFORE-NOT: mesh.all_to_all
// BEFORE: mesh.update_halo %arg1 into %{{.*}} on @m4 split_axes = {{\[\[\], \[0\]\]}} destination_halo_sizes = [0, 1] : tensor<8x12xf32> -> tensor<8x13xf32>
// BEFORE: "stablehlo.multiply"(%arg0, %{{.*}}) : (tensor<8x12xf32>, tensor<8x12xf32>) -> tensor<8x12xf32>
// BEFORE: mesh.all_reduce %{{.*}} on @m4 mesh_axes = [0] : tensor<f32> -> tensor<f32>
// BEFORE-NOT: mesh.all_to_all
// BEFORE: return
// Partition itself now keeps the last two functions split: their hlo
// slices are crops, whose 47 outputs the first device holds one fewer of.
// The total variation moves one row of x (128 bytes), the shifted product
// one column of a (32), each with the all_reduce's 8.
// CROP-LABEL: func.func @hlo_total_variation(
// CROP: mesh.update_halo %arg0 into %{{.*}} on @m24 split_axes = {{\[\[0\], \[1\]\]}} destination_halo_sizes = [0, 0, 1, 0] : tensor<1x12x16xf32> -> tensor<1x13x16xf32>
// CROP: "stablehlo.subtract"(%{{.*}}, %{{.*}}) : (tensor<1x?x16xf32>, tensor<1x?x16xf32>) -> tensor<1x?x16xf32>
// CROP: mesh.all_reduce %{{.*}} on @m24 mesh_axes = [0, 1] : tensor<f32> -> tensor<f32>
// CROP-NOT: mesh.all_to_all
// CROP: return
// CROP-LABEL: func.func @hlo_shifted_product(
// CROP: mesh.update_halo %arg0 into %{{.*}} on @m4 split_axes = {{\[\[\], \[0\]\]}} destination_halo_sizes = [1, 0] : tensor<8x12xf32> -> tensor<8x13xf32>
// CROP: arith.constant dense<[11, 12, 12, 12]> : tensor<4xindex>
// CROP: arith.constant dense<[1, 0, 0, 0]> : tensor<4xindex>
// CROP: "stablehlo.multiply"(%{{.*}}, %{{.*}}) : (tensor<8x?xf32>, tensor<8x?xf32>) -> tensor<8x?xf32>
// CROP: mesh.all_reduce %{{.*}} on @m4 mesh_axes = [0] : tensor<f32> -> tensor<f32>
// CROP-NOT: mesh.all_to_all
// CROP: return
func.func @hlo_shifted_product(%a: tensor<8x48xf32>, %b: tensor<8x48xf32>) -> tensor<f32> {
  %cols = mesh.sharding @m4 split_axes = [[], [0]] : !mesh.sharding
  %whole = mesh.sharding @m4 split_axes = [] : !mesh.sharding
  %as = mesh.shard %a to %cols annotate_for_users : tensor<8x48xf32>
  %bs = mesh.shard %b to %cols annotate_for_users : tensor<8x48xf32>
  %x = "stablehlo.slice"(%as) <{limit_indices = array<i64: 8, 47>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x48xf32>) -> tensor<8x47xf32>
  %y = "stablehlo.slice"(%bs) <{limit_indices = array<i64: 8, 48>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<8x48xf32>) -> tensor<8x47xf32>
  %p = "stablehlo.multiply"(%x, %y) : (tensor<8x47xf32>, tensor<8x47xf32>) -> tensor<8x47xf32>
  %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %t = "stablehlo.reduce"(%p, %z) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%u: tensor<f32>, %v: tensor<f32>):
    %r = "stablehlo.add"(%u, %v) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%r) : (tensor<f32>) -> ()
  }) : (tensor<8x47xf32>, tensor<f32>) -> tensor<f32>
  %ts = mesh.shard %t to %whole : tensor<f32>
  return %ts : tensor<f32>
}
