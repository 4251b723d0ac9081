// Every op of the dialect in its custom syntax: parsed, verified and printed.
// RUN: mesh-opt %s | FileCheck %s
// Printing then parsing is a fixed point.
// RUN: mesh-opt %s | mesh-opt | FileCheck %s
// The generic form parses back to the same ops.
// RUN: mesh-opt %s --mlir-print-op-generic | mesh-opt | FileCheck %s

// CHECK-LABEL: module {
// CHECK-NEXT: mesh.mesh @mesh0(shape = 2x2x4)
// CHECK-NEXT: mesh.mesh @mesh1(shape = 4x?)
// CHECK-NEXT: mesh.mesh @mesh2(shape = ?x4)
// CHECK-NEXT: mesh.mesh @mesh3(shape = ?x?)
// CHECK-NEXT: mesh.mesh @mesh4(shape = 3) {note = "attr-dict"}
// CHECK-NEXT: mesh.mesh @"quoted mesh"(shape = 8)
mesh.mesh @mesh0(shape = 2x2x4)
mesh.mesh @mesh1(shape = 4x?)
mesh.mesh @mesh2(shape = ?x4)
mesh.mesh @mesh3(shape = ?x?)
mesh.mesh @mesh4(shape = 3) {note = "attr-dict"}
mesh.mesh @"quoted mesh"(shape = 8)

// CHECK-LABEL: func.func @queries(%arg0: index) -> index {
// CHECK-NEXT: %0:3 = mesh.mesh_shape @mesh0 : index, index, index
// CHECK-NEXT: %1:2 = mesh.mesh_shape @mesh0 axes = [2, 0] : index, index
// CHECK-NEXT: %2:3 = mesh.process_multi_index on @mesh0 : index, index, index
// CHECK-NEXT: %3 = mesh.process_multi_index on @mesh0 axes = [1] : index
// CHECK-NEXT: %4 = mesh.process_linear_index on @mesh1 : index
// CHECK-NEXT: %5 = mesh.sharding @mesh0 split_axes = {{\[\[}}0], [1]] : !mesh.sharding
// CHECK-NEXT: %6:2 = mesh.shard_shape 8x? %5 %arg0 : index, index
// CHECK-NEXT: return %4 : index
func.func @queries(%dev: index) -> index {
  %0:3 = mesh.mesh_shape @mesh0 : index, index, index
  %1:2 = mesh.mesh_shape @mesh0 axes = [2, 0] : index, index
  %2:3 = mesh.process_multi_index on @mesh0 : index, index, index
  %3 = mesh.process_multi_index on @mesh0 axes = [1] : index
  %4 = mesh.process_linear_index on @mesh1 : index
  %s = mesh.sharding @mesh0 split_axes = [[0], [1]] : !mesh.sharding
  %5:2 = mesh.shard_shape 8x? %s %dev : index, index
  return %4 : index
}

