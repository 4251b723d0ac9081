// In a function whose annotations cut a size by offsets (XLA's cut of 31
// over 4 is 8, 8, 8, 7; the default one 7, 8, 8, 8), the ops that run on
// pieces of unequal sizes run on that cut, `arith`, `linalg` and `tensor`
// ops as well as hlo ones, and a slice's operand is laid out for its
// outputs so cut.  Before, only hlo elementwise ops did: the others
// gathered their operands (an elementwise subtract 768 bytes a device, a
// pair of slices and their difference 2,112), and an hlo slice put its
// outputs in the default cut and recut them.  (Where two annotations cut a
// size differently by offsets, or a size the mesh divides otherwise than
// evenly, only hlo ops run on unequal pieces there, as before.)  Each
// function simulates equal to the original.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir -f sub --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir -f sub --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir -f diff --compare-with %s -q --seed 3 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir -f diff --compare-with %s -q --seed 4 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir -f hlo_diff --compare-with %s -q --seed 5 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir -f hlo_diff --compare-with %s -q --seed 6 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir -f default_beside_offsets --compare-with %s -q --seed 7 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir -f concat_to_default --compare-with %s -q --seed 8 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-opt --mesh-analysis %t.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BYTES
// MATCH: match

mesh.mesh @mesh(shape = 4)
mesh.mesh @m3(shape = 3)
mesh.mesh @m2(shape = 2)

// Both operands and the result in XLA's cut: nothing moves.
// BYTES-LABEL: @sub on @mesh
// BYTES: max     -                       0
// CHECK-LABEL: func.func @sub(
// CHECK-SAME: %arg0: tensor<8x?xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[\]}}, [0]], sharded_dims_offsets = [0, 8, 16, 24, 31]>}
// CHECK-NEXT: %[[D:.*]] = arith.subf %arg0, %arg1 : tensor<8x?xf32>
// CHECK-NEXT: return %[[D]] : tensor<8x?xf32>
func.func @sub(%x: tensor<8x31xf32>, %y: tensor<8x31xf32>) -> tensor<8x31xf32> {
  %xla = mesh.sharding @mesh split_axes = [[], [0]] sharded_dims_offsets = [0, 8, 16, 24, 31] : !mesh.sharding
  %xs = mesh.shard %x to %xla : tensor<8x31xf32>
  %ys = mesh.shard %y to %xla : tensor<8x31xf32>
  %d = arith.subf %xs, %ys : tensor<8x31xf32>
  %ds = mesh.shard %d to %xla : tensor<8x31xf32>
  return %ds : tensor<8x31xf32>
}

// x[:, 1:] - x[:, :-1] of 32 columns cut evenly, the 31 results in XLA's
// cut: x[:, :-1] reads each device's own columns; x[:, 1:] also reads the
// first column of the next device's piece (one halo of 8 floats, 32
// bytes; the default cut would need it for the other slice).
// BYTES-LABEL: @diff on @mesh
// BYTES: max     update_halo 1            32
// CHECK-LABEL: func.func @diff(
// CHECK-NOT: mesh.all_
// CHECK: mesh.update_halo %arg0 into %{{.*}} on @mesh split_axes = {{\[\[\]}}, [0]] destination_halo_sizes = [0, 1] : tensor<8x8xf32> -> tensor<8x9xf32>
// CHECK-NOT: mesh.all_
// CHECK: arith.subf
// CHECK-NOT: mesh.
// CHECK: return
func.func @diff(%x: tensor<8x32xf32>) -> tensor<8x31xf32> {
  %cols = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %xla = mesh.sharding @mesh split_axes = [[], [0]] sharded_dims_offsets = [0, 8, 16, 24, 31] : !mesh.sharding
  %xs = mesh.shard %x to %cols : tensor<8x32xf32>
  %a = tensor.extract_slice %xs[0, 1] [8, 31] [1, 1] : tensor<8x32xf32> to tensor<8x31xf32>
  %b = tensor.extract_slice %xs[0, 0] [8, 31] [1, 1] : tensor<8x32xf32> to tensor<8x31xf32>
  %d = arith.subf %a, %b : tensor<8x31xf32>
  %ds = mesh.shard %d to %xla : tensor<8x31xf32>
  return %ds : tensor<8x31xf32>
}

