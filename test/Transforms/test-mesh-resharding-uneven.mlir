// RUN: mesh-opt --split-input-file --verify-diagnostics --test-mesh-resharding %s

// The index-map checks of upstream's resharding notes
// (Dialect/Mesh/Transforms/ReshardingSpmdizationDoc.md) reshard
// [[0], [1]] -> [[1], [0]] with sizes that do not divide by the mesh
// (pieces of K ceildiv M rows, the last one shorter).  Resharding needs the
// same local shape on every device, so uneven pieces are refused with a
// diagnostic at the annotation; test-mesh-resharding.mlir runs the same
// resharding with sizes that divide.

// K=16, L=23 on a 3x4 mesh: rows in pieces of 6, 6, 4.
mesh.mesh @mesh(shape = 3x4)

func.func @uneven_3x4(%arg0: tensor<16x23xf32>) -> tensor<16x23xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<16x23xf32>
  %s1 = mesh.sharding @mesh split_axes = [[1], [0]] : !mesh.sharding
  // expected-error @+1 {{dimension 0 of size 16 does not split evenly over mesh axes [0] (3 pieces)}}
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<16x23xf32>
  return %1 : tensor<16x23xf32>
}

// -----

// K=27, L=14 on a 5x2 mesh: 27 rows do not split into 5 pieces.
mesh.mesh @mesh(shape = 5x2)

func.func @uneven_5x2(%arg0: tensor<27x14xf32>) -> tensor<27x14xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<27x14xf32>
  %s1 = mesh.sharding @mesh split_axes = [[1], [0]] : !mesh.sharding
  // expected-error @+1 {{dimension 0 of size 27 does not split evenly over mesh axes [0] (5 pieces)}}
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<27x14xf32>
  return %1 : tensor<27x14xf32>
}
