// stablehlo ops are not verified here (the dialect is not registered): a
// result type may disagree with the operands and attributes.  The rules
// then do not apply, so a sharded operand gets the unknown-op diagnostic
// instead of an internal error in mesh-partition, which cut the pieces by
// the attributes (an IndexError on a rank-dropping slice, found by the
// fuzzer on a mutated test/Sim/stablehlo/slice-one-element.mlir), or
// partitioned ops whose pieces were as wrong as their types.  The window
// ops (convolution, reduce_window, select_and_scatter) are held to the
// window count their padding, strides and dilations give, gather and
// scatter to their indices' batch, reduce and top_k to the sizes they keep.
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

// -----

mesh.mesh @mesh(shape = 4)
func.func @reduce(%a: tensor<8x4xf32>) -> tensor<6xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a1 = mesh.shard %a to %s : tensor<8x4xf32>
  %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  // summing the columns of 8 rows leaves 8 values, not 6
  // expected-error@+1 {{no sharding rule covers this 'stablehlo.reduce'}}
  %r = "stablehlo.reduce"(%a1, %z) <{dimensions = array<i64: 1>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %t = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%t) : (tensor<f32>) -> ()
  }) : (tensor<8x4xf32>, tensor<f32>) -> tensor<6xf32>
  return %r : tensor<6xf32>
}

// -----

mesh.mesh @mesh(shape = 4)
func.func @gather(%ids: tensor<8xi32>, %table: tensor<16x6xf32>) -> tensor<4x6xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %i = mesh.shard %ids to %rows : tensor<8xi32>
  // one row per id: 8 ids give 8 rows, not 4
  // expected-error@+1 {{no sharding rule covers this 'stablehlo.gather'}}
  %g = "stablehlo.gather"(%table, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 6>}> : (tensor<16x6xf32>, tensor<8xi32>) -> tensor<4x6xf32>
  return %g : tensor<4x6xf32>
}

// -----

mesh.mesh @mesh(shape = 4)
func.func @conv(%x: tensor<2x16x4xf32>, %w: tensor<3x4x6xf32>) -> tensor<2x12x6xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<2x16x4xf32>
  // a 3-wide kernel over 16 cells padded by 2 in front gives 16 outputs, not 12
  // expected-error@+1 {{no sharding rule covers this 'stablehlo.convolution'}}
  %y = "stablehlo.convolution"(%x0, %w) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1>, padding = dense<[[2, 0]]> : tensor<1x2xi64>, rhs_dilation = array<i64: 1>, window_reversal = array<i1: false>, window_strides = array<i64: 1>}> : (tensor<2x16x4xf32>, tensor<3x4x6xf32>) -> tensor<2x12x6xf32>
  return %y : tensor<2x12x6xf32>
}

// -----

mesh.mesh @mesh(shape = 4)
func.func @conv_batch(%x: tensor<8x16x4xf32>, %w: tensor<3x4x6xf32>) -> tensor<4x16x6xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<8x16x4xf32>
  // the batch of 8 comes out as 8, not 4
  // expected-error@+1 {{no sharding rule covers this 'stablehlo.convolution'}}
  %y = "stablehlo.convolution"(%x0, %w) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1>, padding = dense<[[2, 0]]> : tensor<1x2xi64>, rhs_dilation = array<i64: 1>, window_reversal = array<i1: false>, window_strides = array<i64: 1>}> : (tensor<8x16x4xf32>, tensor<3x4x6xf32>) -> tensor<4x16x6xf32>
  return %y : tensor<4x16x6xf32>
}

// -----

mesh.mesh @mesh(shape = 4)
func.func @pool(%a: tensor<8x16xf32>) -> tensor<8x4xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %a1 = mesh.shard %a to %s : tensor<8x16xf32>
  %z = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
  // windows of 2 moved by 2 over 16 cells are 8, not 4
  // expected-error@+1 {{no sharding rule covers this 'stablehlo.reduce_window'}}
  %r = "stablehlo.reduce_window"(%a1, %z) <{window_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 2>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %t = "stablehlo.maximum"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%t) : (tensor<f32>) -> ()
  }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

