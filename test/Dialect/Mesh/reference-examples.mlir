// The examples of the dialect's reference page, written as the page writes
// them (spacing and line breaks included). The three the page gets wrong
// are in reference-page-errata.mlir.
// RUN: mesh-opt %s | FileCheck %s
// RUN: mesh-opt %s | mesh-opt | FileCheck %s

// CHECK-LABEL: module {
// CHECK-NEXT: mesh.mesh @mesh0(shape = 2x2)
// CHECK-NEXT: mesh.mesh @mesh3d(shape = 4x8x12)
// CHECK-NEXT: mesh.mesh @mesh1(shape = 4x?)
// CHECK-NEXT: mesh.mesh @mesh2(shape = ?x4)
// CHECK-NEXT: mesh.mesh @mesh3(shape = ?x?)
// CHECK-NEXT: mesh.mesh @mesh_1d3(shape = 3)
// CHECK-NEXT: mesh.mesh @mesh_2x4(shape = 2x4)
// CHECK-NEXT: mesh.mesh @mesh_4x4(shape = 4x4)
// CHECK-NEXT: mesh.mesh @mesh_2x2x4(shape = 2x2x4)
// CHECK-NEXT: mesh.mesh @mesh1d_4(shape = 4)
mesh.mesh @mesh0(shape = 2x2)
// A device mesh with 3 axes, the total device number is 4 * 8 * 12
mesh.mesh @mesh3d(shape = 4x8x12)
mesh.mesh @mesh1(shape = 4x?)
mesh.mesh @mesh2(shape = ?x4)
mesh.mesh @mesh3(shape = ?x?)
mesh.mesh @mesh_1d3(shape = 3)
mesh.mesh @mesh_2x4(shape = 2x4)
mesh.mesh @mesh_4x4(shape = 4x4)
mesh.mesh @mesh_2x2x4(shape = 2x2x4)
mesh.mesh @mesh1d_4(shape = 4)

// CHECK-LABEL: func.func @all_gather(%arg0: tensor<2x2xi8>) -> tensor<2x4xi8> {
// CHECK-NEXT: %0 = mesh.all_gather %arg0 on @mesh0 mesh_axes = [1] gather_axis = 1 : tensor<2x2xi8> -> tensor<2x4xi8>
// CHECK-NEXT: return %0 : tensor<2x4xi8>
func.func @all_gather(%0: tensor<2x2xi8>) -> tensor<2x4xi8> {
%1 = mesh.all_gather %0 on @mesh0 mesh_axes = [1] gather_axis = 1
  : tensor<2x2xi8> -> tensor<2x4xi8>
  return %1 : tensor<2x4xi8>
}

// CHECK-LABEL: func.func @all_reduce(%arg0: tensor<3x4xf32>) -> tensor<3x4xf64> {
// CHECK-NEXT: %0 = mesh.all_reduce %arg0 on @mesh0 mesh_axes = [1, 0] reduction = <max> : tensor<3x4xf32> -> tensor<3x4xf64>
// CHECK-NEXT: return %0 : tensor<3x4xf64>
func.func @all_reduce(%0: tensor<3x4xf32>) -> tensor<3x4xf64> {
%1 = mesh.all_reduce %0 on @mesh0 mesh_axes = [1, 0] reduction = <max>
  : tensor<3x4xf32> -> tensor<3x4xf64>
  return %1 : tensor<3x4xf64>
}

// CHECK-LABEL: func.func @all_slice(%arg0: tensor<2x4xi8>) -> tensor<2x2xi8> {
// CHECK-NEXT: %0 = mesh.all_slice %arg0 on @mesh0 mesh_axes = [1] slice_axis = 1 : tensor<2x4xi8> -> tensor<2x2xi8>
// CHECK-NEXT: return %0 : tensor<2x2xi8>
func.func @all_slice(%0: tensor<2x4xi8>) -> tensor<2x2xi8> {
%1 = mesh.all_slice %0 on @mesh0 mesh_axes = [1] slice_axis = 1
  : tensor<2x4xi8> -> tensor<2x2xi8>
  return %1 : tensor<2x2xi8>
}