// The same in hlo, as JAX exports `x[:, 1:] - x[:, :-1]`: each slice is
// made again as a `tensor` slice of this device's columns.
// BYTES-LABEL: @hlo_diff on @mesh
// BYTES: max     update_halo 1            32
// CHECK-LABEL: func.func @hlo_diff(
// CHECK-NOT: mesh.all_
// CHECK: mesh.update_halo %arg0 into %{{.*}} on @mesh split_axes = {{\[\[\]}}, [0]] destination_halo_sizes = [0, 1] : tensor<8x8xf32> -> tensor<8x9xf32>
// CHECK-NOT: mesh.all_
// CHECK: "stablehlo.subtract"(%{{.*}}, %{{.*}}) : (tensor<8x?xf32>, tensor<8x?xf32>) -> tensor<8x?xf32>
// CHECK-NOT: mesh.
// CHECK: return
func.func @hlo_diff(%x: tensor<8x32xf32>) -> tensor<8x31xf32> {
  %cols = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %xla = mesh.sharding @mesh split_axes = [[], [0]] sharded_dims_offsets = [0, 8, 16, 24, 31] : !mesh.sharding
  %xs = mesh.shard %x to %cols : tensor<8x32xf32>
  %a = "stablehlo.slice"(%xs) <{start_indices = array<i64: 0, 1>, limit_indices = array<i64: 8, 32>, strides = array<i64: 1, 1>}> : (tensor<8x32xf32>) -> tensor<8x31xf32>
  %b = "stablehlo.slice"(%xs) <{start_indices = array<i64: 0, 0>, limit_indices = array<i64: 8, 31>, strides = array<i64: 1, 1>}> : (tensor<8x32xf32>) -> tensor<8x31xf32>
  %d = "stablehlo.subtract"(%a, %b) : (tensor<8x31xf32>, tensor<8x31xf32>) -> tensor<8x31xf32>
  %ds = mesh.shard %d to %xla : tensor<8x31xf32>
  return %ds : tensor<8x31xf32>
}

// A size cut by offsets in one annotation and by default in another: the
// value annotated with the default cut is priced in that cut (a layout
// without offsets is priced as the function's explicit cut, and an op
// split there runs on that cut), so the exp runs on the explicit pieces
// and the tanh, whose result is wanted in the default cut, whole on its
// whole argument: nothing moves.  (Priced as the explicit cut, the tanh ran
// on it and its result was recut: 144 bytes.)
// BYTES-LABEL: @default_beside_offsets on @m3
// BYTES: max     -                       0
// CHECK-LABEL: func.func @default_beside_offsets(
// CHECK-NOT: mesh.{{all_|recv|send|update_halo}}
// CHECK: return
func.func @default_beside_offsets(%x: tensor<5x9xf64>, %y: tensor<5xf64>) -> (tensor<5x9xf64>, tensor<5xf64>) {
  %c = mesh.sharding @m3 split_axes = [[0]] sharded_dims_offsets = [0, 2, 5, 5] : !mesh.sharding
  %d = mesh.sharding @m3 split_axes = [[0]] : !mesh.sharding
  %ys = mesh.shard %y to %c : tensor<5xf64>
  %e = math.exp %ys : tensor<5xf64>
  %es = mesh.shard %e to %c : tensor<5xf64>
  %t = math.tanh %x : tensor<5x9xf64>
  %ts = mesh.shard %t to %d : tensor<5x9xf64>
  return %ts, %es : tensor<5x9xf64>, tensor<5xf64>
}

// A concatenation of a whole argument and one cut 6, 1, its result wanted
// in the default cut (3, 4): the concatenation runs on the default pieces,
// the small operand gathered (48 bytes; run on the explicit cut, the result
// was recut: 96).
// BYTES-LABEL: @concat_to_default on @m2
// BYTES: max     all_gather 1            48
func.func @concat_to_default(%x: tensor<7x6xi32>, %y: tensor<7x2xi32>) -> tensor<7x8xi32> {
  %cut = mesh.sharding @m2 split_axes = [[0], []] sharded_dims_offsets = [0, 6, 7] : !mesh.sharding
  %ys = mesh.shard %y to %cut : tensor<7x2xi32>
  %c = tensor.concat dim(1) %x, %ys : (tensor<7x6xi32>, tensor<7x2xi32>) -> tensor<7x8xi32>
  %rows = mesh.sharding @m2 split_axes = [[0], []] : !mesh.sharding
  %cs = mesh.shard %c to %rows : tensor<7x8xi32>
  return %cs : tensor<7x8xi32>
}
