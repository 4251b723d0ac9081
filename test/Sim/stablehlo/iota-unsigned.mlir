// An iota of unsigned integers split along its dimension, as jax.random
// counts its ui32 (or ui64) positions: each device adds its first index,
// converted from i64 and added in hlo (arith has no unsigned ops).
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f counts32 --seed 1 -q | FileCheck %s --check-prefix=SAME
// RUN: mesh-run %t.mlir --compare-with %s -f counts64 --seed 2 -q | FileCheck %s --check-prefix=SAME
// SAME: match

mesh.mesh @mesh(shape = 2x4)

// CHECK-LABEL: func.func @counts32(
// CHECK: %[[IOTA:.*]] = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<4x4xui32>
// CHECK: %[[SHIFT:.*]] = "stablehlo.convert"(%{{.*}}) : (tensor<4x4xi32>) -> tensor<4x4xui32>
// CHECK: "stablehlo.add"(%[[IOTA]], %[[SHIFT]]) : (tensor<4x4xui32>, tensor<4x4xui32>) -> tensor<4x4xui32>
// CHECK-NOT: mesh.all_
func.func @counts32(%key: tensor<8x16xui32>) -> tensor<8x16xui32> {
  %s = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %k = mesh.shard %key to %s : tensor<8x16xui32>
  %i = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<8x16xui32>
  %x = "stablehlo.xor"(%k, %i) : (tensor<8x16xui32>, tensor<8x16xui32>) -> tensor<8x16xui32>
  %r = mesh.shard %x to %s annotate_for_users : tensor<8x16xui32>
  return %r : tensor<8x16xui32>
}

// CHECK-LABEL: func.func @counts64(
// CHECK: "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<4x4xui64>
// CHECK: "stablehlo.convert"(%{{.*}}) : (tensor<4x4xi64>) -> tensor<4x4xui64>
// CHECK-NOT: mesh.all_
func.func @counts64(%key: tensor<8x16xui64>) -> tensor<8x16xui64> {
  %s = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %k = mesh.shard %key to %s : tensor<8x16xui64>
  %i = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<8x16xui64>
  %x = "stablehlo.add"(%k, %i) : (tensor<8x16xui64>, tensor<8x16xui64>) -> tensor<8x16xui64>
  %r = mesh.shard %x to %s annotate_for_users : tensor<8x16xui64>
  return %r : tensor<8x16xui64>
}
