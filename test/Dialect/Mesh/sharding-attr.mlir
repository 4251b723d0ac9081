// The layout of an SPMD function's arguments and results: #mesh.sharding.
// RUN: mesh-opt --split-input-file %s | FileCheck %s
// RUN: mesh-opt --split-input-file %s --mlir-print-op-generic | mesh-opt --split-input-file | FileCheck %s

mesh.mesh @m(shape = 2x4)

// CHECK-LABEL: func.func @layouts(
// CHECK-SAME: %arg0: tensor<8x16xf32> {mesh.sharding = #mesh.sharding<@m, {{\[\[}}0], [1]]>}
// CHECK-SAME: %arg1: tensor<8x16xf32> {mesh.sharding = #mesh.sharding<@m, {{\[\[}}0]], partial = max [1]>}
// CHECK-SAME: %arg2: tensor<8x16xf32> {mesh.sharding = #mesh.sharding<@m, {{\[\[}}], [1]], halo_sizes = [1, 2]>}
// CHECK-SAME: %arg3: tensor<8x16xf32> {mesh.sharding = #mesh.sharding<@m, {{\[\[}}0]], sharded_dims_offsets = [0, 3, 8]>}
// CHECK-SAME: -> (tensor<8x16xf32> {mesh.sharding = #mesh.sharding<@m, []>})
func.func @layouts(
    %a: tensor<8x16xf32> {mesh.sharding = #mesh.sharding<@m, [[0], [1]]>},
    %b: tensor<8x16xf32> {mesh.sharding = #mesh.sharding<@m, [[0]], partial = max [1]>},
    %c: tensor<8x16xf32> {mesh.sharding = #mesh.sharding<@m, [[], [1]], halo_sizes = [1, 2]>},
    // Fields in any order.
    %d: tensor<8x16xf32> {mesh.sharding = #mesh.sharding<@m, [[0]], sharded_dims_offsets = [0, 3, 8]>})
    -> (tensor<8x16xf32> {mesh.sharding = #mesh.sharding<@m, []>}) {
  return %a : tensor<8x16xf32>
}

// -----

mesh.mesh @m(shape = 2x4)

// IRDL's own spelling is read too.
// CHECK-LABEL: func.func @generic_spelling(
// CHECK-SAME: {mesh.sharding = #mesh.sharding<@m, {{\[\[}}1]], partial = sum [0]>}
func.func @generic_spelling(%a: tensor<8xf32> {mesh.sharding = #mesh.sharding<@m, #mesh.axisarray<[array<i16: 1>]>, array<i16: 0>, #mesh.partial<"sum">, array<i64>, array<i64>>}) {
  return
}
