// RUN: mesh-opt --verify-diagnostics --sharding-propagation %s
// RUN: mesh-opt --verify-diagnostics --mesh-partition %s

// The verifier resolves a mesh declared in a function body; the passes read
// the module's meshes, and say so instead of failing inside.
func.func @mesh_in_body(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  mesh.mesh @inner(shape = 2)
  %s = mesh.sharding @inner split_axes = [[0]] : !mesh.sharding
  // expected-error@+1 {{mesh @inner is not defined in the module: the passes read meshes defined at module level, not in a function body}}
  %a1 = mesh.shard %a to %s : tensor<4x8xf32>
  %t = math.exp %a1 : tensor<4x8xf32>
  return %t : tensor<4x8xf32>
}
