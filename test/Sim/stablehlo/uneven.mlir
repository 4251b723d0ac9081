// Pieces of different sizes cannot be written in an iota's, a reshape's or
// a broadcast_in_dim's static type and sizes: partition refuses them where
// they stand (a reshape and a broadcast_in_dim used to get a dynamic
// result type that nothing sizes).  A slice of stride 1 on such pieces
// becomes a tensor.extract_slice (stablehlo/crops.mlir), and a reshape
// that only adds or drops unit dimensions next to them tensor reshapes
// (stablehlo/uneven-reshape.mlir); one that merges such a piece with
// another dimension does not line up.
// RUN: mesh-opt --split-input-file --verify-diagnostics --mesh-partition %s

mesh.mesh @mesh(shape = 2)
func.func @iota() -> tensor<5xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  // expected-error @+1 {{'stablehlo.iota' of pieces of different or dynamic sizes is not supported yet (local type tensor<?xf32>)}}
  %0 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<5xf32>
  %1 = mesh.shard %0 to %s : tensor<5xf32>
  return %1 : tensor<5xf32>
}

// -----

mesh.mesh @mesh(shape = 2)
func.func @broadcast_new_dim(%arg0: tensor<4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'stablehlo.broadcast_in_dim' of pieces of different or dynamic sizes is not supported yet (local type tensor<?x4xf32>)}}
  %0 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64: 1>}> : (tensor<4xf32>) -> tensor<3x4xf32>
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %1 = mesh.shard %0 to %s : tensor<3x4xf32>
  return %1 : tensor<3x4xf32>
}

// -----

mesh.mesh @mesh(shape = 2)
func.func @reshape_merging(%arg0: tensor<5x7xf32>) -> tensor<35xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %x = mesh.shard %arg0 to %s : tensor<5x7xf32>
  // expected-error @+1 {{the pieces around 'stablehlo.reshape' do not line up: operand 0 is cut as [0:2, 2:5] and result 0 as [0:17, 17:35] along loop 0}}
  %0 = "stablehlo.reshape"(%x) : (tensor<5x7xf32>) -> tensor<35xf32>
  %1 = mesh.shard %0 to %s : tensor<35xf32>
  return %1 : tensor<35xf32>
}

// -----

// A gather along a batch cut into a piece of no rows (device 3's): refused,
// as its rows split so are.
mesh.mesh @mesh(shape = 4)
func.func @gather_empty_batch_piece(%x: tensor<6x10xf32>, %i: tensor<6x3x1xi32>) -> tensor<6x3xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] sharded_dims_offsets = [0, 2, 4, 6, 6] : !mesh.sharding
  %x0 = mesh.shard %x to %s annotate_for_users : tensor<6x10xf32>
  %i0 = mesh.shard %i to %s annotate_for_users : tensor<6x3x1xi32>
  // expected-error @+1 {{'stablehlo.gather' on batch pieces of no rows is not supported (rows cut at [0, 2, 4, 6, 6])}}
  %g = "stablehlo.gather"(%x0, %i0) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<6x10xf32>, tensor<6x3x1xi32>) -> tensor<6x3xf32>
  %r = mesh.shard %g to %s : tensor<6x3xf32>
  return %r : tensor<6x3xf32>
}
