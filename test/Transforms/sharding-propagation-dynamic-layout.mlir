// An annotation whose offsets or halo sizes are computed at run time is
// refused at the annotation, by either solver, as partition refuses it: the
// layouts propagation writes are static (it used to fail with an internal
// error at the module).
// RUN: mesh-opt --split-input-file --verify-diagnostics --sharding-propagation %s
// RUN: mesh-opt --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(sharding-propagation{solver=sweep})' %s

mesh.mesh @m(shape = 2)

func.func @offsets(%a: tensor<8xf32>, %o: i64) -> tensor<8xf32> {
  %s = mesh.sharding @m split_axes = [[0]] sharded_dims_offsets = [0, %o, 8] : !mesh.sharding
  // expected-error@+1 {{sharding propagation needs static sharded_dims_offsets, got [0, ?, 8] (a size computed at run time)}}
  %0 = mesh.shard %a to %s : tensor<8xf32>
  %1 = math.exp %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

mesh.mesh @m(shape = 2)

func.func @halos(%a: tensor<8xf32>, %h: i64) -> tensor<8xf32> {
  %s = mesh.sharding @m split_axes = [[0]] halo_sizes = [1, %h] : !mesh.sharding
  // expected-error@+1 {{sharding propagation needs static halo_sizes, got [1, ?] (a size computed at run time)}}
  %0 = mesh.shard %a to %s : tensor<8xf32>
  %1 = math.exp %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}
