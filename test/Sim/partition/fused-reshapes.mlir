// torch-mlir writes a Linear on a 3-D or 4-D input as a collapse_shape of
// the leading dimensions, a 2-D matmul (or a batch_matmul on a broadcast
// weight) and an expand_shape back. A collapsed dimension splits only along
// its first dimension, so a batch and a sequence (or image height) split
// over two mesh axes gather one of them around the layer. Upstream's
// linalg-fuse-elementwise-ops, run first, folds those reshapes into the ops
// (a generic with the leading dimensions as loops of their own), and then
// each dimension keeps its split: nothing moves. The inits it leaves, a
// reshape of an empty or of a fill of one, are made on each device in its
// piece's type, not sliced from a whole one. Both plans simulate equal to
// the original.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.plain.mlir
// RUN: FileCheck %s --check-prefix=PLAIN < %t.plain.mlir
// RUN: mesh-opt --linalg-fuse-elementwise-ops --sharding-propagation --mesh-partition %s -o %t.fused.mlir
// RUN: FileCheck %s --check-prefix=FUSED < %t.fused.mlir
// RUN: mesh-run %t.plain.mlir -f linear --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.fused.mlir -f linear --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.plain.mlir -f pixel_linear --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.fused.mlir -f pixel_linear --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.plain.mlir -f reshaped_inits --compare-with %s -q --seed 3 | FileCheck %s
// RUN: mesh-opt --mesh-partition %s -o %t.part.mlir
// RUN: FileCheck %s --check-prefix=PART < %t.part.mlir
// RUN: mesh-run %t.part.mlir -f kept_layout --compare-with %s -q --seed 4 | FileCheck %s
// CHECK: match

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#last2 = affine_map<(d0, d1) -> (d1)>
#w3 = affine_map<(d0, d1, d2) -> (d1, d2)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
mesh.mesh @mesh(shape = 2x2)

