// Tensors with a dimension of size 0 partition to valid programs: halos
// dropped from such a tensor become a `tensor.empty` (MLIR refuses any
// offset into a dimension of size 0, even 0, so the slice of the core
// partition made did not verify), and an argument that arrives whole
// (`full-arguments`) and whose piece of no element nobody reads is erased
// without walking into the sizes of that piece (an internal error before).
// Found by a review helper's random reshard chains.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: mesh-run %t.mlir -f halo_on_empty --compare-with %s --seed 1 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f halo_beside_empty --compare-with %s --seed 2 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-opt --mesh-partition=full-arguments=true %s -o %t.full.mlir
// RUN: FileCheck %s --check-prefix=FULL --input-file=%t.full.mlir
// RUN: mesh-run %t.full.mlir -f unread_piece --compare-with %s --seed 3 -q | FileCheck %s --check-prefix=SIM
// SIM: match

mesh.mesh @m(shape = 2)

// CHECK-LABEL: func.func @halo_on_empty(
// CHECK-NOT:   tensor.extract_slice
// CHECK:       tensor.empty() : tensor<0xi32>
// CHECK-NOT:   tensor.extract_slice
// CHECK:       return
func.func @halo_on_empty(%a: tensor<0xi32>) -> tensor<0xi32> {
  %s = mesh.sharding @m split_axes = [[0]] halo_sizes = [1, 0] : !mesh.sharding
  %v = mesh.shard %a to %s annotate_for_users : tensor<0xi32>
  %r = arith.addi %v, %v : tensor<0xi32>
  return %r : tensor<0xi32>
}

// CHECK-LABEL: func.func @halo_beside_empty(
// CHECK-NOT:   tensor.extract_slice
// CHECK:       tensor.empty() : tensor<2x0xi32>
// CHECK-NOT:   tensor.extract_slice
// CHECK:       return
func.func @halo_beside_empty(%a: tensor<4x0xi32>) -> tensor<4x0xi32> {
  %s = mesh.sharding @m split_axes = [[0]] halo_sizes = [1, 1] : !mesh.sharding
  %v = mesh.shard %a to %s annotate_for_users : tensor<4x0xi32>
  %r = arith.addi %v, %v : tensor<4x0xi32>
  return %r : tensor<4x0xi32>
}

// FULL-LABEL: func.func @unread_piece(
// FULL-SAME:  %arg0: tensor<0x3xf32>) -> (tensor<0x3xf32> {mesh.sharding = #mesh.sharding<@m, {{\[\[}}]]>})
// FULL-NOT:   tensor.empty
// FULL:       return %arg0
func.func @unread_piece(%a: tensor<0x3xf32>) -> tensor<0x3xf32> {
  %s0 = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %v0 = mesh.shard %a to %s0 : tensor<0x3xf32>
  %s1 = mesh.sharding @m split_axes = [[]] : !mesh.sharding
  %v1 = mesh.shard %a to %s1 : tensor<0x3xf32>
  return %v1 : tensor<0x3xf32>
}
