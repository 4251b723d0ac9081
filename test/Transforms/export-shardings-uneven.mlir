// Shardy cuts a dimension its devices do not divide into pieces of
// ceil(n / k), the last ones shorter; this dialect's default cut makes the
// last ones longer.  A layout whose pieces Shardy would cut differently is
// left out with a warning (written as the plain split, it would hand JAX
// other pieces); explicit offsets equal to Shardy's cut are written as the
// plain split they are, so an uneven Shardy layout survives import then
// export.
// RUN: mesh-opt --split-input-file --allow-unregistered-dialect --export-shardings %s 2>/dev/null | FileCheck %s
// RUN: mesh-opt --split-input-file --allow-unregistered-dialect --export-shardings %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WARN
// RUN: mesh-opt --allow-unregistered-dialect --import-shardings --export-shardings %S/Inputs/sdy-uneven.mlir 2>&1 | FileCheck %s --check-prefix=BACK

// WARN: warning: shardy would cut the pieces at [0, 2, 4, 6, 7], this layout cuts them at [0, 1, 3, 5, 7]; left out of argument 0: split_axes = {{\[\[}}0]]
// WARN: warning: shardy would cut the pieces at [0, 2, 4, 6, 7], this layout cuts them at [0, 1, 3, 5, 7]; left out of result 0: split_axes = {{\[\[}}0]]
// CHECK-LABEL: func.func @default_cut(%arg0: tensor<7xf32>) -> tensor<7xf32>
mesh.mesh @m(shape = 4)
func.func @default_cut(%a: tensor<7xf32>) -> tensor<7xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %0 = mesh.shard %a to %s : tensor<7xf32>
  return %0 : tensor<7xf32>
}

// -----

// CHECK-LABEL: func.func @shardys_cut(%arg0: tensor<7xf32> {sdy.sharding = #sdy.sharding<@m, [{"axis0"}]>}) -> (tensor<7xf32> {sdy.sharding = #sdy.sharding<@m, [{"axis0"}]>})
mesh.mesh @m(shape = 4)
func.func @shardys_cut(%a: tensor<7xf32>) -> tensor<7xf32> {
  %s = mesh.sharding @m split_axes = [[0]] sharded_dims_offsets = [0, 2, 4, 6, 7] : !mesh.sharding
  %0 = mesh.shard %a to %s : tensor<7xf32>
  return %0 : tensor<7xf32>
}

// -----

// WARN-NOT: warning
// WARN: warning: shardy would cut the pieces at [0, 4, 8], this layout cuts them at [0, 3, 8]; left out of argument 0: split_axes = {{\[\[}}], [0]] sharded_dims_offsets = [0, 3, 8]
// WARN: warning: shardy would cut the pieces at [0, 4, 8], this layout cuts them at [0, 3, 8]; left out of result 0: split_axes = {{\[\[}}], [0]] sharded_dims_offsets = [0, 3, 8]
// CHECK-LABEL: func.func @other_offsets(%arg0: tensor<2x8xf32>) -> tensor<2x8xf32>
mesh.mesh @m(shape = 2)
func.func @other_offsets(%a: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %s = mesh.sharding @m split_axes = [[], [0]] sharded_dims_offsets = [0, 3, 8] : !mesh.sharding
  %0 = mesh.shard %a to %s : tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// BACK-NOT: warning
// BACK: func.func @main(%arg0: tensor<5x6xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>}, %arg1: tensor<5x6xf32> {sdy.sharding = #sdy.sharding<@m, [{}, {"x"}]>}) -> (tensor<5xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>})
// WARN-NOT: warning

// -----

// A partitioned signature: the pieces' types are dynamic, but the offsets
// give the whole sizes (7x5), cut as Shardy cuts them.
// CHECK-LABEL: func.func @per_device_signature(%arg0: tensor<?x?xf32> {sdy.sharding = #sdy.sharding<@m, [{"axis0"}, {"axis1"}]>}) -> (tensor<?x?xf32> {sdy.sharding = #sdy.sharding<@m, [{"axis0"}, {"axis1"}]>})
mesh.mesh @m(shape = 4x2)
func.func @per_device_signature(%a: tensor<?x?xf32> {mesh.sharding = #mesh.sharding<@m, [[0], [1]], sharded_dims_offsets = [0, 2, 4, 6, 7, 0, 3, 5]>}) -> (tensor<?x?xf32> {mesh.sharding = #mesh.sharding<@m, [[0], [1]], sharded_dims_offsets = [0, 2, 4, 6, 7, 0, 3, 5]>}) {
  return %a : tensor<?x?xf32>
}

// -----

// 2^32 devices: the even pieces of a partitioned signature are exported
// without listing them, and an uneven default cut is left out with a
// warning that does not list them either (export listed every piece and
// ran out of memory).
// WARN: warning: shardy would cut the pieces at ['8 over 4294967296 pieces of 1'], this layout cuts them at ['8 over 4294967296 pieces, the last 8 one larger']; left out of argument 1: split_axes = {{\[\[}}0, 1]]
// CHECK-LABEL: func.func @huge_mesh(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"axis0", "axis1"}]>}, %arg1: tensor<8xf32>) -> tensor<8xf32>
mesh.mesh @m(shape = 65536x65536)
func.func @huge_mesh(%x: tensor<8xf32> {mesh.sharding = #mesh.sharding<@m, [[0, 1]]>}, %y: tensor<8xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @m split_axes = [[0, 1]] : !mesh.sharding
  %0 = mesh.shard %y to %s : tensor<8xf32>
  return %x : tensor<8xf32>
}
