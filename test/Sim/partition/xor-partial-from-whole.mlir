// A whole value made partial under bitwise_xor: the devices other than the
// first hold 0, so the xor over the group is the value.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q | FileCheck %s
// CHECK: match

mesh.mesh @mesh(shape = 2)
func.func @x(%a: tensor<4xi32>) -> tensor<4xi32> {
  %s = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %p = mesh.sharding @mesh split_axes = [[]] partial = bitwise_xor [0] : !mesh.sharding
  %a0 = mesh.shard %a to %s : tensor<4xi32>
  %b = arith.addi %a0, %a0 : tensor<4xi32>
  %b0 = mesh.shard %b to %s : tensor<4xi32>
  %b1 = mesh.shard %b0 to %p annotate_for_users : tensor<4xi32>
  return %b1 : tensor<4xi32>
}