// CHECK-LABEL: func.func @all_to_all(%arg0: tensor<3x2xi8>) -> tensor<3x2xi8> {
// CHECK-NEXT: %0 = mesh.all_to_all %arg0 on @mesh_1d3 mesh_axes = [0] split_axis = 0 concat_axis = 0 : tensor<3x2xi8> -> tensor<3x2xi8>
// CHECK-NEXT: return %0 : tensor<3x2xi8>
func.func @all_to_all(%0: tensor<3x2xi8>) -> tensor<3x2xi8> {
%1 = mesh.all_to_all %0 on @mesh_1d3 mesh_axes = [0]
  split_axis = 0 concat_axis = 0
  : tensor<3x2xi8> -> tensor<3x2xi8>
  return %1 : tensor<3x2xi8>
}

// CHECK-LABEL: func.func @broadcast(%arg0: tensor<2xi8>) -> tensor<2xi8> {
// CHECK-NEXT: %0 = mesh.broadcast %arg0 on @mesh0 mesh_axes = [0] root = [0] : (tensor<2xi8>) -> tensor<2xi8>
// CHECK-NEXT: return %0 : tensor<2xi8>
func.func @broadcast(%0: tensor<2xi8>) -> tensor<2xi8> {
%1 = mesh.broadcast %0 on @mesh0
  mesh_axes = [0]
  root = [0]
  : (tensor<2xi8>) -> tensor<2xi8>
  return %1 : tensor<2xi8>
}

// CHECK-LABEL: func.func @gather(%arg0: tensor<2x2xi8>) -> tensor<2x4xi8> {
// CHECK-NEXT: %0 = mesh.gather %arg0 on @mesh0 mesh_axes = [1] gather_axis = 1 root = [1] : (tensor<2x2xi8>) -> tensor<2x4xi8>
// CHECK-NEXT: return %0 : tensor<2x4xi8>
func.func @gather(%0: tensor<2x2xi8>) -> tensor<2x4xi8> {
%1 = mesh.gather %0 on @mesh0 mesh_axes = [1]
  gather_axis = 1 root = [1]
  : (tensor<2x2xi8>) -> tensor<2x4xi8>
  return %1 : tensor<2x4xi8>
}

// CHECK-LABEL: func.func @process_linear_index() -> index {
// CHECK-NEXT: %0 = mesh.process_linear_index on @mesh3d : index
// CHECK-NEXT: return %0 : index
func.func @process_linear_index() -> index {
%idx = mesh.process_linear_index on @mesh3d : index
  return %idx : index
}
// root = [2, 3] along mesh axes [1, 0] needs a mesh larger than 2x2.

// CHECK-LABEL: func.func @reduce(%arg0: tensor<3x4xf32>) -> tensor<3x4xf64> {
// CHECK-NEXT: %0 = mesh.reduce %arg0 on @mesh_4x4 mesh_axes = [1, 0] reduction = <max> root = [2, 3] : (tensor<3x4xf32>) -> tensor<3x4xf64>
// CHECK-NEXT: return %0 : tensor<3x4xf64>
func.func @reduce(%0: tensor<3x4xf32>) -> tensor<3x4xf64> {
%1 = mesh.reduce %0 on @mesh_4x4 mesh_axes = [1, 0]
  reduction = <max> root = [2, 3]
  : (tensor<3x4xf32>) -> tensor<3x4xf64>
  return %1 : tensor<3x4xf64>
}

// CHECK-LABEL: func.func @scatter(%arg0: tensor<2x2xi8>) -> tensor<1x2xi8> {
// CHECK-NEXT: %0 = mesh.scatter %arg0 on @mesh0 mesh_axes = [0] scatter_axis = 0 root = [1] : (tensor<2x2xi8>) -> tensor<1x2xi8>
// CHECK-NEXT: return %0 : tensor<1x2xi8>
func.func @scatter(%0: tensor<2x2xi8>) -> tensor<1x2xi8> {
%1 = mesh.scatter %0 on @mesh0 mesh_axes = [0]
  scatter_axis = 0
  root = [1]
  : (tensor<2x2xi8>) -> tensor<1x2xi8>
  return %1 : tensor<1x2xi8>
}

