// `linalg.softmax` and `tensor.bitcast` have sharding rules.  A softmax
// splits along every dimension but the one it normalizes along, which it
// needs whole (each row's maximum and sum read all of it): rows split stay
// split, columns split move to the rows first (one all_to_all), partial
// sums are reduced first, and uneven rows run as they are.  A bitcast is
// elementwise: each device reinterprets its own piece.  Before, both ops
// were refused next to a split value.  The simulator runs the softmax as
// MLIR's own decomposition computes it.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-opt --mesh-analysis %t.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BYTES
// RUN: mesh-run %t.mlir -f rows --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f along_split --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f of_partial --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f uneven_rows --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f batch_of_3d --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f mixed_types --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f bits --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f bits_of_f16 --compare-with %s -q --seed 2 | FileCheck %s

// CHECK: match

mesh.mesh @mesh(shape = 4)

// IR-LABEL: func.func @rows
// IR-SAME: tensor<2x16xf32>
// IR-NOT: = mesh.
// IR: linalg.softmax dimension(1) ins(%{{.*}} : tensor<2x16xf32>) outs(%{{.*}} : tensor<2x16xf32>) -> tensor<2x16xf32>
// IR-NOT: = mesh.
// IR: return
func.func @rows(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<8x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.softmax dimension(1) ins(%xs : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %rs = mesh.shard %r to %s : tensor<8x16xf32>
  return %rs : tensor<8x16xf32>
}

// Split along the dimension it normalizes: the split moves to the rows,
// and back for the result's annotation.
// IR-LABEL: func.func @along_split
// IR: mesh.all_to_all %{{.*}} on @mesh mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<8x4xf32> -> tensor<2x16xf32>
// IR: linalg.softmax dimension(1) ins(%{{.*}} : tensor<2x16xf32>)
// IR: mesh.all_to_all %{{.*}} on @mesh mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<2x16xf32> -> tensor<8x4xf32>
func.func @along_split(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<8x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.softmax dimension(1) ins(%xs : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %rs = mesh.shard %r to %s : tensor<8x16xf32>
  return %rs : tensor<8x16xf32>
}

// Attention scores from a contraction split over the devices are partial
// sums: reduced before the softmax, whose rows then split.
// IR-LABEL: func.func @of_partial
// IR: linalg.matmul
// IR: mesh.reduce_scatter %{{.*}} on @mesh mesh_axes = [0] scatter_axis = 0 : tensor<8x8xf32> -> tensor<2x8xf32>
// IR: linalg.softmax dimension(1) ins(%{{.*}} : tensor<2x8xf32>)
func.func @of_partial(%q: tensor<8x16xf32>, %k: tensor<16x8xf32>) -> tensor<8x8xf32> {
  %cols = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %qs = mesh.shard %q to %cols : tensor<8x16xf32>
  %ks = mesh.shard %k to %rows : tensor<16x8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %m = linalg.matmul ins(%qs, %ks : tensor<8x16xf32>, tensor<16x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  %r = linalg.softmax dimension(1) ins(%m : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %rs = mesh.shard %r to %rows : tensor<8x8xf32>
  return %rs : tensor<8x8xf32>
}

// 6 rows over 4 devices (1, 1, 2, 2): each device normalizes its own rows.
// IR-LABEL: func.func @uneven_rows
// IR-NOT: mesh.all
// IR: linalg.softmax dimension(1) ins(%{{.*}} : tensor<?x5xf32>) outs(%{{.*}} : tensor<?x5xf32>) -> tensor<?x5xf32>
// IR-NOT: mesh.all
// IR: return
func.func @uneven_rows(%x: tensor<6x5xf32>) -> tensor<6x5xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<6x5xf32>
  %e = tensor.empty() : tensor<6x5xf32>
  %r = linalg.softmax dimension(1) ins(%xs : tensor<6x5xf32>) outs(%e : tensor<6x5xf32>) -> tensor<6x5xf32>
  %rs = mesh.shard %r to %s : tensor<6x5xf32>
  return %rs : tensor<6x5xf32>
}

// Normalized along its middle dimension, split along its first and last.
// IR-LABEL: func.func @batch_of_3d
// IR-NOT: mesh.all
// IR: linalg.softmax dimension(1) ins(%{{.*}} : tensor<1x6x4xf32>)
func.func @batch_of_3d(%x: tensor<2x6x8xf32>) -> tensor<2x6x8xf32> {
  %s = mesh.sharding @mesh2 split_axes = [[0], [], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<2x6x8xf32>
  %e = tensor.empty() : tensor<2x6x8xf32>
  %r = linalg.softmax dimension(1) ins(%xs : tensor<2x6x8xf32>) outs(%e : tensor<2x6x8xf32>) -> tensor<2x6x8xf32>
  %rs = mesh.shard %r to %s : tensor<2x6x8xf32>
  return %rs : tensor<2x6x8xf32>
}
mesh.mesh @mesh2(shape = 2x2)

// A static size on one side and a dynamic one on the other, as the
// verifier allows: one size to the rule, each side typed as its own.
// IR-LABEL: func.func @mixed_types
// IR: linalg.softmax dimension(1) ins(%{{.*}} : tensor<?x4xf32>) outs(%{{.*}} : tensor<2x4xf32>) -> tensor<2x4xf32>
func.func @mixed_types(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<8x4xf32>
  %c = tensor.cast %xs : tensor<8x4xf32> to tensor<?x4xf32>
  %e = tensor.empty() : tensor<8x4xf32>
  %r = linalg.softmax dimension(1) ins(%c : tensor<?x4xf32>) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %rs = mesh.shard %r to %s : tensor<8x4xf32>
  return %rs : tensor<8x4xf32>
}

// IR-LABEL: func.func @bits
// IR-NOT: = mesh.
// IR: tensor.bitcast %{{.*}} : tensor<2x16xf32> to tensor<2x16xi32>
// IR-NOT: = mesh.
// IR: return
func.func @bits(%x: tensor<8x16xf32>) -> tensor<8x16xi32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<8x16xf32>
  %b = tensor.bitcast %xs : tensor<8x16xf32> to tensor<8x16xi32>
  %bs = mesh.shard %b to %s : tensor<8x16xi32>
  return %bs : tensor<8x16xi32>
}

// The bits of f16 products computed on pieces.
// IR-LABEL: func.func @bits_of_f16
// IR: arith.mulf %{{.*}} : tensor<8x1xf16>
// IR: tensor.bitcast %{{.*}} : tensor<8x1xf16> to tensor<8x1xi16>
func.func @bits_of_f16(%x: tensor<8x4xf16>, %y: tensor<8x4xf16>) -> tensor<8x4xi16> {
  %s = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<8x4xf16>
  %p = arith.mulf %xs, %y : tensor<8x4xf16>
  %b = tensor.bitcast %p : tensor<8x4xf16> to tensor<8x4xi16>
  %bs = mesh.shard %b to %s : tensor<8x4xi16>
  return %bs : tensor<8x4xi16>
}

// Bytes a device receives (the busiest one); a softmax is priced at five
// flops an element, as decomposed.
// BYTES-LABEL: @rows on @mesh
// BYTES: max - 0 256 160 0
// BYTES-LABEL: @along_split on @mesh
// BYTES: max all_to_all 2 192
// BYTES-LABEL: @of_partial on @mesh
// BYTES: max reduce_scatter 1 192
// BYTES-LABEL: @uneven_rows on @mesh
// BYTES: max - 0
// BYTES-LABEL: @bits on @mesh
// BYTES: max - 0
