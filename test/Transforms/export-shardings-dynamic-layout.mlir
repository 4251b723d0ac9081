// export-shardings leaves out a layout whose halos or piece offsets are
// computed at run time, and its warning shows such a size as `?` (it showed
// the i64 that stands for it) and names the value it leaves unannotated.
// RUN: mesh-opt --split-input-file --allow-unregistered-dialect --export-shardings --verify-diagnostics %s | FileCheck %s

// CHECK-LABEL: func.func @dynamic_halo(%arg0: tensor<8xf32>, %arg1: i64) -> tensor<8xf32>
mesh.mesh @m(shape = 4)
// expected-warning @+2 {{halos have no shardy counterpart; left out of argument 0: split_axes = [[0]] halo_sizes = [1, ?]}}
// expected-warning @+1 {{halos have no shardy counterpart; left out of result 0: split_axes = [[0]] halo_sizes = [1, ?]}}
func.func @dynamic_halo(%a: tensor<8xf32>, %n: i64) -> tensor<8xf32> {
  %s = mesh.sharding @m split_axes = [[0]] halo_sizes = [1, %n] : !mesh.sharding
  %b = mesh.shard %a to %s : tensor<8xf32>
  return %b : tensor<8xf32>
}

// -----

// CHECK-LABEL: func.func @dynamic_offset(%arg0: tensor<8xf32>, %arg1: i64) -> tensor<8xf32>
mesh.mesh @m(shape = 4)
// expected-warning @+2 {{piece offsets known only at run time have no shardy counterpart; left out of argument 0: split_axes = [[0]] sharded_dims_offsets = [0, 2, ?, 6, 8]}}
// expected-warning @+1 {{piece offsets known only at run time have no shardy counterpart; left out of result 0: split_axes = [[0]] sharded_dims_offsets = [0, 2, ?, 6, 8]}}
func.func @dynamic_offset(%a: tensor<8xf32>, %n: i64) -> tensor<8xf32> {
  %s = mesh.sharding @m split_axes = [[0]] sharded_dims_offsets = [0, 2, %n, 6, 8] : !mesh.sharding
  %b = mesh.shard %a to %s : tensor<8xf32>
  return %b : tensor<8xf32>
}
