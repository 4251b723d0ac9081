// The verifier computes group sizes by arithmetic: a mesh of 2^32 devices
// verifies at once (no device is enumerated, no MemoryError).
// RUN: mesh-opt --split-input-file --verify-diagnostics %s

mesh.mesh @mesh0(shape = 65536x65536)
func.func @huge_group(%x: tensor<1xf32>) -> (tensor<4294967296xf32>, tensor<1xf32>) {
  %0 = mesh.all_gather %x on @mesh0 mesh_axes = [0, 1] gather_axis = 0 : tensor<1xf32> -> tensor<4294967296xf32>
  %1 = mesh.scatter %0 on @mesh0 mesh_axes = [0, 1] scatter_axis = 0 root = [65535, 65535] : (tensor<4294967296xf32>) -> tensor<1xf32>
  return %0, %1 : tensor<4294967296xf32>, tensor<1xf32>
}

// -----

mesh.mesh @mesh0(shape = 65536x65536)
func.func @huge_group_wrong(%x: tensor<1xf32>) -> tensor<65536xf32> {
  // expected-error@+1 {{'mesh.all_gather' op result dimension 0 must be 4294967296 (1 * 4294967296 devices), got 65536}}
  %0 = mesh.all_gather %x on @mesh0 mesh_axes = [0, 1] gather_axis = 0 : tensor<1xf32> -> tensor<65536xf32>
  return %0 : tensor<65536xf32>
}

// -----

mesh.mesh @mesh0(shape = 65536x65536)
func.func @huge_offsets(%t: tensor<8xf32>) {
  // expected-error@+1 {{'mesh.sharding' op sharded_dims_offsets needs (shards + 1) entries per split tensor dimension (4294967297), got 3}}
  %s = mesh.sharding @mesh0 split_axes = [[0, 1]] sharded_dims_offsets = [0, 4, 8] : !mesh.sharding
  %0 = mesh.shard %t to %s : tensor<8xf32>
  return
}

// -----

mesh.mesh @mesh0(shape = 65536x65536)
func.func @huge_axis_out_of_range(%x: tensor<1xf32>) -> tensor<1xf32> {
  // expected-error@+1 {{'mesh.all_reduce' op mesh axis 2 is out of range for mesh @mesh0 of rank 2}}
  %0 = mesh.all_reduce %x on @mesh0 mesh_axes = [0, 1, 2] : tensor<1xf32> -> tensor<1xf32>
  return %0 : tensor<1xf32>
}
