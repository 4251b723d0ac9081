// stablehlo ops are not verified here (the dialect is not registered): a
// slice's result type may disagree with its attributes.  The slice rules
// then do not apply, so a sharded operand gets the unknown-op diagnostic
// instead of an internal error in mesh-partition, which cut the pieces by
// the attributes (an IndexError on a rank-dropping slice).  Found by the
// fuzzer on a mutated test/Sim/stablehlo/slice-one-element.mlir.
// RUN: mesh-opt --split-input-file --verify-diagnostics --allow-unregistered-dialect --sharding-propagation --mesh-partition %s

mesh.mesh @mesh(shape = 4)
func.func @rank_dropping(%a: tensor<8xf32>) -> tensor<f32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a1 = mesh.shard %a to %s : tensor<8xf32>
  // expected-error@+1 {{no sharding rule covers this 'stablehlo.slice' (the rule of its kind does not take its sizes, attributes or types) but its operand 0 is sharded (@mesh split_axes = [[0]])}}
  %r = "stablehlo.slice"(%a1) <{start_indices = array<i64: 5>, limit_indices = array<i64: 6>, strides = array<i64: 1>}> : (tensor<8xf32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

mesh.mesh @mesh(shape = 4)
func.func @wrong_size(%a: tensor<8x4xf32>) -> tensor<8x3xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a1 = mesh.shard %a to %s : tensor<8x4xf32>
  // expected-error@+1 {{no sharding rule covers this 'stablehlo.slice'}}
  %r = "stablehlo.slice"(%a1) <{start_indices = array<i64: 0, 1>, limit_indices = array<i64: 8, 2>, strides = array<i64: 1, 1>}> : (tensor<8x4xf32>) -> tensor<8x3xf32>
  return %r : tensor<8x3xf32>
}

// -----

mesh.mesh @mesh(shape = 4)
func.func @strided_size(%a: tensor<8x4xf32>) -> tensor<8x1xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a1 = mesh.shard %a to %s : tensor<8x4xf32>
  // every second column of 4 is 2 of them, not 1
  // expected-error@+1 {{no sharding rule covers this 'stablehlo.slice'}}
  %r = "stablehlo.slice"(%a1) <{start_indices = array<i64: 0, 0>, limit_indices = array<i64: 8, 4>, strides = array<i64: 1, 2>}> : (tensor<8x4xf32>) -> tensor<8x1xf32>
  return %r : tensor<8x1xf32>
}

// -----

mesh.mesh @mesh(shape = 4)
func.func @dynamic_rank_dropping(%a: tensor<8x4xi32>, %i: tensor<i32>) -> tensor<1xi32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a1 = mesh.shard %a to %s : tensor<8x4xi32>
  // expected-error@+1 {{no sharding rule covers this 'stablehlo.dynamic_slice' (the rule of its kind does not take its sizes, attributes or types) but its operand 0 is sharded (@mesh split_axes = [[0]])}}
  %r = "stablehlo.dynamic_slice"(%a1, %i, %i) <{slice_sizes = array<i64: 1, 1>}> : (tensor<8x4xi32>, tensor<i32>, tensor<i32>) -> tensor<1xi32>
  return %r : tensor<1xi32>
}
