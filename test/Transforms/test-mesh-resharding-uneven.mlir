// RUN: mesh-opt --split-input-file --test-mesh-resharding %s | FileCheck %s

// The index-map checks of upstream's resharding notes
// (Dialect/Mesh/Transforms/ReshardingSpmdizationDoc.md) reshard
// [[0], [1]] -> [[1], [0]] with sizes that do not divide by the mesh.  The
// pieces follow upstream's shard_shape (n // k each, the last n % k one
// more), so local types are dynamic where devices hold different sizes,
// and every collective runs on pieces padded to the largest one.
// test/Sim/uneven/ runs such reshardings; test-mesh-resharding.mlir runs the
// same resharding with sizes that divide.

// K=16, L=23 on a 3x4 mesh: rows in pieces of 5, 5, 6 and columns of 5, 6, 6, 6,
// then rows of 4 and columns of 7, 8, 8.
mesh.mesh @mesh(shape = 3x4)

func.func @uneven_3x4(%arg0: tensor<16x23xf32>) -> tensor<16x23xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<16x23xf32>
  %s1 = mesh.sharding @mesh split_axes = [[1], [0]] : !mesh.sharding
  // CHECK-LABEL: func.func @uneven_3x4
  // CHECK: builtin.unrealized_conversion_cast %arg0 : tensor<16x23xf32> to tensor<?x?xf32>
  // CHECK: mesh.all_to_all %{{.*}} mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<6x6xf32> -> tensor<18x2xf32>
  // CHECK: tensor.concat dim(0) {{.*}} : (tensor<5x?xf32>, tensor<5x?xf32>, tensor<6x?xf32>) -> tensor<16x?xf32>
  // CHECK: mesh.send
  // CHECK: mesh.recv
  // CHECK: mesh.all_to_all %{{.*}} mesh_axes = [1] split_axis = 0 concat_axis = 1 : tensor<16x2xf32> -> tensor<4x8xf32>
  // CHECK: tensor.concat dim(1) {{.*}} -> tensor<4x?xf32>
  // CHECK: builtin.unrealized_conversion_cast %{{.*}} : tensor<4x?xf32> to tensor<16x23xf32>
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<16x23xf32>
  return %1 : tensor<16x23xf32>
}

// -----

// K=27, L=14 on a 5x2 mesh: 27 rows in pieces of 5, 5, 5, 6, 6, then of 13, 14.
mesh.mesh @mesh(shape = 5x2)

func.func @uneven_5x2(%arg0: tensor<27x14xf32>) -> tensor<27x14xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<27x14xf32>
  %s1 = mesh.sharding @mesh split_axes = [[1], [0]] : !mesh.sharding
  // CHECK-LABEL: func.func @uneven_5x2
  // CHECK: mesh.all_gather %{{.*}} mesh_axes = [1] gather_axis = 1 : tensor<?x7xf32> -> tensor<?x14xf32>
  // CHECK: mesh.all_to_all %{{.*}} mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<6x15xf32> -> tensor<30x3xf32>
  // CHECK: tensor.concat dim(0) {{.*}} -> tensor<27x?xf32>
  // CHECK: tensor.extract_slice
  // CHECK: builtin.unrealized_conversion_cast %{{.*}} : tensor<?x?xf32> to tensor<27x14xf32>
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<27x14xf32>
  return %1 : tensor<27x14xf32>
}
