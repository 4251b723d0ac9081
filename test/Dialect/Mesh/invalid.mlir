// One case per rule of the semantic verifier (and the few rules IRDL checks
// while parsing the generic form), each in its own chunk with the meshes it
// needs. The custom-syntax errors are in invalid-syntax.mlir.
// RUN: mesh-opt --split-input-file --verify-diagnostics %s

//===----------------------------------------------------------------------===//
// Mesh symbols
//===----------------------------------------------------------------------===//

func.func @undefined_mesh(%x: tensor<2x2xi8>) -> tensor<2x4xi8> {
  // expected-error@+1 {{'mesh.all_gather' op mesh symbol @nomesh is not defined}}
  %0 = mesh.all_gather %x on @nomesh mesh_axes = [0] gather_axis = 1 : tensor<2x2xi8> -> tensor<2x4xi8>
  return %0 : tensor<2x4xi8>
}

// -----

mesh.mesh @mesh0(shape = 2)
func.func @undefined_mesh_in_sharding() {
  // expected-error@+1 {{'mesh.sharding' op mesh symbol @mesh1 is not defined}}
  %s = mesh.sharding @mesh1 split_axes = [[0]] : !mesh.sharding
  return
}

// -----

// A mesh declared in a function body is not visible from another function.
func.func @local_mesh(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  mesh.mesh @inner(shape = 2)
  %0 = mesh.all_reduce %x on @inner mesh_axes = [0] : tensor<2x2xi8> -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}