// CHECK-LABEL: func.func @shardings(%arg0: tensor<4x8xf32>, %arg1: i64, %arg2: i64) {
// CHECK-NEXT: %0 = mesh.sharding @mesh0 split_axes = {{\[\[}}]] : !mesh.sharding
// CHECK-NEXT: %1 = mesh.sharding @mesh0 split_axes = {{\[\[}}0]] : !mesh.sharding
// CHECK-NEXT: %2 = mesh.sharding @mesh0 split_axes = {{\[\[}}0], [1, 2]] : !mesh.sharding
// CHECK-NEXT: %3 = mesh.sharding @mesh0 split_axes = {{\[\[}}0]] partial = sum [1] : !mesh.sharding
// CHECK-NEXT: %4 = mesh.sharding @mesh0 split_axes = {{\[\[}}0]] partial = max [1, 2] : !mesh.sharding
// CHECK-NEXT: %5 = mesh.sharding @mesh0 split_axes = {{\[\[}}], [2]] partial = bitwise_xor [0] : !mesh.sharding
// CHECK-NEXT: %6 = mesh.sharding @mesh0 split_axes = {{\[\[}}0]] halo_sizes = [1, 2] : !mesh.sharding
// CHECK-NEXT: %7 = mesh.sharding @mesh0 split_axes = {{\[\[}}0], [1]] halo_sizes = [1, %arg1, %arg1, 3] : !mesh.sharding
// CHECK-NEXT: %8 = mesh.sharding @mesh4 split_axes = {{\[\[}}], [0]] sharded_dims_offsets = [0, 2, 5, 8] : !mesh.sharding
// CHECK-NEXT: %9 = mesh.sharding @mesh4 split_axes = {{\[\[}}0]] sharded_dims_offsets = [0, %arg2, %arg2, 4] : !mesh.sharding
// CHECK-NEXT: %10 = mesh.sharding @mesh0 split_axes = {{\[\[}}1]] : !mesh.sharding
// CHECK-NEXT: %11 = mesh.sharding @mesh0 split_axes = {{\[\[}}1]] {tag = 7 : i32} : !mesh.sharding
// CHECK-NEXT: %12 = mesh.shard %arg0 to %1 : tensor<4x8xf32>
// CHECK-NEXT: %13 = mesh.shard %12 to %2 annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: %14 = mesh.shard %arg0 to %1 {origin = "user"} : tensor<4x8xf32>
// CHECK-NEXT: return
func.func @shardings(%t: tensor<4x8xf32>, %h: i64, %o: i64) {
  %0 = mesh.sharding @mesh0 split_axes = [[]] : !mesh.sharding
  %1 = mesh.sharding @mesh0 split_axes = [[0]] : !mesh.sharding
  %2 = mesh.sharding @mesh0 split_axes = [[0], [1, 2]] : !mesh.sharding
  %3 = mesh.sharding @mesh0 split_axes = [[0]] partial = sum [1] : !mesh.sharding
  %4 = mesh.sharding @mesh0 split_axes = [[0]] partial = max[1, 2] : !mesh.sharding
  %5 = mesh.sharding @mesh0 split_axes = [[], [2]] partial = bitwise_xor [0] : !mesh.sharding
  %6 = mesh.sharding @mesh0 split_axes = [[0]] halo_sizes = [1, 2] : !mesh.sharding
  %7 = mesh.sharding @mesh0 split_axes = [[0], [1]] halo_sizes = [1, %h, %h, 3] : !mesh.sharding
  %8 = mesh.sharding @mesh4 split_axes = [[], [0]] sharded_dims_offsets = [0, 2, 5, 8] : !mesh.sharding
  %9 = mesh.sharding @mesh4 split_axes = [[0]] sharded_dims_offsets = [0, %o, %o, 4] : !mesh.sharding
  // The result type may be left out: it is always !mesh.sharding.
  %10 = mesh.sharding @mesh0 split_axes = [[1]]
  %11 = mesh.sharding @mesh0 split_axes = [[1]] {tag = 7 : i32} : !mesh.sharding
  %a = mesh.shard %t to %1 : tensor<4x8xf32>
  %b = mesh.shard %a to %2 annotate_for_users : tensor<4x8xf32>
  %c = mesh.shard %t to %1 {origin = "user"} : tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @collectives(%arg0: tensor<2x2xi8>, %arg1: tensor<3x4xf32>, %arg2: index, %arg3: tensor<4x2xi8>) {
// CHECK-NEXT: %0 = mesh.all_gather %arg0 on @mesh0 mesh_axes = [1] gather_axis = 1 : tensor<2x2xi8> -> tensor<2x4xi8>
// CHECK-NEXT: %1 = mesh.all_gather %arg0 on @mesh0 gather_axis = 0 : tensor<2x2xi8> -> tensor<2x2xi8>
// CHECK-NEXT: %2 = mesh.all_reduce %arg1 on @mesh0 mesh_axes = [1, 0] reduction = <max> : tensor<3x4xf32> -> tensor<3x4xf64>
// CHECK-NEXT: %3 = mesh.all_reduce %arg1 on @mesh0 mesh_axes = [2] : tensor<3x4xf32> -> tensor<3x4xf32>
// CHECK-NEXT: %4 = mesh.all_reduce %arg1 on @mesh0 mesh_axes = [2] reduction = <average> : tensor<3x4xf32> -> tensor<3x4xf32>
// CHECK-NEXT: %5 = mesh.all_slice %arg3 on @mesh0 mesh_axes = [1] slice_axis = 0 : tensor<4x2xi8> -> tensor<2x2xi8>
// CHECK-NEXT: %6 = mesh.all_to_all %arg3 on @mesh0 mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<4x2xi8> -> tensor<2x4xi8>
// CHECK-NEXT: %7 = mesh.broadcast %arg0 on @mesh0 mesh_axes = [0] root = [0] : (tensor<2x2xi8>) -> tensor<2x2xi8>
// CHECK-NEXT: %8 = mesh.broadcast %arg0 on @mesh0 mesh_axes = [0, 2] root = [1, %arg2] : (tensor<2x2xi8>, index) -> tensor<2x2xi8>
// CHECK-NEXT: %9 = mesh.gather %arg0 on @mesh0 mesh_axes = [1] gather_axis = 1 root = [1] : (tensor<2x2xi8>) -> tensor<2x4xi8>
// CHECK-NEXT: %10 = mesh.recv %arg0 on @mesh0 mesh_axes = [2] source = [%arg2] : (tensor<2x2xi8>, index) -> tensor<2x2xi8>
// CHECK-NEXT: %11 = mesh.recv %arg0 on @mesh0 mesh_axes = [2] : (tensor<2x2xi8>) -> tensor<2x2xi8>
// CHECK-NEXT: %12 = mesh.reduce %arg1 on @mesh0 mesh_axes = [1, 0] reduction = <min> root = [1, 1] : (tensor<3x4xf32>) -> tensor<3x4xf64>
// CHECK-NEXT: %13 = mesh.reduce_scatter %arg3 on @mesh0 mesh_axes = [1] reduction = <product> scatter_axis = 0 : tensor<4x2xi8> -> tensor<2x2xi8>
// CHECK-NEXT: %14 = mesh.reduce_scatter %arg3 on @mesh0 mesh_axes = [2] scatter_axis = 0 : tensor<4x2xi8> -> tensor<1x2xi32>
// CHECK-NEXT: %15 = mesh.scatter %arg3 on @mesh0 mesh_axes = [0] scatter_axis = 0 root = [%arg2] : (tensor<4x2xi8>, index) -> tensor<2x2xi8>
// CHECK-NEXT: %16 = mesh.send %arg0 on @mesh0 mesh_axes = [2] destination = [3] : (tensor<2x2xi8>) -> tensor<2x2xi8>
// CHECK-NEXT: %17 = mesh.shift %arg0 on @mesh0 mesh_axes = [2] shift_axis = 2 offset = -1 rotate : tensor<2x2xi8> -> tensor<2x2xi8>
// CHECK-NEXT: %18 = mesh.shift %arg0 on @mesh0 mesh_axes = [1, 2] shift_axis = 1 offset = 2 : tensor<2x2xi8> -> tensor<2x2xi8>
// CHECK-NEXT: return
func.func @collectives(%x: tensor<2x2xi8>, %y: tensor<3x4xf32>, %r: index, %z: tensor<4x2xi8>) {
  %0 = mesh.all_gather %x on @mesh0 mesh_axes = [1] gather_axis = 1 : tensor<2x2xi8> -> tensor<2x4xi8>
  %1 = mesh.all_gather %x on @mesh0 gather_axis = 0 : tensor<2x2xi8> -> tensor<2x2xi8>
  %2 = mesh.all_reduce %y on @mesh0 mesh_axes = [1, 0] reduction = <max> : tensor<3x4xf32> -> tensor<3x4xf64>
  %3 = mesh.all_reduce %y on @mesh0 mesh_axes = [2] reduction = <sum> : tensor<3x4xf32> -> tensor<3x4xf32>
  %4 = mesh.all_reduce %y on @mesh0 mesh_axes = [2] reduction = average : tensor<3x4xf32> -> tensor<3x4xf32>
  %5 = mesh.all_slice %z on @mesh0 mesh_axes = [1] slice_axis = 0 : tensor<4x2xi8> -> tensor<2x2xi8>
  %6 = mesh.all_to_all %z on @mesh0 mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<4x2xi8> -> tensor<2x4xi8>
  %7 = mesh.broadcast %x on @mesh0 mesh_axes = [0] root = [0] : (tensor<2x2xi8>) -> tensor<2x2xi8>
  %8 = mesh.broadcast %x on @mesh0 mesh_axes = [0, 2] root = [1, %r] : (tensor<2x2xi8>, index) -> tensor<2x2xi8>
  %9 = mesh.gather %x on @mesh0 mesh_axes = [1] gather_axis = 1 root = [1] : (tensor<2x2xi8>) -> tensor<2x4xi8>
  %10 = mesh.recv %x on @mesh0 mesh_axes = [2] source = [%r] : (tensor<2x2xi8>, index) -> tensor<2x2xi8>
  %11 = mesh.recv %x on @mesh0 mesh_axes = [2] : (tensor<2x2xi8>) -> tensor<2x2xi8>
  %12 = mesh.reduce %y on @mesh0 mesh_axes = [1, 0] reduction = <min> root = [1, 1] : (tensor<3x4xf32>) -> tensor<3x4xf64>
  %13 = mesh.reduce_scatter %z on @mesh0 mesh_axes = [1] reduction = <product> scatter_axis = 0 : tensor<4x2xi8> -> tensor<2x2xi8>
  %14 = mesh.reduce_scatter %z on @mesh0 mesh_axes = [2] scatter_axis = 0 : tensor<4x2xi8> -> tensor<1x2xi32>
  %15 = mesh.scatter %z on @mesh0 mesh_axes = [0] scatter_axis = 0 root = [%r] : (tensor<4x2xi8>, index) -> tensor<2x2xi8>
  %16 = mesh.send %x on @mesh0 mesh_axes = [2] destination = [3] : (tensor<2x2xi8>) -> tensor<2x2xi8>
  %17 = mesh.shift %x on @mesh0 mesh_axes = [2] shift_axis = 2 offset = -1 rotate : tensor<2x2xi8> -> tensor<2x2xi8>
  %18 = mesh.shift %x on @mesh0 mesh_axes = [1, 2] shift_axis = 1 offset = 2 : tensor<2x2xi8> -> tensor<2x2xi8>
  return
}
// Ops may span lines, carry comments between their parts and an attr-dict.

// CHECK-LABEL: func.func @layout(%arg0: tensor<2x2xi8>) -> tensor<2x4xi8> {
// CHECK-NEXT: %0 = mesh.all_gather %arg0 on @mesh0 mesh_axes = [1] gather_axis = 1 {keep} : tensor<2x2xi8> -> tensor<2x4xi8>
// CHECK-NEXT: return %0 : tensor<2x4xi8>
func.func @layout(%x: tensor<2x2xi8>) -> tensor<2x4xi8> {
  %0 = mesh.all_gather %x on @mesh0
         mesh_axes = [1]     // which axis
         gather_axis = 1 {keep}
    : tensor<2x2xi8>
    -> tensor<2x4xi8>
  return %0 : tensor<2x4xi8>
}

// CHECK-LABEL: func.func @halos(%arg0: tensor<6x8xf32>, %arg1: tensor<8x8xf32>, %arg2: memref<6x8xf32>, %arg3: i64) {
// CHECK-NEXT: %0 = mesh.update_halo %arg0 into %arg1 on @mesh0 split_axes = {{\[\[}}0]] source_halo_sizes = [1, 1] destination_halo_sizes = [2, 2] : tensor<6x8xf32> -> tensor<8x8xf32>
// CHECK-NEXT: %1 = mesh.update_halo %arg0 into %arg0 on @mesh0 split_axes = {{\[\[}}0], [1]] destination_halo_sizes = [%arg3, 1, 0, %arg3] : tensor<6x8xf32> -> tensor<6x8xf32>
// CHECK-NEXT: %2 = mesh.update_halo %arg2 into %arg2 on @mesh0 split_axes = {{\[\[}}2]] : memref<6x8xf32> -> memref<6x8xf32>
// CHECK-NEXT: return
func.func @halos(%t: tensor<6x8xf32>, %d: tensor<8x8xf32>, %m: memref<6x8xf32>, %h: i64) {
  %0 = mesh.update_halo %t into %d on @mesh0 split_axes = [[0]] source_halo_sizes = [1, 1] destination_halo_sizes = [2, 2] : tensor<6x8xf32> -> tensor<8x8xf32>
  %1 = mesh.update_halo %t into %t on @mesh0 split_axes = [[0], [1]] destination_halo_sizes = [%h, 1, 0, %h] : tensor<6x8xf32> -> tensor<6x8xf32>
  %2 = mesh.update_halo %m into %m on @mesh0 split_axes = [[2]] : memref<6x8xf32> -> memref<6x8xf32>
  return
}
// Mesh ops mix with every other dialect, and the dialect's attributes may
// appear on any op.

// CHECK-LABEL: func.func @mixed(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {mesh.kind = #mesh.partial<average>} {
// CHECK-NEXT: %cst = arith.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT: %0 = arith.addf %arg0, %cst : tensor<4xf32>
// CHECK-NEXT: %1 = mesh.all_reduce %0 on @mesh4 mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %2 = mesh.all_reduce %1 on @mesh4 mesh_axes = [0] reduction = <min> : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT: %3 = tensor.empty() {axes = #mesh.axisarray<{{\[\[}}0], [], [1, 2]]>} : tensor<4xf32>
// CHECK-NEXT: return %2 : tensor<4xf32>
func.func @mixed(%x: tensor<4xf32>) -> tensor<4xf32> attributes {mesh.kind = #mesh.partial<average>} {
  %c = arith.constant dense<1.0> : tensor<4xf32>
  %0 = arith.addf %x, %c : tensor<4xf32>
  %1 = mesh.all_reduce %0 on @mesh4 mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  %2 = "mesh.all_reduce"(%1) {mesh = @mesh4, mesh_axes = array<i16: 0>, reduction = #mesh.partial<min>} : (tensor<4xf32>) -> tensor<4xf32>
  %3 = tensor.empty() {axes = #mesh.axisarray<[[0], [], [1, 2]]>} : tensor<4xf32>
  return %2 : tensor<4xf32>
}
