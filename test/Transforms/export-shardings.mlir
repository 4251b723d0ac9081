// export-shardings: layouts back as Shardy attributes for jax.jit.
// RUN: mesh-opt --split-input-file --allow-unregistered-dialect --export-shardings %s | FileCheck %s
// RUN: mesh-opt --split-input-file --allow-unregistered-dialect --pass-pipeline='builtin.module(export-shardings{strip=false})' %s | FileCheck %s --check-prefix=KEEP
// RUN: mesh-opt --split-input-file --allow-unregistered-dialect --pass-pipeline='builtin.module(export-shardings{python=true})' %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PY
// Importing what it writes gives the same annotations back:
// RUN: mesh-opt --split-input-file --allow-unregistered-dialect --export-shardings --import-shardings %s | FileCheck %s --check-prefix=BACK

// Names kept by import-shardings: model's two halves are sub-axes of one
// axis again (merged where adjacent); a partial result is unreduced; an
// argument read only through annotations for users that agree has their
// layout; an unannotated one gets no attribute.
mesh.mesh @mesh(shape = 2x2x2) {mesh.axis_names = ["data", "model:(1)2", "model:(2)2"]}
func.func @main(%x: tensor<8x16xf32>, %w: tensor<16x32xf32>, %b: tensor<8x32xf32>, %u: tensor<8x32xf32>) -> (tensor<8x32xf32> {jax.result_info = "result"}, tensor<8x32xf32>) {
  %s0 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s0 : tensor<8x16xf32>
  %s1 = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
  %w0 = mesh.shard %w to %s1 : tensor<16x32xf32>
  %s2 = mesh.sharding @mesh split_axes = [[], [1, 2]] : !mesh.sharding
  %b0 = mesh.shard %b to %s2 annotate_for_users : tensor<8x32xf32>
  %b1 = mesh.shard %b to %s2 annotate_for_users : tensor<8x32xf32>
  %m = "test.matmul"(%x0, %w0, %b0, %b1) {mesh.sharding_option = #mesh.sharding<@mesh, [[0], [1]]>} : (tensor<8x16xf32>, tensor<16x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
  %s3 = mesh.sharding @mesh split_axes = [[0]] partial = sum [2] : !mesh.sharding
  %r = mesh.shard %m to %s3 annotate_for_users : tensor<8x32xf32>
  return %r, %u : tensor<8x32xf32>, tensor<8x32xf32>
}

// CHECK-LABEL: module {
// CHECK-NEXT:    "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh"}> : () -> ()
// CHECK-NEXT:    func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}, %arg1: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model":(1)2}]>}, %arg2: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>}, %arg3: tensor<8x32xf32>) -> (tensor<8x32xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}], unreduced={"model":(2)2}>}, tensor<8x32xf32>) {
// CHECK-NEXT:      %[[M:.*]] = "test.matmul"(%arg0, %arg1, %arg2, %arg2) : (
// CHECK-NEXT:      return %[[M]], %arg3
// CHECK-NOT:     mesh.

// KEEP-LABEL: module {
// KEEP-NEXT:    "sdy.mesh"() <{mesh = #sdy.mesh<["data"=2, "model"=4]>, sym_name = "mesh_sdy"}> : () -> ()
// KEEP-NEXT:    mesh.mesh @mesh(shape = 2x2x2)
// KEEP-NEXT:    func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh_sdy, [{"data"}, {}]>}
// KEEP:           mesh.shard
// KEEP:           mesh.sharding_option

// PY:      remark: jit shardings of @main:
// PY-NEXT: mesh = jax.make_mesh((2, 4), ('data', 'model'))
// PY-NEXT: in_shardings = (NamedSharding(mesh, P('data')), None, NamedSharding(mesh, P(None, 'model')), None)
// PY-NEXT: out_shardings = (None, None)
// PY-NEXT: # argument 1: #sdy.sharding<@mesh, [{}, {"model":(1)2}]> uses sub-axes, which a PartitionSpec cannot name
// PY-NEXT: # result 0: #sdy.sharding<@mesh, [{"data"}, {}], unreduced={"model":(2)2}> uses sub-axes, which a PartitionSpec cannot name

// BACK-LABEL: mesh.mesh @mesh(shape = 2x2x2) {mesh.axis_names = ["data", "model:(1)2", "model:(2)2"]}
// BACK:         mesh.sharding @mesh split_axes = {{\[\[}}0]] :
// BACK:         mesh.sharding @mesh split_axes = {{\[\[}}], [1]] :
// BACK:         mesh.sharding @mesh split_axes = {{\[\[}}], [1, 2]] :
// BACK:         mesh.sharding @mesh split_axes = {{\[\[}}0]] partial = sum [2] :

// -----

// A per-device program (after mesh-partition): layouts from the signature;
// its collectives keep the mesh, so the sdy.mesh takes another name. Axes
// without names are numbered. Halos have no Shardy counterpart.
mesh.mesh @mesh(shape = 4)
func.func @spmd(%x: tensor<2x8xf32> {mesh.sharding = #mesh.sharding<@mesh, [[0]]>}, %h: tensor<4x8xf32> {mesh.sharding = #mesh.sharding<@mesh, [[0]], halo_sizes = [1, 1]>}) -> (tensor<8x8xf32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>}) {
  %0 = mesh.all_gather %x on @mesh mesh_axes = [0] gather_axis = 0 : tensor<2x8xf32> -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// CHECK-LABEL: module {
// CHECK-NEXT:    "sdy.mesh"() <{mesh = #sdy.mesh<["axis0"=4]>, sym_name = "mesh_sdy"}> : () -> ()
// CHECK-NEXT:    mesh.mesh @mesh(shape = 4)
// CHECK-NEXT:    func.func @spmd(%arg0: tensor<2x8xf32> {sdy.sharding = #sdy.sharding<@mesh_sdy, [{"axis0"}, {}]>}, %arg1: tensor<4x8xf32>) -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh_sdy, [{}, {}]>}) {

// PY:      warning: halos have no shardy counterpart; left out of argument 1: split_axes = {{\[\[}}0]] halo_sizes = [1, 1]
// PY:      remark: jit shardings of @spmd:
// PY-NEXT: mesh = jax.make_mesh((4,), ('axis0',))
// PY-NEXT: in_shardings = (NamedSharding(mesh, P('axis0')), None)
// PY-NEXT: out_shardings = (NamedSharding(mesh, P()),)

// -----

// A full axis that is partial becomes unreduced, in the PartitionSpec too.
mesh.mesh @m(shape = 2x4) {mesh.axis_names = ["data", "model"]}
func.func @partial(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @m split_axes = [[0]] partial = max [1] : !mesh.sharding
  %0 = mesh.shard %x to %s : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// CHECK-LABEL: func.func @partial(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"data"}], unreduced=max{"model"}>}) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"data"}], unreduced=max{"model"}>})
// PY:      remark: jit shardings of @partial:
// PY-NEXT: mesh = jax.make_mesh((2, 4), ('data', 'model'))
// A PartitionSpec's unreduced axes are a pending sum: a pending max is left to JAX, with a note.
// PY-NEXT: in_shardings = (None,)
// PY-NEXT: out_shardings = (None,)
// PY-NEXT: # argument 0: #sdy.sharding<@m, [{"data"}], unreduced=max{"model"}> is unreduced by max, which a PartitionSpec cannot say

// -----

// A mesh whose devices are not in mesh order is built from that order.
mesh.mesh @m(shape = 2x2) {mesh.axis_names = ["x", "y"], mesh.device_ids = array<i64: 0, 2, 1, 3>}
func.func @device_order(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s = mesh.sharding @m split_axes = [[0], [1]] : !mesh.sharding
  %0 = mesh.shard %x to %s : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// PY:      remark: jit shardings of @device_order:
// PY-NEXT: mesh = jax.sharding.Mesh(np.asarray(jax.devices()){{\[\[}}0, 2, 1, 3]].reshape((2, 2)), ('x', 'y'))
// PY-NEXT: in_shardings = (NamedSharding(mesh, P('x', 'y')),)
