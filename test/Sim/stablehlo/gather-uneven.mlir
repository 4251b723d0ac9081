// A gather's slice_sizes are static: an operand dimension cut into pieces of
// different sizes (10 columns over 4 devices) cannot be written there, so
// partition refuses it where it stands.  (The rows the ids pick may be cut
// unevenly, even into pieces of none: gather-points.mlir.)
// RUN: mesh-opt --split-input-file --verify-diagnostics --mesh-partition %s

mesh.mesh @mesh(shape = 4)
func.func @f(%table: tensor<16x10xf32>, %ids: tensor<3x1xi32>) -> tensor<3x10xf32> {
  %cols = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %t = mesh.shard %table to %cols annotate_for_users : tensor<16x10xf32>
  // expected-error @+1 {{'stablehlo.gather' of pieces of different or dynamic sizes is not supported yet (local type tensor<3x?xf32>)}}
  %g = "stablehlo.gather"(%t, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 10>}> : (tensor<16x10xf32>, tensor<3x1xi32>) -> tensor<3x10xf32>
  %r = mesh.shard %g to %cols : tensor<3x10xf32>
  return %r : tensor<3x10xf32>
}

