// Boolean contractions: stablehlo's dot_general, dot and convolution sum
// products with add, a logical or on i1 (multiply is a logical and), so a
// contracting dimension split over the mesh leaves pieces that combine with
// bitwise_or, not with a sum of i1 (an exclusive or, which gave false where
// two devices each held a true term).  mhlo's dot_general reads the same.
// Each product reads its own operands: operands shared by the three would
// be gathered once for all (less than three all_reduces).
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f dot -q --seed 0 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f dot -q --seed 3 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f conv -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f conv -q --seed 2 | FileCheck %s
// CHECK: match

mesh.mesh @mesh(shape = 2)

// IR-LABEL: func.func @dot(
// IR: mesh.all_reduce {{.*}} reduction = <bitwise_or> : tensor<4x4xi1> -> tensor<4x4xi1>
// IR: mesh.all_reduce {{.*}} reduction = <bitwise_or> : tensor<4x4xi1> -> tensor<4x4xi1>
// IR: mesh.all_reduce {{.*}} reduction = <bitwise_or> : tensor<4x4xi1> -> tensor<4x4xi1>
// IR-NOT: reduction = <sum>
func.func @dot(%a: tensor<4x8xi1>, %b: tensor<8x4xi1>, %a1: tensor<4x8xi1>, %b1: tensor<8x4xi1>, %a2: tensor<4x8xi1>, %b2: tensor<8x4xi1>) -> (tensor<4x4xi1>, tensor<4x4xi1>, tensor<4x4xi1>) {
  %s = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %x = mesh.shard %a to %s : tensor<4x8xi1>
  %x1 = mesh.shard %a1 to %s : tensor<4x8xi1>
  %x2 = mesh.shard %a2 to %s : tensor<4x8xi1>
  %s2 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %y = mesh.shard %b to %s2 : tensor<8x4xi1>
  %y1 = mesh.shard %b1 to %s2 : tensor<8x4xi1>
  %y2 = mesh.shard %b2 to %s2 : tensor<8x4xi1>
  %r0 = "stablehlo.dot_general"(%x, %y) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<4x8xi1>, tensor<8x4xi1>) -> tensor<4x4xi1>
  %r1 = "stablehlo.dot"(%x1, %y1) : (tensor<4x8xi1>, tensor<8x4xi1>) -> tensor<4x4xi1>
  %r2 = "mhlo.dot_general"(%x2, %y2) {dot_dimension_numbers = #mhlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<4x8xi1>, tensor<8x4xi1>) -> tensor<4x4xi1>
  %w = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %o0 = mesh.shard %r0 to %w : tensor<4x4xi1>
  %o1 = mesh.shard %r1 to %w : tensor<4x4xi1>
  %o2 = mesh.shard %r2 to %w : tensor<4x4xi1>
  return %o0, %o1, %o2 : tensor<4x4xi1>, tensor<4x4xi1>, tensor<4x4xi1>
}

// IR-LABEL: func.func @conv(
// IR: "stablehlo.convolution"({{.*}} : (tensor<2x5x3xi1>, tensor<3x3x4xi1>) -> tensor<2x5x4xi1>
// IR: mesh.all_reduce {{.*}} reduction = <bitwise_or> : tensor<2x5x4xi1> -> tensor<2x5x4xi1>
func.func @conv(%a: tensor<2x5x6xi1>, %k: tensor<3x6x4xi1>) -> tensor<2x5x4xi1> {
  %s = mesh.sharding @mesh split_axes = [[], [], [0]] : !mesh.sharding
  %x = mesh.shard %a to %s : tensor<2x5x6xi1>
  %s2 = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %y = mesh.shard %k to %s2 : tensor<3x6x4xi1>
  %r = "stablehlo.convolution"(%x, %y) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, padding = dense<1> : tensor<1x2xi64>, window_strides = array<i64: 1>}> : (tensor<2x5x6xi1>, tensor<3x6x4xi1>) -> tensor<2x5x4xi1>
  %w = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %o = mesh.shard %r to %w : tensor<2x5x4xi1>
  return %o : tensor<2x5x4xi1>
}