mesh.mesh @mesh(shape = 4)
func.func @pool_rows(%a: tensor<8x16xf32>) -> tensor<4x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a1 = mesh.shard %a to %s : tensor<8x16xf32>
  %z = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
  // a window one row wide keeps the 8 rows
  // expected-error@+1 {{no sharding rule covers this 'stablehlo.reduce_window'}}
  %r = "stablehlo.reduce_window"(%a1, %z) <{window_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 2>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %t = "stablehlo.maximum"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%t) : (tensor<f32>) -> ()
  }) : (tensor<8x16xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

mesh.mesh @mesh(shape = 4)
func.func @topk(%a: tensor<16x4xf32>) -> (tensor<8x2xf32>, tensor<8x2xi32>) {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a1 = mesh.shard %a to %s : tensor<16x4xf32>
  // the top 2 of each of 16 rows are 16 rows
  // expected-error@+1 {{no sharding rule covers this 'chlo.top_k'}}
  %r:2 = "chlo.top_k"(%a1) <{k = 2 : i64}> : (tensor<16x4xf32>) -> (tensor<8x2xf32>, tensor<8x2xi32>)
  return %r#0, %r#1 : tensor<8x2xf32>, tensor<8x2xi32>
}

// -----

mesh.mesh @mesh(shape = 4)
func.func @sas(%x: tensor<8x4xf32>, %src: tensor<4x2xf32>) -> tensor<8x4xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %x1 = mesh.shard %x to %s : tensor<8x4xf32>
  %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  // the source has one value per window: 8x2 here, not 4x2
  // expected-error@+1 {{no sharding rule covers this 'stablehlo.select_and_scatter'}}
  %r = "stablehlo.select_and_scatter"(%x1, %src, %z) <{window_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 2>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %c = "stablehlo.compare"(%p, %q) <{comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %t = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%t) : (tensor<f32>) -> ()
  }) : (tensor<8x4xf32>, tensor<4x2xf32>, tensor<f32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

mesh.mesh @mesh(shape = 2)
func.func @rows(%t: tensor<16x8xf32>, %ids: tensor<6x1xi32>, %g: tensor<4x8xf32>) -> tensor<16x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %i = mesh.shard %ids to %s : tensor<6x1xi32>
  // each of the 6 ids scatters one row of the updates: 6 rows, not 4
  // expected-error@+1 {{no sharding rule covers this 'stablehlo.scatter'}}
  %r = "stablehlo.scatter"(%t, %i, %g) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %z = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%z) : (tensor<f32>) -> ()
  }) : (tensor<16x8xf32>, tensor<6x1xi32>, tensor<4x8xf32>) -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

// -----

mesh.mesh @mesh(shape = 2)
func.func @window(%t: tensor<16x8xf32>, %ids: tensor<6x1xi32>, %g: tensor<6x12xf32>) -> tensor<16x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %i = mesh.shard %ids to %s : tensor<6x1xi32>
  // an update's window of 12 does not fit in rows of 8
  // expected-error@+1 {{no sharding rule covers this 'stablehlo.scatter'}}
  %r = "stablehlo.scatter"(%t, %i, %g) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %z = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%z) : (tensor<f32>) -> ()
  }) : (tensor<16x8xf32>, tensor<6x1xi32>, tensor<6x12xf32>) -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

// -----

// Dimension numbers naming a dimension the operand does not have were
// read as if the pick were not there: the table was split, the gather
// partitioned, and the pass succeeded on an op no device can run.
mesh.mesh @mesh(shape = 2x2)
func.func @gather_map_out_of_range(%table: tensor<8x6xf32>, %ids: tensor<5x2xi32>) -> tensor<5xf32> {
  %split = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %t = mesh.shard %table to %split annotate_for_users : tensor<8x6xf32>
  // expected-error@+1 {{'stablehlo.gather' has dimension numbers that do not fit its values: start_index_map entry 7 is out of range for an operand of rank 2}}
  %g = "stablehlo.gather"(%t, %ids) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 7], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<8x6xf32>, tensor<5x2xi32>) -> tensor<5xf32>
  return %g : tensor<5xf32>
}

// -----

mesh.mesh @mesh(shape = 2)
func.func @gather_short_map(%table: tensor<8x6xf32>, %ids: tensor<5x2xi32>) -> tensor<5x6xf32> {
  // expected-error@+1 {{'stablehlo.gather' has dimension numbers that do not fit its values: start_index_map has 1 entries for index vectors of 2}}
  %g = "stablehlo.gather"(%table, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 6>}> : (tensor<8x6xf32>, tensor<5x2xi32>) -> tensor<5x6xf32>
  return %g : tensor<5x6xf32>
}

// -----

mesh.mesh @mesh(shape = 2)
func.func @scatter_twice(%t: tensor<16x8xf32>, %ids: tensor<6x1xi32>, %g: tensor<6x8xf32>) -> tensor<16x8xf32> {
  // expected-error@+1 {{'stablehlo.scatter' has dimension numbers that do not fit its values: inserted_window_dims [0, 0] names a dimension twice}}
  %r = "stablehlo.scatter"(%t, %ids, %g) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0, 0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %z = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%z) : (tensor<f32>) -> ()
  }) : (tensor<16x8xf32>, tensor<6x1xi32>, tensor<6x8xf32>) -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}
