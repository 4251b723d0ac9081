// Halos beside pieces partition cannot give them: each is a located error
// (no wrong pieces).  What partition does support, a whole input cut to
// halos and uneven pieces, is simulated in uneven-beside.mlir.
// RUN: mesh-opt --split-input-file --verify-diagnostics --mesh-partition %s

// The input arrives cut unevenly: moving it to halos is the planner's
// (update_halo on uneven pieces), which it does not do yet.
mesh.mesh @m(shape = 2x2)
func.func @split_input(%x: tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32> {
  %s = mesh.sharding @m split_axes = [[], [0], [], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<1x4x4x3xf32>
  // expected-error@+1 {{cannot reshard from split_axes = [[], [0], [], [1]] to split_axes = [[], [0], [], [1]] halo_sizes = [1, 1, 0, 0]: halos on uneven pieces are not supported yet}}
  %c = tosa.max_pool2d %xs {kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  %cs = mesh.shard %c to %s : tensor<1x4x4x3xf32>
  return %cs : tensor<1x4x4x3xf32>
}

// -----

// A 1-D mesh: the halo'd rows themselves cut unevenly (8 over 3).
mesh.mesh @m3(shape = 3)
func.func @uneven_rows(%x: tensor<1x8x4x2xf32>) -> tensor<1x8x4x2xf32> {
  %r = mesh.sharding @m3 split_axes = [[]] : !mesh.sharding
  %xr = mesh.shard %x to %r : tensor<1x8x4x2xf32>
  // expected-remark@+2 {{do not fit the layouts of its results}}
  // expected-error@+1 {{operand 0 dimension 1 of size 8 and its 8 outputs do not split evenly into 3 pieces; uneven pieces are not supported yet}}
  %c = tosa.max_pool2d %xr {kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x4x2xf32>) -> tensor<1x8x4x2xf32>
  %s = mesh.sharding @m3 split_axes = [[], [0]] : !mesh.sharding
  %cs = mesh.shard %c to %s : tensor<1x8x4x2xf32>
  return %cs : tensor<1x8x4x2xf32>
}

// -----

// Channels over a mesh axis of dynamic size: pieces of a size only known
// at run time.
mesh.mesh @md(shape = 2x?)
func.func @dynamic_axis(%x: tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32> {
  %r = mesh.sharding @md split_axes = [[]] : !mesh.sharding
  %xr = mesh.shard %x to %r : tensor<1x4x4x3xf32>
  // expected-error@+1 {{a whole value cut to halos (split_axes = [[], [0], [], [1]] halo_sizes = [1, 1, 0, 0]) needs static pieces, but dimension 3 of tensor<1x4x4x3xf32> has pieces of a size only known at run time}}
  %c = tosa.max_pool2d %xr {kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  %s = mesh.sharding @md split_axes = [[], [0], [], [1]] : !mesh.sharding
  %cs = mesh.shard %c to %s : tensor<1x4x4x3xf32>
  return %cs : tensor<1x4x4x3xf32>
}

// -----

// A whole value of dynamic size annotated with halos on its rows and its
// channels split: the channels' pieces are only known at run time.
mesh.mesh @m(shape = 2x2)
func.func @dynamic_size(%x: tensor<1x4x4x?xf32>) -> tensor<1x4x4x?xf32> {
  %r = mesh.sharding @m split_axes = [[]] : !mesh.sharding
  %xr = mesh.shard %x to %r : tensor<1x4x4x?xf32>
  %s = mesh.sharding @m split_axes = [[], [0], [], [1]] halo_sizes = [1, 1, 0, 0] : !mesh.sharding
  // expected-error@+1 {{a whole value cut to halos (split_axes = [[], [0], [], [1]] halo_sizes = [1, 1, 0, 0]) needs static pieces, but dimension 3 of tensor<1x4x4x?xf32> has pieces of a size only known at run time}}
  %xs = mesh.shard %xr to %s : tensor<1x4x4x?xf32>
  return %xs : tensor<1x4x4x?xf32>
}

// -----

// A result with halos whose pieces differ in size (7 over 3): its signature
// would need the offsets of the cut beside the halos, which one layout
// cannot carry.  (Partition wrote both, and the output failed to verify.)
mesh.mesh @m(shape = 3)
// expected-error@+1 {{function result 0 of type tensor<7xi32> has halos and pieces of different sizes (split_axes = [[0]] halo_sizes = [2, 0]): its signature would need sharded_dims_offsets beside halo_sizes, which a mesh.sharding cannot hold}}
func.func @uneven_result(%x: tensor<7xi32>) -> tensor<7xi32> {
  %r = mesh.sharding @m split_axes = [[]] : !mesh.sharding
  %xr = mesh.shard %x to %r : tensor<7xi32>
  %h = mesh.sharding @m split_axes = [[0]] halo_sizes = [2, 0] : !mesh.sharding
  %xh = mesh.shard %xr to %h annotate_for_users : tensor<7xi32>
  return %xh : tensor<7xi32>
}

// -----

// An even halo'd layout resharded to one cut by offsets: the error names
// the uneven side.
mesh.mesh @m(shape = 4)
func.func @halos_to_offsets(%x: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %h = mesh.sharding @m split_axes = [[0]] halo_sizes = [1, 2] : !mesh.sharding
  %o = mesh.sharding @m split_axes = [[0]] sharded_dims_offsets = [0, 1, 1, 5, 8] : !mesh.sharding
  %0 = mesh.shard %x to %h : tensor<8x6xf32>
  // expected-error@+1 {{resharding between halos and uneven pieces is not supported yet: split_axes = [[0]] sharded_dims_offsets = [0, 1, 1, 5, 8] is uneven}}
  %1 = mesh.shard %0 to %o annotate_for_users : tensor<8x6xf32>
  %2 = arith.addf %1, %1 : tensor<8x6xf32>
  %3 = mesh.shard %2 to %o : tensor<8x6xf32>
  return %3 : tensor<8x6xf32>
}