// CHECK-LABEL: func.func @only_result_annotated(%arg0: tensor<4x8xf32>) {
// CHECK-NEXT: %0 = mesh.sharding @mesh0 split_axes = {{\[\[}}0]] : !mesh.sharding
// CHECK-NEXT: %1 = mesh.shard %arg0 to %0 : tensor<4x8xf32>
// CHECK-NEXT: return
func.func @only_result_annotated(%arg0 : tensor<4x8xf32>) -> () {
  %sharding = mesh.sharding @mesh0 split_axes = [[0]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %sharding : tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @only_operand_annotated(%arg0: tensor<4x8xf32>) {
// CHECK-NEXT: %0 = mesh.sharding @mesh0 split_axes = {{\[\[}}0]] : !mesh.sharding
// CHECK-NEXT: %1 = mesh.shard %arg0 to %0 annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: return
func.func @only_operand_annotated(%arg0 : tensor<4x8xf32>) -> () {
  %sharding = mesh.sharding @mesh0 split_axes = [[0]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %sharding annotate_for_users : tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @two_operands_annotated(%arg0: tensor<4x8xf32>, %arg1: tensor<16x8xf32>) {
// CHECK-NEXT: %0 = mesh.sharding @mesh0 split_axes = {{\[\[}}0]] : !mesh.sharding
// CHECK-NEXT: %1 = mesh.shard %arg0 to %0 annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %2 = mesh.shard %arg1 to %0 annotate_for_users : tensor<16x8xf32>
// CHECK-NEXT: return
func.func @two_operands_annotated(%arg0 : tensor<4x8xf32>, %arg1 : tensor<16x8xf32>) -> () {
  %sharding = mesh.sharding @mesh0 split_axes = [[0]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %sharding annotate_for_users : tensor<4x8xf32>
  %1 = mesh.shard %arg1 to %sharding annotate_for_users : tensor<16x8xf32>
  return
}
// split_axes = [[2]] needs a mesh of rank 3; the page's "op0"/"op1" are
// stand-ins, so this uses real ops.

// CHECK-LABEL: func.func @both_result_and_multi_operands_annotated(%arg0: tensor<4x8xf32>) {
// CHECK-NEXT: %0 = mesh.sharding @mesh_2x2x4 split_axes = {{\[\[}}0]] : !mesh.sharding
// CHECK-NEXT: %1 = mesh.shard %arg0 to %0 : tensor<4x8xf32>
// CHECK-NEXT: %2 = mesh.sharding @mesh_2x2x4 split_axes = {{\[\[}}1]] : !mesh.sharding
// CHECK-NEXT: %3 = mesh.shard %1 to %2 annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %4 = mesh.sharding @mesh_2x2x4 split_axes = {{\[\[}}2]] : !mesh.sharding
// CHECK-NEXT: %5 = mesh.shard %1 to %4 annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %6 = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT: %7 = linalg.copy ins(%3 : tensor<4x8xf32>) outs(%6 : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %8 = linalg.copy ins(%5 : tensor<4x8xf32>) outs(%6 : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return
func.func @both_result_and_multi_operands_annotated(
    %arg0 : tensor<4x8xf32>) -> () {
  %sharding = mesh.sharding @mesh_2x2x4 split_axes = [[0]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %sharding : tensor<4x8xf32>
  %sharding1 = mesh.sharding @mesh_2x2x4 split_axes = [[1]] : !mesh.sharding
  %1 = mesh.shard %0 to %sharding1 annotate_for_users : tensor<4x8xf32>
  %sharding2 = mesh.sharding @mesh_2x2x4 split_axes = [[2]] : !mesh.sharding
  %2 = mesh.shard %0 to %sharding2 annotate_for_users : tensor<4x8xf32>
  %3 = tensor.empty() : tensor<4x8xf32>
  %4 = linalg.copy ins(%1 : tensor<4x8xf32>) outs(%3 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %5 = linalg.copy ins(%2 : tensor<4x8xf32>) outs(%3 : tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}
// The sharding examples, on the page's meshes (@mesh0 there is 2x2x4).

// CHECK-LABEL: func.func @sharding_examples(%arg0: tensor<4x8xf32>) {
// CHECK-NEXT: %0 = mesh.sharding @mesh_2x2x4 split_axes = {{\[\[}}]] : !mesh.sharding
// CHECK-NEXT: %1 = mesh.sharding @mesh_2x2x4 split_axes = {{\[\[}}0]] : !mesh.sharding
// CHECK-NEXT: %2 = mesh.sharding @mesh_2x2x4 split_axes = {{\[\[}}0]] partial = max [1] : !mesh.sharding
// CHECK-NEXT: %3 = mesh.shard %arg0 to %2 : tensor<4x8xf32>
// CHECK-NEXT: return
func.func @sharding_examples(%arg0 : tensor<4x8xf32>) -> () {
%sharding0 = mesh.sharding @mesh_2x2x4 split_axes = [[]]
%sharding1 = mesh.sharding @mesh_2x2x4 split_axes = [[0]]
%sharding3 = mesh.sharding @mesh_2x2x4 split_axes = [[0]] partial = max[1]
%sharded0 = mesh.shard %arg0 to %sharding3 : tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @halo_sharding(%arg0: tensor<4x8xf32>) {
// CHECK-NEXT: %0 = mesh.sharding @mesh_2x2x4 split_axes = {{\[\[}}0]] halo_sizes = [1, 2] : !mesh.sharding
// CHECK-NEXT: %1 = mesh.shard %arg0 to %0 : tensor<4x8xf32>
// CHECK-NEXT: return
func.func @halo_sharding(%arg0 : tensor<4x8xf32>) -> () {
%halo_sharding = mesh.sharding @mesh_2x2x4 split_axes = [[0]] halo_sizes = [1, 2]
%sharded1 = mesh.shard %arg0 to %halo_sharding : tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @sharded_dims_offsets(%arg0: tensor<4x14xf32>) {
// CHECK-NEXT: %0 = mesh.sharding @mesh1d_4 split_axes = {{\[\[}}], [0]] sharded_dims_offsets = [0, 2, 5, 9, 14] : !mesh.sharding
// CHECK-NEXT: %1 = mesh.shard %arg0 to %0 : tensor<4x14xf32>
// CHECK-NEXT: return
func.func @sharded_dims_offsets(%arg0 : tensor<4x14xf32>) -> () {
%sharding4 = mesh.sharding @mesh1d_4 split_axes = [[], [0]] sharded_dims_offsets = [0, 2, 5, 9, 14]
%sharded2 = mesh.shard %arg0 to %sharding4 : tensor<4x14xf32>
  return
}
// Corrected examples (the page's versions are in reference-page-errata.mlir):
// the shift example lacks its operand,

// CHECK-LABEL: func.func @shift(%arg0: tensor<2xi8>) -> tensor<2xi8> {
// CHECK-NEXT: %0 = mesh.shift %arg0 on @mesh_2x4 mesh_axes = [1] shift_axis = 1 offset = 2 rotate : tensor<2xi8> -> tensor<2xi8>
// CHECK-NEXT: return %0 : tensor<2xi8>
func.func @shift(%0: tensor<2xi8>) -> tensor<2xi8> {
%1 = mesh.shift %0 on @mesh_2x4 mesh_axes = [1]
  shift_axis = 1 offset = 2 rotate
  : tensor<2xi8> -> tensor<2xi8>
  return %1 : tensor<2xi8>
}
// the reduce_scatter example's types disagree with its drawing (2x2 per
// device, scattered over 2 devices),

// CHECK-LABEL: func.func @reduce_scatter(%arg0: tensor<2x2xf32>) -> tensor<1x2xf64> {
// CHECK-NEXT: %0 = mesh.reduce_scatter %arg0 on @mesh0 mesh_axes = [1] reduction = <max> scatter_axis = 0 : tensor<2x2xf32> -> tensor<1x2xf64>
// CHECK-NEXT: return %0 : tensor<1x2xf64>
func.func @reduce_scatter(%0: tensor<2x2xf32>) -> tensor<1x2xf64> {
%1 = mesh.reduce_scatter %0 on @mesh0 mesh_axes = [1]
  reduction = <max> scatter_axis = 0
  : tensor<2x2xf32> -> tensor<1x2xf64>
  return %1 : tensor<1x2xf64>
}
// and the second sharding example repeats `split_axes =` inside its list.

// CHECK-LABEL: func.func @partial_sum(%arg0: tensor<4x8xf32>) {
// CHECK-NEXT: %0 = mesh.sharding @mesh_2x2x4 split_axes = {{\[\[}}0]] partial = sum [1] : !mesh.sharding
// CHECK-NEXT: return
func.func @partial_sum(%arg0 : tensor<4x8xf32>) -> () {
%sharding2 = mesh.sharding @mesh_2x2x4 split_axes = [[0]] partial = sum[1]
  return
}