// nn.Linear(16, 32) on (batch 2, sequence 8, 16), batch over axis 0 and
// sequence over axis 1.
// PLAIN-LABEL: func.func @linear(
// PLAIN: mesh.all_gather
// FUSED-LABEL: func.func @linear(
// FUSED-SAME: %arg0: tensor<1x4x16xf32>
// FUSED-NOT: = mesh.
// FUSED: tensor.empty() : tensor<1x4x32xf32>
// FUSED-NOT: = mesh.
// FUSED: return
func.func @linear(%x: tensor<2x8x16xf32>, %w: tensor<16x32xf32>, %b: tensor<32xf32>) -> tensor<2x8x32xf32> {
  %s = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %s annotate_for_users : tensor<2x8x16xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %c = tensor.collapse_shape %xs [[0, 1], [2]] : tensor<2x8x16xf32> into tensor<16x16xf32>
  %e = tensor.empty() : tensor<16x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %m = linalg.matmul ins(%c, %w : tensor<16x16xf32>, tensor<16x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  %a = linalg.generic {indexing_maps = [#id2, #last2, #id2], iterator_types = ["parallel", "parallel"]} ins(%m, %b : tensor<16x32xf32>, tensor<32xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%in: f32, %bi: f32, %out: f32):
    %r = arith.addf %in, %bi : f32
    linalg.yield %r : f32
  } -> tensor<16x32xf32>
  %y = tensor.expand_shape %a [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
  %ys = mesh.shard %y to %s : tensor<2x8x32xf32>
  return %ys : tensor<2x8x32xf32>
}

// A ConvNeXt pointwise layer on NHWC (2, 8, 4, 8): batch and height merged
// into the batch of a batch_matmul on the broadcast weight; batch over axis
// 0, height over axis 1.
// PLAIN-LABEL: func.func @pixel_linear(
// PLAIN: mesh.all_gather
// FUSED-LABEL: func.func @pixel_linear(
// FUSED-SAME: %arg0: tensor<1x4x4x8xf32>
// FUSED-NOT: = mesh.
// FUSED: return
func.func @pixel_linear(%x: tensor<2x8x4x8xf32>, %w: tensor<8x8xf32>) -> tensor<2x8x4x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %s annotate_for_users : tensor<2x8x4x8xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %c = tensor.collapse_shape %xs [[0, 1], [2], [3]] : tensor<2x8x4x8xf32> into tensor<16x4x8xf32>
  %we = tensor.empty() : tensor<16x8x8xf32>
  %wb = linalg.generic {indexing_maps = [#w3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w : tensor<8x8xf32>) outs(%we : tensor<16x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<16x8x8xf32>
  %e = tensor.empty() : tensor<16x4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x4x8xf32>) -> tensor<16x4x8xf32>
  %m = linalg.batch_matmul ins(%c, %wb : tensor<16x4x8xf32>, tensor<16x8x8xf32>) outs(%f : tensor<16x4x8xf32>) -> tensor<16x4x8xf32>
  %y = tensor.expand_shape %m [[0, 1], [2], [3]] output_shape [2, 8, 4, 8] : tensor<16x4x8xf32> into tensor<2x8x4x8xf32>
  %ys = mesh.shard %y to %s : tensor<2x8x4x8xf32>
  return %ys : tensor<2x8x4x8xf32>
}

// Inits written as reshapes, of an empty and of a fill of one (annotated
// split, as propagation annotates them), for ops on rows split over both
// axes: each device makes its own piece of them. The empty also read by
// the last op stays.
// PLAIN-LABEL: func.func @reshaped_inits(
// PLAIN-NOT: = mesh.
// PLAIN-NOT: tensor.expand_shape
// PLAIN: tensor.empty() : tensor<1x4x8xf32>
// PLAIN: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x4x8xf32>)
// PLAIN-NOT: = mesh.
// PLAIN-NOT: tensor.expand_shape
// PLAIN: return
func.func @reshaped_inits(%x: tensor<2x8x8xf32>) -> (tensor<2x8x8xf32>, tensor<16x8xf32>) {
  %s = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %rows = mesh.sharding @mesh split_axes = [[0, 1]] : !mesh.sharding
  %xs = mesh.shard %x to %s annotate_for_users : tensor<2x8x8xf32>
  %one = arith.constant 1.000000e+00 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %es = mesh.shard %e to %rows annotate_for_users : tensor<16x8xf32>
  %f = linalg.fill ins(%one : f32) outs(%es : tensor<16x8xf32>) -> tensor<16x8xf32>
  %fx = tensor.expand_shape %f [[0, 1], [2]] output_shape [2, 8, 8] : tensor<16x8xf32> into tensor<2x8x8xf32>
  %ex = tensor.expand_shape %e [[0, 1], [2]] output_shape [2, 8, 8] : tensor<16x8xf32> into tensor<2x8x8xf32>
  %a = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%xs : tensor<2x8x8xf32>) outs(%fx : tensor<2x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %in, %out : f32
    linalg.yield %r : f32
  } -> tensor<2x8x8xf32>
  %b = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a : tensor<2x8x8xf32>) outs(%ex : tensor<2x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.mulf %in, %in : f32
    linalg.yield %r : f32
  } -> tensor<2x8x8xf32>
  %bs = mesh.shard %b to %s : tensor<2x8x8xf32>
  %c = linalg.fill ins(%one : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %cs = mesh.shard %c to %rows : tensor<16x8xf32>
  return %bs, %cs : tensor<2x8x8xf32>, tensor<16x8xf32>
}

// A fill annotated as produced (split over both axes) that the reshape reads
// and the function also returns: the reshape's piece is made on each
// device, and the annotation stays, so the fill is still returned in its
// pieces (partition alone, on the annotations as written).
// PART-LABEL: func.func @kept_layout(
// PART-SAME: -> (tensor<1x4x8xf32> {{.*}}, tensor<4x8xf32>
// PART-NOT: = mesh.
// PART-NOT: tensor.expand_shape
// PART: return
func.func @kept_layout(%x: tensor<16x8xf32>) -> (tensor<2x8x8xf32>, tensor<16x8xf32>) {
  %s = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %rows = mesh.sharding @mesh split_axes = [[0, 1]] : !mesh.sharding
  %two = arith.constant 2.000000e+00 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %f = linalg.fill ins(%two : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %fs = mesh.shard %f to %rows : tensor<16x8xf32>
  %r = tensor.expand_shape %fs [[0, 1], [2]] output_shape [2, 8, 8] : tensor<16x8xf32> into tensor<2x8x8xf32>
  %rs = mesh.shard %r to %s : tensor<2x8x8xf32>
  return %rs, %f : tensor<2x8x8xf32>, tensor<16x8xf32>
}
