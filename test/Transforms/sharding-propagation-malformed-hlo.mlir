// stablehlo ops are not verified here (the dialect is not registered): a
// result type may disagree with the operands and attributes.  The rules
// then do not apply, so a sharded operand gets the unknown-op diagnostic
// instead of an internal error in mesh-partition, which cut the pieces by
// the attributes (an IndexError on a rank-dropping slice, found by the
// fuzzer on a mutated test/Sim/stablehlo/slice-one-element.mlir), or
// partitioned ops whose pieces were as wrong as their types.
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

// -----

mesh.mesh @mesh(shape = 4)
func.func @transposed(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a1 = mesh.shard %a to %s : tensor<8x4xf32>
  // a transpose keeps the sizes it permutes
  // expected-error@+1 {{no sharding rule covers this 'stablehlo.transpose'}}
  %r = "stablehlo.transpose"(%a1) <{permutation = array<i64: 1, 0>}> : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

mesh.mesh @mesh(shape = 4)
func.func @reversed(%a: tensor<8x4xf32>) -> tensor<4x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a1 = mesh.shard %a to %s : tensor<8x4xf32>
  // expected-error@+1 {{no sharding rule covers this 'stablehlo.reverse'}}
  %r = "stablehlo.reverse"(%a1) <{dimensions = array<i64: 1>}> : (tensor<8x4xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

mesh.mesh @mesh(shape = 4)
func.func @padded(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a1 = mesh.shard %a to %s : tensor<8x4xf32>
  %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  // padding one column at each end makes 6
  // expected-error@+1 {{no sharding rule covers this 'stablehlo.pad'}}
  %r = "stablehlo.pad"(%a1, %z) <{edge_padding_low = array<i64: 0, 1>, edge_padding_high = array<i64: 0, 1>, interior_padding = array<i64: 0, 0>}> : (tensor<8x4xf32>, tensor<f32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

mesh.mesh @mesh(shape = 4)
func.func @joined(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a1 = mesh.shard %a to %s : tensor<8x4xf32>
  // expected-error@+1 {{no sharding rule covers this 'stablehlo.concatenate'}}
  %r = "stablehlo.concatenate"(%a1, %a1) <{dimension = 1 : i64}> : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

mesh.mesh @mesh(shape = 4)
func.func @broadcast(%a: tensor<8x4xf32>) -> tensor<4x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a1 = mesh.shard %a to %s : tensor<8x4xf32>
  // expected-error@+1 {{no sharding rule covers this 'stablehlo.broadcast_in_dim'}}
  %r = "stablehlo.broadcast_in_dim"(%a1) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x4xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

mesh.mesh @mesh(shape = 4)
func.func @contracted(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a1 = mesh.shard %a to %s : tensor<8x4xf32>
  // 8x4 times 8x4 over the columns is 8x8
  // expected-error@+1 {{no sharding rule covers this 'stablehlo.dot_general'}}
  %r = "stablehlo.dot_general"(%a1, %a1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>}> : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

mesh.mesh @mesh(shape = 4)
func.func @added(%a: tensor<8x4xf32>) -> tensor<4x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a1 = mesh.shard %a to %s : tensor<8x4xf32>
  // expected-error@+1 {{no sharding rule covers this 'stablehlo.add'}}
  %r = "stablehlo.add"(%a1, %a1) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

mesh.mesh @mesh(shape = 4)
func.func @updated(%a: tensor<8x4xf32>, %u: tensor<8x1xf32>, %i: tensor<i32>) -> tensor<8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a1 = mesh.shard %a to %s : tensor<8x4xf32>
  // expected-error@+1 {{no sharding rule covers this 'stablehlo.dynamic_update_slice'}}
  %r = "stablehlo.dynamic_update_slice"(%a1, %u, %i, %i) : (tensor<8x4xf32>, tensor<8x1xf32>, tensor<i32>, tensor<i32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}
