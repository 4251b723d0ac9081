// RUN: mesh-opt --split-input-file --verify-diagnostics --mesh-partition %s | FileCheck %s

// Partition lists the pieces of every split dimension: a static dimension cut
// into more than 2^20 pieces is refused at its annotation (a 10^6 x 10^6 mesh
// once ran out of memory), however few elements the tensor has.
mesh.mesh @m(shape = 1000000x1000000)
func.func @pieces_of_two_huge_axes(%x: tensor<4xf32>) -> tensor<4xf32> {
  %s = mesh.sharding @m split_axes = [[0, 1]] : !mesh.sharding
  // expected-error@+1 {{dimension 0 of tensor<4xf32> is cut into 1000000000000 pieces (mesh @m (1000000x1000000) axes [0, 1]), more than the 1048576 that mesh-partition handles}}
  %y = mesh.shard %x to %s : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// One axis is enough, on any dimension, and an annotation for users counts too.
mesh.mesh @m(shape = 2x2000000)
func.func @pieces_of_one_huge_axis(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %s = mesh.sharding @m split_axes = [[0], [1]] : !mesh.sharding
  // expected-error@+1 {{dimension 1 of tensor<4x6xf32> is cut into 2000000 pieces (mesh @m (2x2000000) axes [1]), more than the 1048576 that mesh-partition handles}}
  %y = mesh.shard %x to %s annotate_for_users : tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// -----

// A huge mesh whose layouts cut each dimension into few pieces lists no
// device: it is partitioned as usual.
mesh.mesh @m(shape = 1000000x1000000x2)
// CHECK-LABEL: func.func @few_pieces_of_a_huge_mesh
// CHECK-SAME: tensor<2x8xf32> {mesh.sharding = #mesh.sharding<@m, {{\[\[}}2]]>}
func.func @few_pieces_of_a_huge_mesh(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mesh.sharding @m split_axes = [[2]] : !mesh.sharding
  %y = mesh.shard %x to %s : tensor<4x8xf32>
  // CHECK: mesh.all_gather %{{.*}} on @m mesh_axes = [2] gather_axis = 0 : tensor<2x8xf32> -> tensor<4x8xf32>
  %r = mesh.sharding @m split_axes = [] : !mesh.sharding
  // expected-warning@+1 {{function argument 0 (tensor<4x8xf32>, split_axes = [[2]]) is gathered whole on every device here}}
  %z = mesh.shard %y to %r annotate_for_users : tensor<4x8xf32>
  %e = math.exp %z : tensor<4x8xf32>
  %w = mesh.shard %e to %r : tensor<4x8xf32>
  return %w : tensor<4x8xf32>
}

// -----

// A piece with its halos, or the pieces padded to the largest (as the
// collectives move uneven ones), must have a 64-bit size: partition failed
// with an internal error building such a type.
mesh.mesh @m(shape = 2)
func.func @halo_past_int64(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s = mesh.sharding @m split_axes = [[0]] halo_sizes = [9223372036854775807, 0] : !mesh.sharding
  // expected-error@+1 {{pieces of tensor dimension 0 reach 9223372036854775811 elements (with halos, or padded to the largest), more than a 64-bit size holds}}
  %y = mesh.shard %x to %s : tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}

// -----

mesh.mesh @m(shape = 2)
func.func @padded_past_int64(%x: tensor<9223372036854775807x8xf32>) -> tensor<9223372036854775807x8xf32> {
  %s = mesh.sharding @m split_axes = [[0]] sharded_dims_offsets = [0, 1, 9223372036854775807] : !mesh.sharding
  // expected-error@+1 {{pieces of tensor dimension 0 reach 18446744073709551612 elements}}
  %y = mesh.shard %x to %s : tensor<9223372036854775807x8xf32>
  return %y : tensor<9223372036854775807x8xf32>
}
