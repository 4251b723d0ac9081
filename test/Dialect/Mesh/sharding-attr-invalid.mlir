// RUN: mesh-opt --split-input-file --verify-diagnostics %s

mesh.mesh @m(shape = 2x4)
// expected-error@+1 {{'func.func' op argument 0: mesh.sharding splits 3 tensor dimensions but the tensor has rank 2}}
func.func @rank(%a: tensor<4x8xf32> {mesh.sharding = #mesh.sharding<@m, [[0], [], [1]]>}) {
  return
}

// -----

mesh.mesh @m(shape = 2x4)
// expected-error@+1 {{'func.func' op result 0: mesh.sharding mesh symbol @nope is not defined}}
func.func @undefined_mesh(%a: tensor<4x8xf32>) -> (tensor<4x8xf32> {mesh.sharding = #mesh.sharding<@nope, [[0]]>}) {
  return %a : tensor<4x8xf32>
}

// -----

// A mesh defined in the body is out of reach of the function's own layouts.
// expected-error@+1 {{'func.func' op argument 0: mesh.sharding mesh symbol @inner is defined only in the body of this 'func.func', which its argument and result layouts cannot see: define the mesh at module level}}
func.func @mesh_in_body(%a: tensor<4x8xf32> {mesh.sharding = #mesh.sharding<@inner, [[0]]>}) -> tensor<4x8xf32> {
  scf.execute_region {
    mesh.mesh @inner(shape = 2)
    scf.yield
  }
  return %a : tensor<4x8xf32>
}

// -----

mesh.mesh @m(shape = 2x4)
// expected-error@+1 {{'func.func' op argument 0: mesh.sharding mesh axis 2 is out of range for mesh @m of rank 2}}
func.func @axis_range(%a: tensor<4x8xf32> {mesh.sharding = #mesh.sharding<@m, [[2]]>}) {
  return
}

// -----

mesh.mesh @m(shape = 2x4)
// expected-error@+1 {{'func.func' op argument 0: mesh.sharding mesh axis 1 is both a split axis (tensor dimension 0) and a partial axis}}
func.func @partial_overlap(%a: tensor<4x8xf32> {mesh.sharding = #mesh.sharding<@m, [[1]], partial = sum [1]>}) {
  return
}

// -----

mesh.mesh @m(shape = 2x4)
// expected-error@+1 {{unknown #mesh.sharding field 'halos'; expected partial, halo_sizes or sharded_dims_offsets}}
func.func @bad_field(%a: tensor<4x8xf32> {mesh.sharding = #mesh.sharding<@m, [[1]], halos = [1, 1]>}) {
  return
}

// -----

mesh.mesh @m(shape = 2x4)
// expected-error@+1 {{unknown reduction kind 'biggest'}}
func.func @bad_kind(%a: tensor<4x8xf32> {mesh.sharding = #mesh.sharding<@m, [[1]], partial = biggest [0]>}) {
  return
}
