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
