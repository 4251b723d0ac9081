// A value held whole, annotated again in a split layout (a sharding
// constraint JAX writes, here on rows cut 4, 4, 4, 2 by offsets), then read
// whole by an op without a rule. Each device's piece was sliced out of the
// whole value it holds, so the way back is that value: partition used to
// gather the pieces (384 bytes a device, uneven ones padded to 4 rows and
// concatenated), and now reads the whole value. A slice nobody else reads
// is erased; one returned in its layout stays (@kept). A ResNet block whose
// input is constrained to rows over 4 devices before a convolution on 14
// rows moved 5,440 bytes a device this way, where XLA moves 3,744.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARK --allow-empty
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-opt --mesh-analysis %t.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BYTES
// RUN: mesh-run %t.mlir --compare-with %s -f back -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f kept -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f even -q --seed 3 | FileCheck %s
// CHECK: {{^}}match

// Nothing is gathered, so no remark says so.
// REMARK-NOT: gathered whole

// IR-LABEL: func.func @back(%arg0: tensor<14x8xf32>
// IR-NOT: mesh.all_gather
// IR-NOT: tensor.extract_slice
// IR: tosa.reverse %arg0 {axis = 0 : i32} : (tensor<14x8xf32>) -> tensor<14x8xf32>
// IR-LABEL: func.func @kept(%arg0: tensor<14x8xf32>
// IR-NOT: mesh.all_gather
// IR: %[[PIECE:.*]] = tensor.extract_slice %arg0[%{{.*}}, 0] [%{{.*}}, 8] [1, 1] : tensor<14x8xf32> to tensor<?x8xf32>
// IR-NEXT: %[[R:.*]] = tosa.reverse %arg0 {axis = 0 : i32}
// IR-NEXT: return %[[R]], %[[PIECE]] : tensor<14x8xf32>, tensor<?x8xf32>
// IR-LABEL: func.func @even(%arg0: tensor<8x16xf32>
// IR-NEXT: %[[R:.*]] = tosa.reverse %arg0 {axis = 1 : i32} : (tensor<8x16xf32>) -> tensor<8x16xf32>
// IR-NEXT: return %[[R]]

// BYTES: @back on @mesh (shape 4, 4 devices)
// BYTES: max     -   0
// BYTES: @kept on @mesh (shape 4, 4 devices)
// BYTES: max     -   0
// BYTES: @even on @mesh (shape 4, 4 devices)
// BYTES: max     -   0

mesh.mesh @mesh(shape = 4)
func.func @back(%x: tensor<14x8xf32>) -> tensor<14x8xf32> {
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %rows = mesh.sharding @mesh split_axes = [[0]] sharded_dims_offsets = [0, 4, 8, 12, 14] : !mesh.sharding
  %xw = mesh.shard %x to %whole : tensor<14x8xf32>
  %xs = mesh.shard %xw to %rows : tensor<14x8xf32>
  %r = tosa.reverse %xs {axis = 0 : i32} : (tensor<14x8xf32>) -> tensor<14x8xf32>
  return %r : tensor<14x8xf32>
}
func.func @kept(%x: tensor<14x8xf32>) -> (tensor<14x8xf32>, tensor<14x8xf32>) {
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %rows = mesh.sharding @mesh split_axes = [[0]] sharded_dims_offsets = [0, 4, 8, 12, 14] : !mesh.sharding
  %xw = mesh.shard %x to %whole : tensor<14x8xf32>
  %xs = mesh.shard %xw to %rows : tensor<14x8xf32>
  %r = tosa.reverse %xs {axis = 0 : i32} : (tensor<14x8xf32>) -> tensor<14x8xf32>
  return %r, %xs : tensor<14x8xf32>, tensor<14x8xf32>
}
func.func @even(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %cols = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %xw = mesh.shard %x to %whole : tensor<8x16xf32>
  %xs = mesh.shard %xw to %cols : tensor<8x16xf32>
  %r = tosa.reverse %xs {axis = 1 : i32} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
