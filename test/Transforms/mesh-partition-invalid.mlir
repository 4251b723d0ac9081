// RUN: mesh-opt --split-input-file --verify-diagnostics --allow-unregistered-dialect --mesh-partition %s

mesh.mesh @mesh(shape = 4)

// Uneven pieces partition (test/Sim/uneven); offsets on a dynamic size do not.
func.func @offsets_of_a_dynamic_size(%a: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] sharded_dims_offsets = [0, 1, 4, 6, 8] : !mesh.sharding
  // expected-error@+1 {{sharded_dims_offsets on a tensor of dynamic size or mesh are not supported}}
  %a0 = mesh.shard %a to %s annotate_for_users : tensor<?x8xf32>
  return %a0 : tensor<?x8xf32>
}

// -----

// Uneven pieces must line up across an op: the same loop cut two ways (only
// the offsets differ) or a reshape whose pieces do not scale to its result's
// would compute a device's piece from another piece.
mesh.mesh @m3(shape = 3)
func.func @offsets_differ_across_an_op(%x: tensor<7xf32>) -> tensor<7xf32> {
  %s = mesh.sharding @m3 split_axes = [[0]] sharded_dims_offsets = [0, 3, 5, 7] : !mesh.sharding
  %t = mesh.sharding @m3 split_axes = [[0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<7xf32>
  // expected-error@+1 {{the pieces around 'math.exp' do not line up: operand 0 is cut as [0:3, 3:5, 5:7] and result 0 as [0:2, 2:4, 4:7] along loop 0; reshard one of them with an annotation for users}}
  %y = math.exp %x0 : tensor<7xf32>
  %y0 = mesh.shard %y to %t : tensor<7xf32>
  return %y0 : tensor<7xf32>
}

// -----

// A side of dynamic size is cut at run time by the default rule: a side cut
// by offsets along the same loop does not line up with it.
mesh.mesh @m4(shape = 4)
func.func @dynamic_beside_offsets(%a: tensor<?x5xi32>, %b: tensor<7x5xi32>) -> tensor<7x5xi32> {
  %s = mesh.sharding @m4 split_axes = [[0]] : !mesh.sharding
  %o = mesh.sharding @m4 split_axes = [[0]] sharded_dims_offsets = [0, 3, 3, 7, 7] : !mesh.sharding
  %as = mesh.shard %a to %s : tensor<?x5xi32>
  %bs = mesh.shard %b to %o : tensor<7x5xi32>
  %e = tensor.empty() : tensor<7x5xi32>
  // expected-error@+1 {{the pieces around 'linalg.add' do not line up: operand 0 is of dynamic size, cut at run time, and operand 1 as [0:3, 3:3, 3:7, 7:7] along loop 0; reshard one of them with an annotation for users}}
  %r = linalg.add ins(%as, %bs : tensor<?x5xi32>, tensor<7x5xi32>) outs(%e : tensor<7x5xi32>) -> tensor<7x5xi32>
  %rs = mesh.shard %r to %o : tensor<7x5xi32>
  return %rs : tensor<7x5xi32>
}

// -----

mesh.mesh @m4(shape = 4)
func.func @uneven_collapse(%x: tensor<7x2xf32>) -> tensor<14xf32> {
  %s = mesh.sharding @m4 split_axes = [[0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<7x2xf32>
  // expected-error@+1 {{the pieces around 'tensor.collapse_shape' do not line up: operand 0 is cut as [0:1, 1:3, 3:5, 5:7] and result 0 as [0:3, 3:6, 6:10, 10:14] along loop 0}}
  %c = tensor.collapse_shape %x0 [[0, 1]] : tensor<7x2xf32> into tensor<14xf32>
  %c0 = mesh.shard %c to %s : tensor<14xf32>
  return %c0 : tensor<14xf32>
}

// -----

mesh.mesh @mesh(shape = 2)

func.func @unknown(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a0 = mesh.shard %a to %s : tensor<4x8xf32>
  // An op without a rule runs on whole values: its sharded operand is gathered.
  // expected-remark@+2 {{no sharding rule for 'foo.bar': operand 0 (split_axes = [[0]]) gathered whole on every device}}
  // expected-warning@+1 {{function argument 0 (tensor<4x8xf32>, split_axes = [[0]]) is gathered whole on every device here: 64 bytes received per device}}
  %d = "foo.bar"(%a0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}

// -----

mesh.mesh @m1(shape = 2)
mesh.mesh @m2(shape = 2)

func.func @two_meshes(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s1 = mesh.sharding @m1 split_axes = [[0]] : !mesh.sharding
  %s2 = mesh.sharding @m2 split_axes = [[0]] : !mesh.sharding
  %a0 = mesh.shard %a to %s1 : tensor<4x8xf32>
  // expected-error@+1 {{function uses meshes @m1 and @m2; partition needs one mesh}}
  %b0 = mesh.shard %b to %s2 : tensor<4x8xf32>
  %c = tosa.add %a0, %b0 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// -----

mesh.mesh @mesh(shape = 2)

func.func @collective_on_split(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a0 = mesh.shard %a to %s : tensor<4x8xf32>
  // expected-error@+1 {{a collective already works on one device's data, so its values cannot be partitioned: 'mesh.all_reduce' operand 0 is annotated split_axes = [[0]]}}
  %r = mesh.all_reduce %a0 on @mesh mesh_axes = [0] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

mesh.mesh @mesh(shape = 4)

// Integer average terms are summed in their own type: four copies of 100 in
// i8 wrap (a reviewer's silent miscompile, now refused).
func.func @integer_average_from_whole(%x: tensor<8xi8>) -> tensor<8xi8> {
  %sp = mesh.sharding @mesh split_axes = [[]] partial = average [0] : !mesh.sharding
  %sr = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %v = arith.addi %x, %x : tensor<8xi8>
  // expected-error@+1 {{an average partial of i8 cannot be made from a whole value: its terms are summed in i8, where n copies of a large value overflow}}
  %p = mesh.shard %v to %sp annotate_for_users : tensor<8xi8>
  %w = mesh.shard %p to %sr annotate_for_users : tensor<8xi8>
  return %w : tensor<8xi8>
}

// -----

mesh.mesh @mesh(shape = 2)

// The callee is partitioned too, so its signature becomes per-device: a call
// passing whole values would not verify (found in review).
func.func @g(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s0 : tensor<4x4xf32>
  %y = arith.addf %x0, %x0 : tensor<4x4xf32>
  %y0 = mesh.shard %y to %s0 : tensor<4x4xf32>
  return %y0 : tensor<4x4xf32>
}
func.func @calls_partitioned(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error@+1 {{calls into a function that is partitioned too are not supported yet: @g is annotated, so its signature becomes per-device}}
  %y = func.call @g(%x) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}

// -----

// StableHLO has no boolean iota: a split one would add its offset in i1.
mesh.mesh @m2(shape = 2)
func.func @split_boolean_iota() -> tensor<4xi1> {
  %s = mesh.sharding @m2 split_axes = [[0]] : !mesh.sharding
  // expected-error@+1 {{'stablehlo.iota' split along its dimension needs an element type that holds its indices, not i1}}
  %r = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<4xi1>
  %o = mesh.shard %r to %s : tensor<4xi1>
  return %o : tensor<4xi1>
}

// -----

// A collective cannot run in a region that may run once per element: a value
// split inside a tensor.generate body and read whole there is refused.
mesh.mesh @m2(shape = 2)
func.func @split_inside_generate(%y: tensor<4xf32>) -> tensor<4xf32> {
  %rows = mesh.sharding @m2 split_axes = [[0]] : !mesh.sharding
  %g = tensor.generate {
  ^bb0(%i: index):
    // expected-remark@+1 {{the operands of 'arith.addf' do not fit the layouts of its results}}
    %t = arith.addf %y, %y : tensor<4xf32>
    %t1 = mesh.shard %t to %rows : tensor<4xf32>
    // expected-error@+1 {{a value defined in the region of 'tensor.generate', which may run once per element, would be resharded there from split_axes = [[0]] to split_axes = [[]] by collectives; annotate it outside that region}}
    %w = tensor.extract %t1[%i] : tensor<4xf32>
    tensor.yield %w : f32
  } : tensor<4xf32>
  return %g : tensor<4xf32>
}

// -----

// The same holds for a result made in another layout than its annotation
// asks: the update_halo that would follow the op stays out of the body.
mesh.mesh @m2(shape = 2)
func.func @halo_result_inside_generate(%y: tensor<4xf32>) -> tensor<4xf32> {
  %halo = mesh.sharding @m2 split_axes = [[0]] halo_sizes = [1, 1] : !mesh.sharding
  %g = tensor.generate {
  ^bb0(%i: index):
    // expected-remark@+3 {{the operands of 'arith.addf' do not fit the layouts of its results}}
    // expected-remark@+2 {{'arith.addf' runs with its loops split as [[0]] (re-derived from the annotations around it), which cannot produce result 0 as split_axes = [[0]] halo_sizes = [1, 1]: resharded after it}}
    // expected-error@+1 {{a value defined in the region of 'tensor.generate', which may run once per element, would be resharded there from split_axes = [[0]] to split_axes = [[0]] halo_sizes = [1, 1] by collectives; annotate it outside that region}}
    %t = arith.addf %y, %y : tensor<4xf32>
    %t1 = mesh.shard %t to %halo : tensor<4xf32>
    %w = tensor.extract %y[%i] : tensor<4xf32>
    tensor.yield %w : f32
  } : tensor<4xf32>
  return %g : tensor<4xf32>
}

// -----

// Halos give each device the rows its even share of a windowed op's outputs
// reads: a result cut by offsets along the windowed loop is refused, not
// computed from the wrong rows.
#win = affine_map<(i, k) -> (i + k)>
#w = affine_map<(i, k) -> (k)>
#out = affine_map<(i, k) -> (i)>
mesh.mesh @m4(shape = 4)
func.func @windowed_result_with_offsets(%x: tensor<12xi32>, %k: tensor<3xi32>) -> tensor<8xi32> {
  %s = mesh.sharding @m4 split_axes = [[0]] : !mesh.sharding
  %o = mesh.sharding @m4 split_axes = [[0]] sharded_dims_offsets = [0, 1, 3, 5, 8] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<12xi32>
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<8xi32>
  %z = linalg.fill ins(%zero : i32) outs(%e : tensor<8xi32>) -> tensor<8xi32>
  // expected-remark@+2 {{the operands of 'linalg.generic' do not fit the layouts of its results}}
  // expected-error@+1 {{result 0 of 'linalg.generic' is cut by sharded_dims_offsets along loop 0, which an operand reads through a window; uneven pieces are not supported yet there: split_axes = [[0]] sharded_dims_offsets = [0, 1, 3, 5, 8]}}
  %r = linalg.generic {indexing_maps = [#win, #w, #out], iterator_types = ["parallel", "reduction"]}
      ins(%xs, %k : tensor<12xi32>, tensor<3xi32>) outs(%z : tensor<8xi32>) {
  ^bb0(%a: i32, %b: i32, %c: i32):
    %m = arith.muli %a, %b : i32
    %t = arith.addi %c, %m : i32
    linalg.yield %t : i32
  } -> tensor<8xi32>
  %rs = mesh.shard %r to %o : tensor<8xi32>
  return %rs : tensor<8xi32>
}

// -----

// A tensor.pad's body runs on scalars: a value of that body annotated split
// cannot be made whole in front of the pad (a tensor read from outside it
// is: test/Sim/partition/captured-split.mlir).
mesh.mesh @m2(shape = 2)
func.func @pad_body_value_split(%x: tensor<8x16xf32>) -> tensor<10x16xf32> {
  %s = mesh.sharding @m2 split_axes = [[0]] : !mesh.sharding
  %pd = tensor.pad %x low[1, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    %f = arith.index_cast %j : index to i32
    %g = arith.sitofp %f : i32 to f32
    %t = tensor.from_elements %g, %g : tensor<2xf32>
    // expected-error@+1 {{'mesh.shard' in the body of 'tensor.pad' reads a value of that body that is not whole on every device (split_axes = [[0]]); the body runs on scalars}}
    %t0 = mesh.shard %t to %s : tensor<2xf32>
    %c1 = arith.constant 1 : index
    %v = tensor.extract %t0[%c1] : tensor<2xf32>
    tensor.yield %v : f32
  } : tensor<8x16xf32> to tensor<10x16xf32>
  return %pd : tensor<10x16xf32>
}

// -----

// A collective's result is one device's data: an annotation for its users
// cannot cut it as one tensor (each device would take columns of its own
// rows, and the gather would join the two devices' rows).
mesh.mesh @m2(shape = 2)
func.func @split_for_users_of_a_slice(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %y = mesh.all_slice %x on @m2 mesh_axes = [0] slice_axis = 0 : tensor<4x4xf32> -> tensor<2x4xf32>
  %s = mesh.sharding @m2 split_axes = [[], [0]] : !mesh.sharding
  // expected-error-re@+1 {{a value that differs between devices cannot be resharded, as partition would cut or gather it as one tensor: it is computed per device from 'mesh.all_slice' at {{.*}}mesh-partition-invalid.mlir:{{[0-9]+}}:8, and is wanted as split_axes = {{\[\[}}], [0]]}}
  %ys = mesh.shard %y to %s annotate_for_users : tensor<2x4xf32>
  %n = arith.negf %ys : tensor<2x4xf32>
  %g = mesh.all_gather %n on @m2 mesh_axes = [0] gather_axis = 0 : tensor<2x4xf32> -> tensor<4x4xf32>
  return %g : tensor<4x4xf32>
}

// -----

// So is a value computed from one, however many ops later.
mesh.mesh @m2(shape = 2)
func.func @split_a_value_made_from_a_slice(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %y = mesh.all_slice %x on @m2 mesh_axes = [0] slice_axis = 0 : tensor<4x4xf32> -> tensor<2x4xf32>
  %e = math.exp %y : tensor<2x4xf32>
  %s = mesh.sharding @m2 split_axes = [[], [0]] : !mesh.sharding
  // expected-error@+1 {{a value that differs between devices cannot be resharded}}
  %es = mesh.shard %e to %s annotate_for_users : tensor<2x4xf32>
  %n = arith.negf %es : tensor<2x4xf32>
  %g = mesh.all_gather %n on @m2 mesh_axes = [0] gather_axis = 0 : tensor<2x4xf32> -> tensor<4x4xf32>
  return %g : tensor<4x4xf32>
}

// -----

// A signature that already gives pieces or partial values (partition's own
// output, or one written per device) holds one device's data: partition
// would take its types for the whole tensors'.
mesh.mesh @m2(shape = 2)
// expected-error@+1 {{a function with a per-device signature cannot be partitioned, as its types are one device's pieces: argument 0 is split_axes = [[]] partial = sum [0] on @m2}}
func.func @per_device_signature(%x: tensor<4xf32> {mesh.sharding = #mesh.sharding<@m2, [[]], partial = sum [0]>}) -> tensor<4xf32> {
  %g = mesh.all_reduce %x on @m2 mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  %s = mesh.sharding @m2 split_axes = [[0]] : !mesh.sharding
  %gs = mesh.shard %g to %s annotate_for_users : tensor<4xf32>
  %e = math.exp %gs : tensor<4xf32>
  return %e : tensor<4xf32>
}

// -----

// A device index read in a generic's body makes its result differ between
// devices too.
mesh.mesh @m2(shape = 2)
func.func @index_in_a_body(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = mesh.process_linear_index on @m2 : index
    %n = arith.index_cast %i : index to i64
    %f = arith.sitofp %n : i64 to f32
    %s = arith.addf %a, %f : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %rows = mesh.sharding @m2 split_axes = [[0]] : !mesh.sharding
  // expected-error@+1 {{a value that differs between devices cannot be resharded, as partition would cut or gather it as one tensor: it is computed per device from 'mesh.process_linear_index'}}
  %rs = mesh.shard %r to %rows annotate_for_users : tensor<4xf32>
  %g = mesh.all_reduce %rs on @m2 mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  return %g : tensor<4xf32>
}

// -----

// Calls that reach a collective through mutual recursion: @odd's result
// comes from @even's, which may come from @row's all_slice.
mesh.mesh @m2(shape = 2)
func.func private @row(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = mesh.all_slice %x on @m2 mesh_axes = [0] slice_axis = 0 : tensor<4xf32> -> tensor<2xf32>
  %c = tensor.concat dim(0) %y, %y : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  return %c : tensor<4xf32>
}
func.func private @odd(%x: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %r = func.call @even(%x, %n) : (tensor<4xf32>, index) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func private @even(%x: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %more = arith.cmpi ne, %n, %c0 : index
  %r = scf.if %more -> tensor<4xf32> {
    %m = arith.subi %n, %c1 : index
    %o = func.call @odd(%x, %m) : (tensor<4xf32>, index) -> tensor<4xf32>
    scf.yield %o : tensor<4xf32>
  } else {
    %y = func.call @row(%x) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %y : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
func.func @through_recursion(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c1 = arith.constant 1 : index
  %u = func.call @even(%x, %c1) : (tensor<4xf32>, index) -> tensor<4xf32>
  %v = func.call @odd(%x, %c1) : (tensor<4xf32>, index) -> tensor<4xf32>
  %rows = mesh.sharding @m2 split_axes = [[0]] : !mesh.sharding
  // expected-error@+1 {{a value that differs between devices cannot be resharded, as partition would cut or gather it as one tensor: it is computed per device from 'func.call'}}
  %vs = mesh.shard %v to %rows annotate_for_users : tensor<4xf32>
  %e = arith.addf %vs, %u : tensor<4xf32>
  %g = mesh.all_reduce %e on @m2 mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  return %g : tensor<4xf32>
}

// -----

// Which branch a device takes depends on its index: a reshard in the
// branch would wait for the device that took the other one.  (A value
// from outside the branch is resharded in front of it:
// test/Sim/partition/per-device-values.mlir.)
mesh.mesh @m2(shape = 2)
func.func @reshard_in_a_branch_of_some_devices(%x: tensor<4xf32>) -> tensor<4xf32> {
  %i = mesh.process_linear_index on @m2 : index
  %c0 = arith.constant 0 : index
  %p = arith.cmpi eq, %i, %c0 : index
  %r = scf.if %p -> tensor<4xf32> {
    %y = math.sqrt %x : tensor<4xf32>
    %rows = mesh.sharding @m2 split_axes = [[0]] : !mesh.sharding
    // expected-error-re@+1 {{a reshard inside a region only some devices run would wait for devices that never come: which devices run it depends on 'mesh.process_linear_index' at {{.*}}mesh-partition-invalid.mlir:{{[0-9]+}}:8, and a value there is wanted as split_axes = {{\[\[}}0]]}}
    %ys = mesh.shard %y to %rows annotate_for_users : tensor<4xf32>
    %e = math.exp %ys : tensor<4xf32>
    scf.yield %e : tensor<4xf32>
  } else {
    scf.yield %x : tensor<4xf32>
  }
  %g = mesh.all_reduce %r on @m2 mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  return %g : tensor<4xf32>
}

// -----

// So does the block a branch on a per-device flag leads to, and the block
// where the two ways meet.
mesh.mesh @m2(shape = 2)
func.func @reshard_after_a_branch_on_a_device_index(%x: tensor<4xf32>) -> tensor<4xf32> {
  %i = mesh.process_linear_index on @m2 : index
  %c0 = arith.constant 0 : index
  %p = arith.cmpi eq, %i, %c0 : index
  %a = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  cf.cond_br %p, ^one, ^other
^one:
  cf.br ^join(%a : tensor<4xf32>)
^other:
  cf.br ^join(%x : tensor<4xf32>)
^join(%j: tensor<4xf32>):
  %rows = mesh.sharding @m2 split_axes = [[0]] : !mesh.sharding
  // expected-error@+1 {{a reshard inside a region only some devices run would wait for devices that never come}}
  %js = mesh.shard %j to %rows annotate_for_users : tensor<4xf32>
  %e = arith.addf %js, %js : tensor<4xf32>
  %g = mesh.all_reduce %e on @m2 mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  return %g : tensor<4xf32>
}

// -----

// The same body in a generic partition leaves as it is (it reads a constant).
mesh.mesh @m2(shape = 2)
func.func @index_in_a_body_left_as_it_is(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<1.0> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%c : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = mesh.process_linear_index on @m2 : index
    %n = arith.index_cast %i : index to i64
    %f = arith.sitofp %n : i64 to f32
    %s = arith.addf %a, %f : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %rows = mesh.sharding @m2 split_axes = [[0]] : !mesh.sharding
  // expected-error@+1 {{a value that differs between devices cannot be resharded}}
  %rs = mesh.shard %r to %rows annotate_for_users : tensor<4xf32>
  %g = mesh.all_reduce %rs on @m2 mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  %y = arith.addf %g, %x : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// An annotation saying such a value is produced in pieces is refused where
// it is written (the error was at the op making the value).
mesh.mesh @m2(shape = 2)
func.func @per_device_value_produced_in_pieces(%x: tensor<8xf32>) -> tensor<4xf32> {
  %y = mesh.all_slice %x on @m2 mesh_axes = [0] slice_axis = 0 : tensor<8xf32> -> tensor<4xf32>
  %z = math.exp %y : tensor<4xf32>
  %rows = mesh.sharding @m2 split_axes = [[0]] : !mesh.sharding
  // expected-error-re@+1 {{a value that differs between devices cannot be annotated as produced in pieces, as partition would take each device's value for its piece: it is computed per device from 'mesh.all_slice' at {{.*}}mesh-partition-invalid.mlir:{{[0-9]+}}:8, and is annotated split_axes = {{\[\[}}0]]}}
  %zs = mesh.shard %z to %rows : tensor<4xf32>
  %g = mesh.all_reduce %zs on @m2 mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  return %g : tensor<4xf32>
}
