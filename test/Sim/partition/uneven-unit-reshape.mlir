// A tensor.expand_shape or collapse_shape keeps a dimension the mesh does
// not divide split, at the same cut on both sides, where the dimension is
// alone in its group but for unit dimensions: torch-mlir's [6] -> [6, 1]
// inside its NLL loss, or an uneven batch beside the heads a reshape splits
// off the hidden dimension.  Such a dimension was gathered whole.  A group
// reshaped into other sizes still keeps to even pieces.
// Each function is simulated against the unpartitioned program.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir -f expand --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f expand --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f middle --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f grouped --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f heads --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f heads --compare-with %s -q --seed 2 | FileCheck %s
// CHECK: match

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
mesh.mesh @mesh(shape = 4)
mesh.mesh @two(shape = 2)

// IR-LABEL: func.func @expand(
// IR-SAME: tensor<?xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]], sharded_dims_offsets = [0, 1, 2, 4, 6]>}
// IR-NOT: mesh.all_
// IR: tensor.expand_shape %arg0 {{\[\[}}0, 1]] output_shape [%{{.*}}, 1] : tensor<?xf32> into tensor<?x1xf32>
// IR-NOT: mesh.all_
// IR: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<?x1xf32> into tensor<?xf32>
// IR-NEXT: return
func.func @expand(%arg0: tensor<6xf32>) -> tensor<6xf32> {
  %sh = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a = mesh.shard %arg0 to %sh annotate_for_users : tensor<6xf32>
  %x = tensor.expand_shape %a [[0, 1]] output_shape [6, 1] : tensor<6xf32> into tensor<6x1xf32>
  %e = tensor.empty() : tensor<6x1xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<6x1xf32>) outs(%e : tensor<6x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.negf %in : f32
    linalg.yield %s : f32
  } -> tensor<6x1xf32>
  %c = tensor.collapse_shape %r [[0, 1]] : tensor<6x1xf32> into tensor<6xf32>
  %o = mesh.shard %c to %sh : tensor<6xf32>
  return %o : tensor<6xf32>
}

// A unit dimension in the middle, [4, 6] -> [4, 1, 6], the 6 split.
// IR-LABEL: func.func @middle(
// IR-NOT: mesh.all_
// IR: tensor.expand_shape %arg0 {{\[\[}}0], [1, 2]] output_shape [4, 1, %{{.*}}] : tensor<4x?xf32> into tensor<4x1x?xf32>
// IR-NOT: mesh.all_
// IR: return
func.func @middle(%arg0: tensor<4x6xf32>) -> tensor<4x1x6xf32> {
  %sh = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %out = mesh.sharding @mesh split_axes = [[], [], [0]] : !mesh.sharding
  %a = mesh.shard %arg0 to %sh annotate_for_users : tensor<4x6xf32>
  %x = tensor.expand_shape %a [[0], [1, 2]] output_shape [4, 1, 6] : tensor<4x6xf32> into tensor<4x1x6xf32>
  %e = tensor.empty() : tensor<4x1x6xf32>
  %r = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<4x1x6xf32>) outs(%e : tensor<4x1x6xf32>) {
  ^bb0(%in: f32, %o: f32):
    %s = arith.mulf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<4x1x6xf32>
  %res = mesh.shard %r to %out : tensor<4x1x6xf32>
  return %res : tensor<4x1x6xf32>
}

// [6] -> [3, 2] over a mesh of 2: the 3 would be cut 1, 2 and the 6 at 3,
// which are not the same rows.  The reshape reads its operand whole.
// IR-LABEL: func.func @grouped(
// IR: mesh.all_gather %arg0 on @two mesh_axes = [0] gather_axis = 0 : tensor<3xf32> -> tensor<6xf32>
// IR: tensor.expand_shape
func.func @grouped(%arg0: tensor<6xf32>) -> tensor<3x2xf32> {
  %sh = mesh.sharding @two split_axes = [[0]] : !mesh.sharding
  %a = mesh.shard %arg0 to %sh annotate_for_users : tensor<6xf32>
  %x = tensor.expand_shape %a [[0, 1]] output_shape [3, 2] : tensor<6xf32> into tensor<3x2xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<3x2xf32>) outs(%e : tensor<3x2xf32>) {
  ^bb0(%in: f32, %o: f32):
    %s = arith.negf %in : f32
    linalg.yield %s : f32
  } -> tensor<3x2xf32>
  %res = mesh.shard %r to %sh : tensor<3x2xf32>
  return %res : tensor<3x2xf32>
}

// A batch of 6 over 4 devices beside a hidden dimension of 64 reshaped
// into 4 heads of 16 and back: the batch keeps its uneven cut.
// IR-LABEL: func.func @heads(
// IR-NOT: mesh.all_
// IR: tensor.expand_shape %arg0 {{\[\[}}0], [1], [2, 3]] output_shape [%{{.*}}, 16, 4, 16] : tensor<?x16x64xf32> into tensor<?x16x4x16xf32>
// IR-NOT: mesh.all_
// IR: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] : tensor<?x16x4x16xf32> into tensor<?x16x64xf32>
// IR-NEXT: return
func.func @heads(%x: tensor<6x16x64xf32>) -> tensor<6x16x64xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a = mesh.shard %x to %s annotate_for_users : tensor<6x16x64xf32>
  %h = tensor.expand_shape %a [[0], [1], [2, 3]] output_shape [6, 16, 4, 16] : tensor<6x16x64xf32> into tensor<6x16x4x16xf32>
  %e = tensor.empty() : tensor<6x16x4x16xf32>
  %g = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%h : tensor<6x16x4x16xf32>) outs(%e : tensor<6x16x4x16xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<6x16x4x16xf32>
  %c = tensor.collapse_shape %g [[0], [1], [2, 3]] : tensor<6x16x4x16xf32> into tensor<6x16x64xf32>
  %r = mesh.shard %c to %s : tensor<6x16x64xf32>
  return %r : tensor<6x16x64xf32>
}
