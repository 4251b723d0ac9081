// RUN: mesh-opt --verify-diagnostics --test-mesh-resharding %s

// The test pass lists pieces as mesh-partition does, so it refuses the same
// huge cuts at their annotation (it ran out of memory listing them).
mesh.mesh @mesh(shape = 2147483647x3)
func.func @huge(%arg0: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[], [0, 1]] : !mesh.sharding
  // expected-error@+1 {{dimension 1 of tensor<4x6xf32> is cut into 6442450941 pieces (mesh @mesh (2147483647x3) axes [0, 1]), more than the 1048576 that mesh-partition handles}}
  %0 = mesh.shard %arg0 to %s0 : tensor<4x6xf32>
  %s1 = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<4x6xf32>
  return %1 : tensor<4x6xf32>
}
