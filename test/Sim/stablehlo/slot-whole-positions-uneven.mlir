// Reading or writing one slot of a cache whose positions the devices hold in
// pieces of unequal sizes (10 over 4, cut 3, 3, 3, 1; 7 over 2, cut 4 and 3),
// the positions taken whole: each device takes its own. A dynamic_slice's
// `slice_sizes` cannot say a piece's size, so the read becomes a
// tensor.extract_slice of the piece (from the slot, clamped as the op
// clamps it); the write runs as it is, typed dynamic. With the slots split
// too, the device holding the slot writes it (the others keep their piece)
// and reads it (the others give zeros, summed once). Before, these ops kept
// to even pieces: @read_slot moved 360 bytes a device, @write_slot 648
// (all_to_alls there and back), @write_mixed 144, @read_mixed 128.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-opt --mesh-analysis %t.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BYTES
// RUN: mesh-run %t.mlir -f read_slot --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f read_slot --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f write_slot --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f write_slot --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f write_mixed --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f write_mixed --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f read_mixed --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f read_mixed --compare-with %s -q --seed 2 | FileCheck %s
// CHECK: match

mesh.mesh @mesh(shape = 4)
mesh.mesh @mesh2(shape = 2x2)
func.func @read_slot(%cache: tensor<4x10x8xf32>, %slot: tensor<i32>) -> tensor<1x10x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [0]] sharded_dims_offsets = [0, 3, 6, 9, 10] : !mesh.sharding
  %cs = mesh.shard %cache to %s : tensor<4x10x8xf32>
  %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %r = "stablehlo.dynamic_slice"(%cs, %slot, %c0, %c0) <{slice_sizes = array<i64: 1, 10, 8>}> : (tensor<4x10x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x10x8xf32>
  %t = "stablehlo.tanh"(%r) : (tensor<1x10x8xf32>) -> tensor<1x10x8xf32>
  %o = mesh.shard %t to %s : tensor<1x10x8xf32>
  return %o : tensor<1x10x8xf32>
}
func.func @write_slot(%cache: tensor<4x10x8xf32>, %new: tensor<1x10x8xf32>, %slot: tensor<i32>) -> tensor<4x10x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [0]] sharded_dims_offsets = [0, 3, 6, 9, 10] : !mesh.sharding
  %cs = mesh.shard %cache to %s : tensor<4x10x8xf32>
  %ns = mesh.shard %new to %s : tensor<1x10x8xf32>
  %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %r = "stablehlo.dynamic_update_slice"(%cs, %ns, %slot, %c0, %c0) : (tensor<4x10x8xf32>, tensor<1x10x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x10x8xf32>
  %o = mesh.shard %r to %s : tensor<4x10x8xf32>
  return %o : tensor<4x10x8xf32>
}
func.func @write_mixed(%cache: tensor<4x7x3xf32>, %new: tensor<1x7x3xf32>, %slot: tensor<i32>, %col: tensor<i32>) -> tensor<4x7x3xf32> {
  %s = mesh.sharding @mesh2 split_axes = [[0], [1]] sharded_dims_offsets = [0, 2, 4, 0, 4, 7] : !mesh.sharding
  %n = mesh.sharding @mesh2 split_axes = [[], [1]] sharded_dims_offsets = [0, 4, 7] : !mesh.sharding
  %cs = mesh.shard %cache to %s : tensor<4x7x3xf32>
  %ns = mesh.shard %new to %n : tensor<1x7x3xf32>
  %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %r = "stablehlo.dynamic_update_slice"(%cs, %ns, %slot, %c0, %col) : (tensor<4x7x3xf32>, tensor<1x7x3xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x7x3xf32>
  %o = mesh.shard %r to %s : tensor<4x7x3xf32>
  return %o : tensor<4x7x3xf32>
}
func.func @read_mixed(%cache: tensor<4x7x3xf32>, %slot: tensor<i32>, %col: tensor<i32>) -> tensor<1x7x2xf32> {
  %s = mesh.sharding @mesh2 split_axes = [[0], [1]] sharded_dims_offsets = [0, 2, 4, 0, 4, 7] : !mesh.sharding
  %n = mesh.sharding @mesh2 split_axes = [[], [1]] sharded_dims_offsets = [0, 4, 7] : !mesh.sharding
  %cs = mesh.shard %cache to %s : tensor<4x7x3xf32>
  %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %r = "stablehlo.dynamic_slice"(%cs, %slot, %c0, %col) <{slice_sizes = array<i64: 1, 7, 2>}> : (tensor<4x7x3xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x7x2xf32>
  %o = mesh.shard %r to %n : tensor<1x7x2xf32>
  return %o : tensor<1x7x2xf32>
}

// IR-LABEL: func.func @read_slot(%arg0: tensor<4x?x8xf32>
// IR-NOT: mesh.all_
// IR: %[[HELD:.*]] = tensor.dim %arg0, %c1 : tensor<4x?x8xf32>
// IR: %[[LOW:.*]] = arith.maxsi %{{.*}}, %c0 : index
// IR: %[[SLOT:.*]] = arith.minsi %[[LOW]], %c3 : index
// IR: %[[READ:.*]] = tensor.extract_slice %arg0[%[[SLOT]], 0, 0] [1, %[[HELD]], 8] [1, 1, 1] : tensor<4x?x8xf32> to tensor<1x?x8xf32>
// IR: "stablehlo.tanh"(%[[READ]]) : (tensor<1x?x8xf32>) -> tensor<1x?x8xf32>
// IR-LABEL: func.func @write_slot(
// IR-NOT: mesh.all_
// IR: "stablehlo.dynamic_update_slice"(%arg0, %arg1, %arg2, %{{.*}}, %{{.*}}) : (tensor<4x?x8xf32>, tensor<1x?x8xf32>, {{.*}}) -> tensor<4x?x8xf32>
// IR-LABEL: func.func @write_mixed(
// IR-NOT: mesh.all
// IR: %[[HERE:.*]] = arith.andi
// IR: %[[WRITTEN:.*]] = "stablehlo.dynamic_update_slice"(%arg0, %arg1, %{{.*}}, %{{.*}}, %arg3) : (tensor<2x?x3xf32>, tensor<1x?x3xf32>, {{.*}}) -> tensor<2x?x3xf32>
// IR: arith.select %[[HERE]], %[[WRITTEN]], %arg0 : tensor<2x?x3xf32>
// IR-LABEL: func.func @read_mixed(
// IR: %[[ZEROS:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x?x2xf32>) -> tensor<1x?x2xf32>
// IR: %[[PICKED:.*]] = arith.select %{{.*}}, %{{.*}}, %[[ZEROS]] : tensor<1x?x2xf32>
// IR: mesh.all_reduce %[[PICKED]] on @mesh2 mesh_axes = [0] : tensor<1x?x2xf32> -> tensor<1x?x2xf32>

// BYTES-LABEL: @read_slot on @mesh
// BYTES: max - 0
// BYTES-LABEL: @write_slot on @mesh
// BYTES: max - 0
// BYTES-LABEL: @write_mixed on @mesh2
// BYTES: max - 0
// BYTES-LABEL: @read_mixed on @mesh2
// BYTES: max all_reduce 1 32