func.func @other_function(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  // expected-error@+1 {{'mesh.all_reduce' op mesh symbol @inner is not defined}}
  %0 = mesh.all_reduce %x on @inner mesh_axes = [0] : tensor<2x2xi8> -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

func.func @not_a_mesh() {
  return
}
func.func @symbol_of_another_op(%x: tensor<2x2xi8>) -> tensor<2x4xi8> {
  // expected-error@+1 {{'mesh.all_gather' op symbol @not_a_mesh names a 'func.func', not a mesh.mesh}}
  %0 = mesh.all_gather %x on @not_a_mesh mesh_axes = [0] gather_axis = 1 : tensor<2x2xi8> -> tensor<2x4xi8>
  return %0 : tensor<2x4xi8>
}

// -----

// In a module, MLIR's symbol table verifier reports the redefinition.
// expected-note@+1 {{see existing symbol definition here}}
mesh.mesh @mesh0(shape = 2x2)
// expected-error@+1 {{redefinition of symbol named 'mesh0'}}
mesh.mesh @mesh0(shape = 4)

// -----

// Elsewhere (here a function body) the mesh verifier reports it.
func.func @redefinition_in_body() {
  // expected-note@+1 {{previous definition is here}}
  mesh.mesh @m(shape = 2)
  // expected-error@+1 {{'mesh.mesh' op redefinition of mesh @m}}
  mesh.mesh @m(shape = 4)
  return
}

// -----

// `shape = ` with no dimension is a syntax error; the generic form can say it.
// expected-error@+1 {{'mesh.mesh' op mesh @m must have rank >= 1, got rank 0}}
"mesh.mesh"() {sym_name = "m", shape = array<i64>} : () -> ()

// -----

// expected-error@+1 {{'mesh.mesh' op mesh axis 1 of @mesh0 must have size >= 1 or ?, got 0}}
mesh.mesh @mesh0(shape = 2x0)

// -----

// expected-error@+1 {{'mesh.mesh' op mesh axis 1 of @m must have size >= 1 or ?, got -3}}
"mesh.mesh"() {sym_name = "m", shape = array<i64: 2, -3>} : () -> ()

// -----

// An op on an invalid mesh is reported too, once, without repeating why.
// expected-error@+1 {{'mesh.mesh' op mesh axis 0 of @mesh0 must have size >= 1 or ?, got 0}}
mesh.mesh @mesh0(shape = 0x2)
func.func @use_of_invalid_mesh() -> index {
  // expected-error@+1 {{'mesh.process_linear_index' op mesh @mesh0 is invalid}}
  %0 = mesh.process_linear_index on @mesh0 : index
  return %0 : index
}

//===----------------------------------------------------------------------===//
// mesh_axes and axes
//===----------------------------------------------------------------------===//

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @mesh_axes_out_of_range(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  // expected-error@+1 {{'mesh.all_reduce' op mesh axis 3 is out of range for mesh @mesh0 of rank 2}}
  %0 = mesh.all_reduce %x on @mesh0 mesh_axes = [3] : tensor<2x2xi8> -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @mesh_axes_negative(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  // expected-error@+1 {{'mesh.all_reduce' op mesh axis -1 is out of range for mesh @mesh0 of rank 2}}
  %0 = mesh.all_reduce %x on @mesh0 mesh_axes = [-1] : tensor<2x2xi8> -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @mesh_axes_duplicated(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  // expected-error@+1 {{'mesh.all_reduce' op mesh axis 1 appears more than once in mesh_axes}}
  %0 = mesh.all_reduce %x on @mesh0 mesh_axes = [1, 0, 1] : tensor<2x2xi8> -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @mesh_shape_axes_out_of_range() -> index {
  // expected-error@+1 {{'mesh.mesh_shape' op mesh axis 2 is out of range for mesh @mesh0 of rank 2}}
  %0:2 = mesh.mesh_shape @mesh0 axes = [0, 2] : index, index
  return %0#0 : index
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @mesh_shape_axes_duplicated() -> index {
  // expected-error@+1 {{'mesh.mesh_shape' op mesh axis 1 appears more than once in axes}}
  %0:2 = mesh.mesh_shape @mesh0 axes = [1, 1] : index, index
  return %0#0 : index
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @process_multi_index_axes_out_of_range() -> index {
  // expected-error@+1 {{'mesh.process_multi_index' op mesh axis 5 is out of range for mesh @mesh0 of rank 2}}
  %0 = mesh.process_multi_index on @mesh0 axes = [5] : index
  return %0 : index
}

//===----------------------------------------------------------------------===//
// Result counts of the queries
//===----------------------------------------------------------------------===//

// -----

mesh.mesh @mesh0(shape = 2x2x4)
func.func @mesh_shape_all_axes_result_count() -> index {
  // expected-error@+1 {{'mesh.mesh_shape' op expected 3 results for all axes of @mesh0, got 2}}
  %0:2 = mesh.mesh_shape @mesh0 : index, index
  return %0#0 : index
}

// -----

mesh.mesh @mesh0(shape = 2x2x4)
func.func @mesh_shape_result_count() -> index {
  // expected-error@+1 {{'mesh.mesh_shape' op expected 2 results for axes [0, 1], got 3}}
  %0:3 = mesh.mesh_shape @mesh0 axes = [0, 1] : index, index, index
  return %0#0 : index
}

// -----

mesh.mesh @mesh0(shape = 2x2x4)
func.func @process_multi_index_all_axes_result_count() -> index {
  // expected-error@+1 {{'mesh.process_multi_index' op expected 3 results for all axes of @mesh0, got 2}}
  %0:2 = mesh.process_multi_index on @mesh0 : index, index
  return %0#0 : index
}

// -----

mesh.mesh @mesh0(shape = 2x2x4)
func.func @process_multi_index_result_count() -> index {
  // expected-error@+1 {{'mesh.process_multi_index' op expected 2 results for axes [0, 2], got 1}}
  %0 = mesh.process_multi_index on @mesh0 axes = [0, 2] : index
  return %0 : index
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @shard_shape_result_count(%d: index) -> index {
  %s = mesh.sharding @mesh0 split_axes = [[0]] : !mesh.sharding
  // expected-error@+1 {{'mesh.shard_shape' op expected 2 results for shape 8x8, got 3}}
  %0:3 = mesh.shard_shape 8x8 %s %d : index, index, index
  return %0#0 : index
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @shard_shape_rank_too_small(%d: index) -> index {
  %s = mesh.sharding @mesh0 split_axes = [[0], [], [1]] : !mesh.sharding
  // expected-error@+1 {{'mesh.shard_shape' op sharding splits 3 dimensions but shape 8x8 has rank 2}}
  %0:2 = mesh.shard_shape 8x8 %s %d : index, index
  return %0#0 : index
}

// -----

// Sizes below 0 other than ? spell no dimension list: the op verified and
// printed `mesh.shard_shape -3 ...`, which did not parse back.
mesh.mesh @mesh0(shape = 2x2)
func.func @shard_shape_negative_size(%d: index) -> index {
  %s = mesh.sharding @mesh0 split_axes = [[0]] : !mesh.sharding
  // expected-error@+1 {{'mesh.shard_shape' op shape dimension 1 must have size >= 0 or ?, got -3}}
  %0:2 = "mesh.shard_shape"(%s, %d) {shape = array<i64: 8, -3>} : (!mesh.sharding, index) -> (index, index)
  return %0#0 : index
}

//===----------------------------------------------------------------------===//
// mesh.sharding
//===----------------------------------------------------------------------===//

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @split_axes_out_of_range() {
  // expected-error@+1 {{'mesh.sharding' op mesh axis 2 is out of range for mesh @mesh0 of rank 2}}
  %s = mesh.sharding @mesh0 split_axes = [[0], [2]] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @split_axis_in_two_tensor_dims() {
  // expected-error@+1 {{'mesh.sharding' op mesh axis 0 is used in tensor dimensions 0 and 1 of split_axes}}
  %s = mesh.sharding @mesh0 split_axes = [[0], [1, 0]] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @split_axis_twice_in_one_dim() {
  // expected-error@+1 {{'mesh.sharding' op mesh axis 1 is used twice in tensor dimension 0 of split_axes}}
  %s = mesh.sharding @mesh0 split_axes = [[1, 1]] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @partial_axis_also_split() {
  // expected-error@+1 {{'mesh.sharding' op mesh axis 0 is both a split axis (tensor dimension 0) and a partial axis}}
  %s = mesh.sharding @mesh0 split_axes = [[0]] partial = sum [0] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @partial_axes_out_of_range() {
  // expected-error@+1 {{'mesh.sharding' op mesh axis 2 is out of range for mesh @mesh0 of rank 2}}
  %s = mesh.sharding @mesh0 split_axes = [[0]] partial = sum [2] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @partial_axes_duplicated() {
  // expected-error@+1 {{'mesh.sharding' op mesh axis 1 appears more than once in partial axes}}
  %s = mesh.sharding @mesh0 split_axes = [[0]] partial = sum [1, 1] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @partial_generic() {
  // expected-error@+1 {{'mesh.sharding' op partial reduction kind 'generic' is not allowed in a sharding}}
  %s = mesh.sharding @mesh0 split_axes = [[0]] partial = generic [1] : !mesh.sharding
  return
}

// -----

// With no partial axes too.
mesh.mesh @mesh0(shape = 2x2)
func.func @partial_generic_no_axes() {
  // expected-error@+1 {{'mesh.sharding' op partial reduction kind 'generic' is not allowed in a sharding}}
  %s = mesh.sharding @mesh0 split_axes = [[0]] partial = generic [] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @partial_axes_without_type() {
  // expected-error@+1 {{'mesh.sharding' op partial_axes and partial_type must be given together}}
  %s = "mesh.sharding"() {mesh = @mesh0, split_axes = #mesh.axisarray<[[0]]>, partial_axes = array<i16: 1>, static_halo_sizes = array<i64>, static_sharded_dims_offsets = array<i64>, operandSegmentSizes = array<i32: 0, 0>} : () -> !mesh.sharding
  return
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @halo_sizes_and_offsets() {
  // expected-error@+1 {{'mesh.sharding' op halo_sizes and sharded_dims_offsets are mutually exclusive}}
  %s = mesh.sharding @mesh0 split_axes = [[0]] halo_sizes = [1, 1] sharded_dims_offsets = [0, 1, 4] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @halo_sizes_length() {
  // expected-error@+1 {{'mesh.sharding' op halo_sizes needs 2 entries per sharded tensor dimension (4), got 2}}
  %s = mesh.sharding @mesh0 split_axes = [[0], [1]] halo_sizes = [1, 1] : !mesh.sharding
  return
}

// -----

// Only dimensions with split axes carry halos (upstream counts the same way).
mesh.mesh @mesh0(shape = 2x2)
func.func @halo_sizes_for_unsharded_dim(%t: tensor<8x8xf32>) {
  %ok = mesh.sharding @mesh0 split_axes = [[], [0]] halo_sizes = [1, 2] : !mesh.sharding
  %0 = mesh.shard %t to %ok : tensor<8x8xf32>
  // expected-error@+1 {{'mesh.sharding' op halo_sizes needs 2 entries per sharded tensor dimension (2), got 4}}
  %bad = mesh.sharding @mesh0 split_axes = [[], [0]] halo_sizes = [1, 2, 3, 4] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @halo_sizes_negative() {
  // expected-error@+1 {{'mesh.sharding' op halo sizes must be non-negative, got -2}}
  %s = mesh.sharding @mesh0 split_axes = [[0]] halo_sizes = [1, -2] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh0(shape = 4)
func.func @offsets_length() {
  // expected-error@+1 {{'mesh.sharding' op sharded_dims_offsets needs (shards + 1) entries per split tensor dimension (5), got 4}}
  %s = mesh.sharding @mesh0 split_axes = [[0]] sharded_dims_offsets = [0, 1, 2, 4] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh0(shape = 2x?)
func.func @offsets_on_dynamic_mesh_axis() {
  // expected-error@+1 {{'mesh.sharding' op sharded_dims_offsets needs static sizes for the mesh axes it splits over}}
  %s = mesh.sharding @mesh0 split_axes = [[1]] sharded_dims_offsets = [0, 4] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh0(shape = 2)
func.func @offsets_start() {
  // expected-error@+1 {{'mesh.sharding' op sharded_dims_offsets of tensor dimension 0 must start at 0, got 1}}
  %s = mesh.sharding @mesh0 split_axes = [[0]] sharded_dims_offsets = [1, 2, 4] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh0(shape = 2)
func.func @offsets_decreasing() {
  // expected-error@+1 {{'mesh.sharding' op sharded_dims_offsets of tensor dimension 0 must be non-decreasing, got 2 after 3}}
  %s = mesh.sharding @mesh0 split_axes = [[0]] sharded_dims_offsets = [0, 3, 2] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh0(shape = 2)
func.func @offsets_end(%t: tensor<4x8xf32>) {
  %s = mesh.sharding @mesh0 split_axes = [[], [0]] sharded_dims_offsets = [0, 3, 6] : !mesh.sharding
  // expected-error@+1 {{'mesh.shard' op sharded_dims_offsets of tensor dimension 1 must end at its size 8, got 6}}
  %0 = mesh.shard %t to %s : tensor<4x8xf32>
  return
}

// -----

// A sharding whose split axis is out of range is reported once, at the
// sharding, also when it has sharded_dims_offsets (once an IndexError).
mesh.mesh @mesh0(shape = 2x2)
func.func @offsets_axis_out_of_range(%t: tensor<4xf32>) {
  // expected-error@+1 {{'mesh.sharding' op mesh axis 5 is out of range for mesh @mesh0 of rank 2}}
  %s = mesh.sharding @mesh0 split_axes = [[5]] sharded_dims_offsets = [0, 1, 4] : !mesh.sharding
  %0 = mesh.shard %t to %s : tensor<4xf32>
  return
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @dynamic_count(%x: tensor<2xi8>) -> tensor<2xi8> {
  // A `?` in the static list needs an SSA operand.
  // expected-error@+1 {{'mesh.broadcast' op root has 1 dynamic entries but 0 dynamic operands}}
  %0 = "mesh.broadcast"(%x) {mesh = @mesh0, mesh_axes = array<i16: 1>, root = array<i64: -9223372036854775808>} : (tensor<2xi8>) -> tensor<2xi8>
  return %0 : tensor<2xi8>
}

//===----------------------------------------------------------------------===//
// mesh.shard
//===----------------------------------------------------------------------===//

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @shard_more_split_dims_than_rank(%t: tensor<4xf32>) {
  %s = mesh.sharding @mesh0 split_axes = [[0], [1]] : !mesh.sharding
  // expected-error@+1 {{'mesh.shard' op sharding splits 2 tensor dimensions but the tensor has rank 1}}
  %0 = mesh.shard %t to %s : tensor<4xf32>
  return
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @shard_result_type(%t: tensor<4x8xf32>) {
  %s = mesh.sharding @mesh0 split_axes = [[0]] : !mesh.sharding
  // expected-error@+1 {{'mesh.shard' op result type tensor<4x4xf32> must equal the operand type tensor<4x8xf32>}}
  %0 = "mesh.shard"(%t, %s) : (tensor<4x8xf32>, !mesh.sharding) -> tensor<4x4xf32>
  return
}

// The four uses of mesh.shard the reference page calls undefined are
// accepted (upstream's canonicalize and cse produce them from valid input):
// see annotation-chains.mlir.

//===----------------------------------------------------------------------===//
// Tensor axes of the collectives
//===----------------------------------------------------------------------===//

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @gather_axis_out_of_range(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  // expected-error@+1 {{'mesh.all_gather' op gather_axis 2 is out of range for a tensor of rank 2}}
  %0 = mesh.all_gather %x on @mesh0 mesh_axes = [1] gather_axis = 2 : tensor<2x2xi8> -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @gather_gather_axis_out_of_range(%x: tensor<2x2xi8>) -> tensor<2x4xi8> {
  // expected-error@+1 {{'mesh.gather' op gather_axis 2 is out of range for a tensor of rank 2}}
  %0 = mesh.gather %x on @mesh0 mesh_axes = [1] gather_axis = 2 root = [0] : (tensor<2x2xi8>) -> tensor<2x4xi8>
  return %0 : tensor<2x4xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @slice_axis_out_of_range(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  // expected-error@+1 {{'mesh.all_slice' op slice_axis 2 is out of range for a tensor of rank 2}}
  %0 = mesh.all_slice %x on @mesh0 mesh_axes = [1] slice_axis = 2 : tensor<2x2xi8> -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @split_axis_out_of_range(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  // expected-error@+1 {{'mesh.all_to_all' op split_axis 2 is out of range for a tensor of rank 2}}
  %0 = mesh.all_to_all %x on @mesh0 mesh_axes = [1] split_axis = 2 concat_axis = 0 : tensor<2x2xi8> -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @concat_axis_out_of_range(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  // expected-error@+1 {{'mesh.all_to_all' op concat_axis 3 is out of range for a tensor of rank 2}}
  %0 = mesh.all_to_all %x on @mesh0 mesh_axes = [1] split_axis = 0 concat_axis = 3 : tensor<2x2xi8> -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @reduce_scatter_axis_out_of_range(%x: tensor<4x2xi8>) -> tensor<4x2xi8> {
  // expected-error@+1 {{'mesh.reduce_scatter' op scatter_axis 2 is out of range for a tensor of rank 2}}
  %0 = mesh.reduce_scatter %x on @mesh0 mesh_axes = [1] scatter_axis = 2 : tensor<4x2xi8> -> tensor<4x2xi8>
  return %0 : tensor<4x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @scatter_axis_out_of_range(%x: tensor<4x2xi8>) -> tensor<4x2xi8> {
  // expected-error@+1 {{'mesh.scatter' op scatter_axis 2 is out of range for a tensor of rank 2}}
  %0 = mesh.scatter %x on @mesh0 mesh_axes = [1] scatter_axis = 2 root = [0] : (tensor<4x2xi8>) -> tensor<4x2xi8>
  return %0 : tensor<4x2xi8>
}

//===----------------------------------------------------------------------===//
// Static result shapes of the collectives
//===----------------------------------------------------------------------===//

// A static result size that a dynamic input size or a dynamic group size
// (a `?` in the mesh shape) makes unknowable must be `?` too (upstream:
// "expected dynamic").

// -----

mesh.mesh @mesh0(shape = 2x?)
func.func @all_gather_dynamic_input(%x: tensor<?x4xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{'mesh.all_gather' op result dimension 0 must be dynamic (?) because input dimension 0 is dynamic, got 8}}
  %0 = mesh.all_gather %x on @mesh0 mesh_axes = [0] gather_axis = 0 : tensor<?x4xf32> -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

mesh.mesh @mesh0(shape = 2x?)
func.func @all_gather_dynamic_group(%x: tensor<4x4xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{'mesh.all_gather' op result dimension 0 must be dynamic (?) because the group size over mesh_axes is dynamic, got 8}}
  %0 = mesh.all_gather %x on @mesh0 mesh_axes = [1] gather_axis = 0 : tensor<4x4xf32> -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

mesh.mesh @mesh0(shape = 2x?)
func.func @all_gather_dynamic_other_dim(%x: tensor<4x?xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{'mesh.all_gather' op result dimension 1 must be dynamic (?) because input dimension 1 is dynamic, got 4}}
  %0 = mesh.all_gather %x on @mesh0 mesh_axes = [0] gather_axis = 0 : tensor<4x?xf32> -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

mesh.mesh @mesh0(shape = 2x?)
func.func @all_slice_dynamic_group(%x: tensor<4x4xf32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{'mesh.all_slice' op result dimension 0 must be dynamic (?) because the group size over mesh_axes is dynamic, got 2}}
  %0 = mesh.all_slice %x on @mesh0 mesh_axes = [1] slice_axis = 0 : tensor<4x4xf32> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

mesh.mesh @mesh0(shape = 2x?)
func.func @all_slice_dynamic_input(%x: tensor<?x4xf32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{'mesh.all_slice' op result dimension 0 must be dynamic (?) because input dimension 0 is dynamic, got 2}}
  %0 = mesh.all_slice %x on @mesh0 mesh_axes = [0] slice_axis = 0 : tensor<?x4xf32> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

mesh.mesh @mesh0(shape = 2x?)
func.func @all_to_all_dynamic_group(%x: tensor<4x4xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'mesh.all_to_all' op result dimension 0 must be dynamic (?) because the group size over mesh_axes is dynamic, got 4}}
  %0 = mesh.all_to_all %x on @mesh0 mesh_axes = [1] split_axis = 0 concat_axis = 1 : tensor<4x4xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

mesh.mesh @mesh0(shape = 2x?)
func.func @all_to_all_dynamic_input(%x: tensor<?x4xf32>) -> tensor<2x8xf32> {
  // expected-error@+1 {{'mesh.all_to_all' op result dimension 0 must be dynamic (?) because input dimension 0 is dynamic, got 2}}
  %0 = mesh.all_to_all %x on @mesh0 mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<?x4xf32> -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

mesh.mesh @mesh0(shape = 2x?)
func.func @reduce_scatter_dynamic_group(%x: tensor<4x4xf32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{'mesh.reduce_scatter' op result dimension 0 must be dynamic (?) because the group size over mesh_axes is dynamic, got 2}}
  %0 = mesh.reduce_scatter %x on @mesh0 mesh_axes = [1] scatter_axis = 0 : tensor<4x4xf32> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

mesh.mesh @mesh0(shape = 2x?)
func.func @scatter_dynamic_group(%x: tensor<4x4xf32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{'mesh.scatter' op result dimension 0 must be dynamic (?) because the group size over mesh_axes is dynamic, got 2}}
  %0 = mesh.scatter %x on @mesh0 mesh_axes = [1] scatter_axis = 0 root = [0] : (tensor<4x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

mesh.mesh @mesh0(shape = 2x?)
func.func @gather_dynamic_group(%x: tensor<4x4xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{'mesh.gather' op result dimension 0 must be dynamic (?) because the group size over mesh_axes is dynamic, got 8}}
  %0 = mesh.gather %x on @mesh0 mesh_axes = [1] gather_axis = 0 root = [0] : (tensor<4x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// Splitting and concatenating along one dimension keeps its size, whatever
// the group size; a dynamic group leaves the other dimensions checked.
mesh.mesh @mesh0(shape = 2x?)
func.func @all_to_all_dynamic_group_same_axis(%x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<3x?xf32>) {
  %0 = mesh.all_to_all %x on @mesh0 mesh_axes = [1] split_axis = 0 concat_axis = 0 : tensor<4x4xf32> -> tensor<4x4xf32>
  // expected-error@+1 {{'mesh.all_to_all' op result dimension 0 must be 4, got 3}}
  %1 = mesh.all_to_all %x on @mesh0 mesh_axes = [1] split_axis = 1 concat_axis = 1 : tensor<4x4xf32> -> tensor<3x?xf32>
  return %0, %1 : tensor<4x4xf32>, tensor<3x?xf32>
}

// -----

mesh.mesh @mesh0(shape = 2x3)
func.func @all_gather_dim(%x: tensor<2x2xi8>) -> tensor<2x4xi8> {
  // expected-error@+1 {{'mesh.all_gather' op result dimension 1 must be 6 (2 * 3 devices), got 4}}
  %0 = mesh.all_gather %x on @mesh0 mesh_axes = [1] gather_axis = 1 : tensor<2x2xi8> -> tensor<2x4xi8>
  return %0 : tensor<2x4xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x3)
func.func @all_gather_other_dim(%x: tensor<2x2xi8>) -> tensor<3x6xi8> {
  // expected-error@+1 {{'mesh.all_gather' op result dimension 0 must equal the input dimension 2, got 3}}
  %0 = mesh.all_gather %x on @mesh0 mesh_axes = [1] gather_axis = 1 : tensor<2x2xi8> -> tensor<3x6xi8>
  return %0 : tensor<3x6xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @all_gather_rank(%x: tensor<2x2xi8>) -> tensor<2x4x1xi8> {
  // expected-error@+1 {{'mesh.all_gather' op result rank 3 must equal the input rank 2}}
  %0 = mesh.all_gather %x on @mesh0 mesh_axes = [1] gather_axis = 1 : tensor<2x2xi8> -> tensor<2x4x1xi8>
  return %0 : tensor<2x4x1xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @all_gather_element_type(%x: tensor<2x2xi8>) -> tensor<2x4xi16> {
  // expected-error@+1 {{'mesh.all_gather' op result element type i16 must equal the input element type i8}}
  %0 = mesh.all_gather %x on @mesh0 mesh_axes = [1] gather_axis = 1 : tensor<2x2xi8> -> tensor<2x4xi16>
  return %0 : tensor<2x4xi16>
}

// -----

mesh.mesh @mesh0(shape = 2x4)
func.func @all_slice_not_divisible(%x: tensor<2x6xi8>) -> tensor<2x2xi8> {
  // expected-error@+1 {{'mesh.all_slice' op input dimension 1 of size 6 is not divisible by the 4 devices of the group (slice_axis)}}
  %0 = mesh.all_slice %x on @mesh0 mesh_axes = [1] slice_axis = 1 : tensor<2x6xi8> -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x4)
func.func @all_slice_dim(%x: tensor<2x8xi8>) -> tensor<2x4xi8> {
  // expected-error@+1 {{'mesh.all_slice' op result dimension 1 must be 2 (8 / 4 devices), got 4}}
  %0 = mesh.all_slice %x on @mesh0 mesh_axes = [1] slice_axis = 1 : tensor<2x8xi8> -> tensor<2x4xi8>
  return %0 : tensor<2x4xi8>
}

// -----

mesh.mesh @mesh0(shape = 3)
func.func @all_to_all_not_divisible(%x: tensor<4x2xi8>) -> tensor<1x6xi8> {
  // expected-error@+1 {{'mesh.all_to_all' op input dimension 0 of size 4 is not divisible by the 3 devices of the group (split_axis)}}
  %0 = mesh.all_to_all %x on @mesh0 mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<4x2xi8> -> tensor<1x6xi8>
  return %0 : tensor<1x6xi8>
}

// -----

mesh.mesh @mesh0(shape = 3)
func.func @all_to_all_concat_dim(%x: tensor<3x2xi8>) -> tensor<1x2xi8> {
  // expected-error@+1 {{'mesh.all_to_all' op result dimension 1 must be 6, got 2}}
  %0 = mesh.all_to_all %x on @mesh0 mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<3x2xi8> -> tensor<1x2xi8>
  return %0 : tensor<1x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 3)
func.func @all_to_all_same_axis(%x: tensor<3x2xi8>) -> tensor<1x2xi8> {
  // Splitting and concatenating along one axis keeps its size.
  // expected-error@+1 {{'mesh.all_to_all' op result dimension 0 must be 3, got 1}}
  %0 = mesh.all_to_all %x on @mesh0 mesh_axes = [0] split_axis = 0 concat_axis = 0 : tensor<3x2xi8> -> tensor<1x2xi8>
  return %0 : tensor<1x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @reduce_scatter_not_divisible(%x: tensor<3x4xf32>) -> tensor<1x4xf64> {
  // expected-error@+1 {{'mesh.reduce_scatter' op input dimension 0 of size 3 is not divisible by the 2 devices of the group (scatter_axis)}}
  %0 = mesh.reduce_scatter %x on @mesh0 mesh_axes = [1] scatter_axis = 0 : tensor<3x4xf32> -> tensor<1x4xf64>
  return %0 : tensor<1x4xf64>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @reduce_scatter_dim(%x: tensor<4x4xf32>) -> tensor<4x4xf64> {
  // expected-error@+1 {{'mesh.reduce_scatter' op result dimension 0 must be 2 (4 / 2 devices), got 4}}
  %0 = mesh.reduce_scatter %x on @mesh0 mesh_axes = [1] scatter_axis = 0 : tensor<4x4xf32> -> tensor<4x4xf64>
  return %0 : tensor<4x4xf64>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @reduce_scatter_other_dim(%x: tensor<4x4xf32>) -> tensor<2x2xf64> {
  // expected-error@+1 {{'mesh.reduce_scatter' op result dimension 1 must equal the input dimension 4, got 2}}
  %0 = mesh.reduce_scatter %x on @mesh0 mesh_axes = [1] scatter_axis = 0 : tensor<4x4xf32> -> tensor<2x2xf64>
  return %0 : tensor<2x2xf64>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @scatter_dim(%x: tensor<4x2xi8>) -> tensor<4x2xi8> {
  // expected-error@+1 {{'mesh.scatter' op result dimension 0 must be 2 (4 / 2 devices), got 4}}
  %0 = mesh.scatter %x on @mesh0 mesh_axes = [0] scatter_axis = 0 root = [1] : (tensor<4x2xi8>) -> tensor<4x2xi8>
  return %0 : tensor<4x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @gather_dim(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  // expected-error@+1 {{'mesh.gather' op result dimension 1 must be 4 (2 * 2 devices), got 2}}
  %0 = mesh.gather %x on @mesh0 mesh_axes = [1] gather_axis = 1 root = [1] : (tensor<2x2xi8>) -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @gather_element_type(%x: tensor<2x2xi8>) -> tensor<2x4xf32> {
  // expected-error@+1 {{'mesh.gather' op result element type f32 must equal the input element type i8}}
  %0 = mesh.gather %x on @mesh0 mesh_axes = [1] gather_axis = 1 root = [1] : (tensor<2x2xi8>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @all_reduce_shape(%x: tensor<3x4xf32>) -> tensor<3x5xf64> {
  // expected-error@+1 {{'mesh.all_reduce' op result shape 3x5 must equal the input shape 3x4}}
  %0 = mesh.all_reduce %x on @mesh0 mesh_axes = [0] : tensor<3x4xf32> -> tensor<3x5xf64>
  return %0 : tensor<3x5xf64>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @broadcast_shape(%x: tensor<2x2xi8>) -> tensor<2x3xi8> {
  // expected-error@+1 {{'mesh.broadcast' op result shape 2x3 must equal the input shape 2x2}}
  %0 = mesh.broadcast %x on @mesh0 mesh_axes = [0] root = [0] : (tensor<2x2xi8>) -> tensor<2x3xi8>
  return %0 : tensor<2x3xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @broadcast_element_type(%x: tensor<2x2xi8>) -> tensor<2x2xi32> {
  // expected-error@+1 {{'mesh.broadcast' op result element type i32 must equal the input element type i8}}
  %0 = mesh.broadcast %x on @mesh0 mesh_axes = [0] root = [0] : (tensor<2x2xi8>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @shift_shape(%x: tensor<2x2xi8>) -> tensor<4x2xi8> {
  // expected-error@+1 {{'mesh.shift' op result shape 4x2 must equal the input shape 2x2}}
  %0 = mesh.shift %x on @mesh0 mesh_axes = [1] shift_axis = 1 offset = 1 : tensor<2x2xi8> -> tensor<4x2xi8>
  return %0 : tensor<4x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @shift_element_type(%x: tensor<2x2xi8>) -> tensor<2x2xf16> {
  // expected-error@+1 {{'mesh.shift' op result element type f16 must equal the input element type i8}}
  %0 = mesh.shift %x on @mesh0 mesh_axes = [1] shift_axis = 1 offset = 1 : tensor<2x2xi8> -> tensor<2x2xf16>
  return %0 : tensor<2x2xf16>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @send_shape(%x: tensor<2x2xi8>) -> tensor<2xi8> {
  // expected-error@+1 {{'mesh.send' op result shape 2 must equal the input shape 2x2}}
  %0 = mesh.send %x on @mesh0 mesh_axes = [1] destination = [1] : (tensor<2x2xi8>) -> tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @send_element_type(%x: tensor<2x2xi8>) -> tensor<2x2xi1> {
  // expected-error@+1 {{'mesh.send' op result element type i1 must equal the input element type i8}}
  %0 = mesh.send %x on @mesh0 mesh_axes = [1] destination = [1] : (tensor<2x2xi8>) -> tensor<2x2xi1>
  return %0 : tensor<2x2xi1>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @recv_shape(%x: tensor<2x2xi8>) -> tensor<2x1xi8> {
  // expected-error@+1 {{'mesh.recv' op result shape 2x1 must equal the input shape 2x2}}
  %0 = mesh.recv %x on @mesh0 mesh_axes = [1] source = [1] : (tensor<2x2xi8>) -> tensor<2x1xi8>
  return %0 : tensor<2x1xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @recv_element_type(%x: tensor<2x2xi8>) -> tensor<2x2xf32> {
  // expected-error@+1 {{'mesh.recv' op result element type f32 must equal the input element type i8}}
  %0 = mesh.recv %x on @mesh0 mesh_axes = [1] : (tensor<2x2xi8>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

//===----------------------------------------------------------------------===//
// In-group device indices (root, source, destination) and shift_axis
//===----------------------------------------------------------------------===//

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @broadcast_root_arity(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  // expected-error@+1 {{'mesh.broadcast' op root has 1 entries but mesh_axes has 2}}
  %0 = mesh.broadcast %x on @mesh0 mesh_axes = [0, 1] root = [0] : (tensor<2x2xi8>) -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @reduce_root_arity(%x: tensor<2x2xi8>, %r: index) -> tensor<2x2xi8> {
  // expected-error@+1 {{'mesh.reduce' op root has 2 entries but mesh_axes has 1}}
  %0 = mesh.reduce %x on @mesh0 mesh_axes = [0] root = [0, %r] : (tensor<2x2xi8>, index) -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @scatter_root_arity(%x: tensor<4x2xi8>) -> tensor<2x2xi8> {
  // expected-error@+1 {{'mesh.scatter' op root has 0 entries but mesh_axes has 1}}
  %0 = mesh.scatter %x on @mesh0 mesh_axes = [0] scatter_axis = 0 root = [] : (tensor<4x2xi8>) -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @send_destination_arity(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  // expected-error@+1 {{'mesh.send' op destination has 0 entries but mesh_axes has 1}}
  %0 = mesh.send %x on @mesh0 mesh_axes = [0] destination = [] : (tensor<2x2xi8>) -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @recv_source_arity(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  // expected-error@+1 {{'mesh.recv' op source has 2 entries but mesh_axes has 1}}
  %0 = mesh.recv %x on @mesh0 mesh_axes = [0] source = [0, 1] : (tensor<2x2xi8>) -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @recv_dynamic_source_without_attribute(%x: tensor<2xi8>, %i: index) -> tensor<2xi8> {
  // expected-error@+1 {{'mesh.recv' op has 1 dynamic source operands but no source attribute}}
  %0 = "mesh.recv"(%x, %i) {mesh = @mesh0, mesh_axes = array<i16: 1>} : (tensor<2xi8>, index) -> tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x3)
func.func @broadcast_root_out_of_range(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  // expected-error@+1 {{'mesh.broadcast' op root index 3 is out of range for mesh axis 1 of size 3}}
  %0 = mesh.broadcast %x on @mesh0 mesh_axes = [1] root = [3] : (tensor<2x2xi8>) -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x3)
func.func @reduce_root_out_of_range(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  // expected-error@+1 {{'mesh.reduce' op root index 3 is out of range for mesh axis 1 of size 3}}
  %0 = mesh.reduce %x on @mesh0 mesh_axes = [1] root = [3] : (tensor<2x2xi8>) -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x3)
func.func @scatter_root_out_of_range(%x: tensor<4x2xi8>) -> tensor<2x2xi8> {
  // expected-error@+1 {{'mesh.scatter' op root index 2 is out of range for mesh axis 0 of size 2}}
  %0 = mesh.scatter %x on @mesh0 mesh_axes = [0] scatter_axis = 0 root = [2] : (tensor<4x2xi8>) -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x3)
func.func @gather_root_out_of_range(%x: tensor<2x2xi8>) -> tensor<2x4xi8> {
  // expected-error@+1 {{'mesh.gather' op root index 2 is out of range for mesh axis 0 of size 2}}
  %0 = mesh.gather %x on @mesh0 mesh_axes = [0] gather_axis = 1 root = [2] : (tensor<2x2xi8>) -> tensor<2x4xi8>
  return %0 : tensor<2x4xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x3)
func.func @send_destination_negative(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  // expected-error@+1 {{'mesh.send' op destination index -1 is out of range for mesh axis 1 of size 3}}
  %0 = mesh.send %x on @mesh0 mesh_axes = [1] destination = [-1] : (tensor<2x2xi8>) -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x3)
func.func @recv_source_out_of_range(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  // expected-error@+1 {{'mesh.recv' op source index 5 is out of range for mesh axis 1 of size 3}}
  %0 = mesh.recv %x on @mesh0 mesh_axes = [0, 1] source = [1, 5] : (tensor<2x2xi8>) -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @shift_axis_not_in_mesh_axes(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  // expected-error@+1 {{'mesh.shift' op shift_axis 0 must be one of mesh_axes [1]}}
  %0 = mesh.shift %x on @mesh0 mesh_axes = [1] shift_axis = 0 offset = 1 : tensor<2x2xi8> -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

//===----------------------------------------------------------------------===//
// mesh.update_halo
//===----------------------------------------------------------------------===//

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @update_halo_destination_size(%t: tensor<6x8xf32>, %d: tensor<9x8xf32>) -> tensor<9x8xf32> {
  // expected-error@+1 {{'mesh.update_halo' op destination dimension 0 of size 9 must hold the source's 4 elements plus its halos 2 and 2, got 5 elements}}
  %0 = mesh.update_halo %t into %d on @mesh0 split_axes = [[0]] source_halo_sizes = [1, 1] destination_halo_sizes = [2, 2] : tensor<6x8xf32> -> tensor<9x8xf32>
  return %0 : tensor<9x8xf32>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @update_halo_destination_halo_count(%t: tensor<6x8xf32>, %d: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error@+1 {{'mesh.update_halo' op destination_halo_sizes needs 2 entries per sharded tensor dimension (2), got 3}}
  %0 = mesh.update_halo %t into %d on @mesh0 split_axes = [[0]] destination_halo_sizes = [2, 2, 1] : tensor<6x8xf32> -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @update_halo_source_halo_count(%t: tensor<6x8xf32>, %d: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error@+1 {{'mesh.update_halo' op source_halo_sizes needs 2 entries per sharded tensor dimension (4), got 2}}
  %0 = mesh.update_halo %t into %d on @mesh0 split_axes = [[0], [1]] source_halo_sizes = [1, 1] : tensor<6x8xf32> -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @update_halo_negative_halo(%t: tensor<6x8xf32>) -> tensor<6x8xf32> {
  // expected-error@+1 {{'mesh.update_halo' op halo sizes must be non-negative, got -1}}
  %0 = mesh.update_halo %t into %t on @mesh0 split_axes = [[0]] destination_halo_sizes = [-1, 1] : tensor<6x8xf32> -> tensor<6x8xf32>
  return %0 : tensor<6x8xf32>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @update_halo_split_axes_out_of_range(%t: tensor<6x8xf32>) -> tensor<6x8xf32> {
  // expected-error@+1 {{'mesh.update_halo' op mesh axis 2 is out of range for mesh @mesh0 of rank 2}}
  %0 = mesh.update_halo %t into %t on @mesh0 split_axes = [[2]] : tensor<6x8xf32> -> tensor<6x8xf32>
  return %0 : tensor<6x8xf32>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @update_halo_split_axes_duplicated(%t: tensor<6x8xf32>) -> tensor<6x8xf32> {
  // expected-error@+1 {{'mesh.update_halo' op mesh axis 0 appears more than once in split_axes}}
  %0 = mesh.update_halo %t into %t on @mesh0 split_axes = [[0], [0]] : tensor<6x8xf32> -> tensor<6x8xf32>
  return %0 : tensor<6x8xf32>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @update_halo_split_axes_rank(%t: tensor<6x8xf32>) -> tensor<6x8xf32> {
  // expected-error@+1 {{'mesh.update_halo' op split_axes has 3 tensor dimensions but the source has rank 2}}
  %0 = mesh.update_halo %t into %t on @mesh0 split_axes = [[0], [], [1]] : tensor<6x8xf32> -> tensor<6x8xf32>
  return %0 : tensor<6x8xf32>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @update_halo_element_type(%t: tensor<6x8xf32>, %d: tensor<8x8xf16>) -> tensor<8x8xf16> {
  // expected-error@+1 {{'mesh.update_halo' op result element type f16 must equal the input element type f32}}
  %0 = "mesh.update_halo"(%t, %d) {mesh = @mesh0, split_axes = #mesh.axisarray<[[0]]>, static_source_halo_sizes = array<i64>, static_destination_halo_sizes = array<i64>, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<6x8xf32>, tensor<8x8xf16>) -> tensor<8x8xf16>
  return %0 : tensor<8x8xf16>
}

//===----------------------------------------------------------------------===//
// Tensors of rank 0 where the op needs rank >= 1
//===----------------------------------------------------------------------===//

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @all_gather_rank0_input(%x: tensor<i8>) -> tensor<2xi8> {
  // expected-error@+1 {{'mesh.all_gather' op input must have rank >= 1, got tensor<i8>}}
  %0 = mesh.all_gather %x on @mesh0 mesh_axes = [1] gather_axis = 0 : tensor<i8> -> tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @all_slice_rank0_result(%x: tensor<2xi8>) -> tensor<i8> {
  // expected-error@+1 {{'mesh.all_slice' op result must have rank >= 1, got tensor<i8>}}
  %0 = mesh.all_slice %x on @mesh0 mesh_axes = [1] slice_axis = 0 : tensor<2xi8> -> tensor<i8>
  return %0 : tensor<i8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @send_rank0_input(%x: tensor<i8>) -> tensor<i8> {
  // expected-error@+1 {{'mesh.send' op input must have rank >= 1, got tensor<i8>}}
  %0 = mesh.send %x on @mesh0 mesh_axes = [1] destination = [0] : (tensor<i8>) -> tensor<i8>
  return %0 : tensor<i8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @update_halo_rank0(%t: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'mesh.update_halo' op source must have rank >= 1, got tensor<f32>}}
  %0 = mesh.update_halo %t into %t on @mesh0 split_axes = [[0]] : tensor<f32> -> tensor<f32>
  return %0 : tensor<f32>
}

//===----------------------------------------------------------------------===//
// Attributes of the wrong kind, in the generic form
//===----------------------------------------------------------------------===//

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @mesh_axes_i32(%x: tensor<2xi8>) -> tensor<2xi8> {
  // expected-error@+1 {{'mesh.all_reduce' op mesh_axes must be an array<i16>, got array<i32: 1>}}
  %0 = "mesh.all_reduce"(%x) {mesh = @mesh0, mesh_axes = array<i32: 1>, reduction = #mesh.partial<"sum">} : (tensor<2xi8>) -> tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

// expected-error@+1 {{'mesh.mesh' op shape must be an array<i64>, got array<i32: 2>}}
"mesh.mesh"() {sym_name = "m", shape = array<i32: 2>} : () -> ()

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @gather_axis_i64(%x: tensor<2xi8>) -> tensor<4xi8> {
  // expected-error@+1 {{'mesh.all_gather' op gather_axis must be an integer of type index, got 0 : i64}}
  %0 = "mesh.all_gather"(%x) {mesh = @mesh0, mesh_axes = array<i16: 1>, gather_axis = 0 : i64} : (tensor<2xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @shift_offset_i32(%x: tensor<2xi8>) -> tensor<2xi8> {
  // expected-error@+1 {{'mesh.shift' op offset must be an integer of type i64, got 1 : i32}}
  %0 = "mesh.shift"(%x) {mesh = @mesh0, mesh_axes = array<i16: 1>, shift_axis = 1 : index, offset = 1 : i32} : (tensor<2xi8>) -> tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @split_axes_i64() {
  // expected-error@+1 {{'mesh.sharding' op split_axes must hold arrays of i16 mesh axes, got #mesh.axisarray<[array<i64: 0>]>}}
  %s = "mesh.sharding"() {mesh = @mesh0, split_axes = #mesh.axisarray<[array<i64: 0>]>, static_halo_sizes = array<i64>, static_sharded_dims_offsets = array<i64>, operandSegmentSizes = array<i32: 0, 0>} : () -> !mesh.sharding
  return
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @mesh_as_string(%x: tensor<2xi8>) -> tensor<4xi8> {
  // IRDL checks the attribute's kind while parsing.
  // expected-error@+1 {{expected base attribute 'builtin.symbol_ref' but got 'builtin.string'}}
  %0 = "mesh.all_gather"(%x) {mesh = "mesh0", mesh_axes = array<i16: 1>, gather_axis = 0 : index} : (tensor<2xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @unknown_reduction_kind(%x: tensor<2xi8>) -> tensor<2xi8> {
  // IRDL checks the reduction kind while parsing.
  // expected-error@+1 {{'"foo"' does not satisfy the constraint}}
  %0 = "mesh.all_reduce"(%x) {mesh = @mesh0, mesh_axes = array<i16: 1>, reduction = #mesh.partial<"foo">} : (tensor<2xi8>) -> tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @unranked_tensor(%x: tensor<*xi8>) -> tensor<2x2xi8> {
  // expected-error@+1 {{expected base type 'builtin.tensor' but got 'builtin.unranked_tensor'}}
  %0 = mesh.all_reduce %x on @mesh0 mesh_axes = [0] : tensor<*xi8> -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2)
func.func @bitwise_partial_of_floats(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %s = mesh.sharding @mesh0 split_axes = [[]] partial = bitwise_xor [0] : !mesh.sharding
  // expected-error@+1 {{'mesh.shard' op partial = bitwise_xor needs an integer element type, got f32}}
  %0 = mesh.shard %arg0 to %s annotate_for_users : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A collective accumulates in its result type: the same rule.
mesh.mesh @mesh0(shape = 2x2)
func.func @bitwise_reduction_of_floats(%arg0: tensor<4xf32>, %arg1: tensor<4xi32>) -> tensor<4xf32> {
  // expected-error@+1 {{'mesh.all_reduce' op reduction = bitwise_xor needs an integer element type, got f32}}
  %0 = mesh.all_reduce %arg0 on @mesh0 mesh_axes = [0] reduction = <bitwise_xor> : tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @bitwise_reduction_into_floats(%arg1: tensor<4xi32>) -> tensor<4xf32> {
  // expected-error@+1 {{'mesh.reduce' op reduction = bitwise_or needs an integer element type, got f32}}
  %0 = mesh.reduce %arg1 on @mesh0 mesh_axes = [0] reduction = <bitwise_or> root = [0] : (tensor<4xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

mesh.mesh @mesh0(shape = 2)
func.func @max_partial_of_complex(%arg0: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %s = mesh.sharding @mesh0 split_axes = [[]] partial = max [0] : !mesh.sharding
  // expected-error@+1 {{'mesh.shard' op partial = max needs an ordered element type, got complex<f32>}}
  %0 = mesh.shard %arg0 to %s : tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

// MLIR takes a symbol name of any bytes; the passes name meshes with
// Python strings, so one that is not UTF-8 is refused here (it was an
// internal error without a position).
// expected-error@+1 {{'mesh.mesh' op mesh name must be valid UTF-8, got @"m\FF"}}
mesh.mesh @"m\FF"(shape = 2)
func.func @mesh_name_not_utf8(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'mesh.sharding' op mesh name must be valid UTF-8, got @"m\FF"}}
  %s = mesh.sharding @"m\FF" split_axes = [[0]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A mesh of such a name elsewhere does not stop the verifier explaining an
// unknown one.
// expected-error@+1 {{'mesh.mesh' op mesh name must be valid UTF-8, got @"m\FF"}}
mesh.mesh @"m\FF"(shape = 2)
func.func @other_mesh_not_utf8(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'mesh.sharding' op mesh symbol @m is not defined}}
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s : tensor<4xf32>
  return %0 : tensor<4xf32>
}
