// f16 loss scaling: each micro-batch's partial product is scaled by 2048
// before it joins the accumulator.  A device's term of a split contraction
// can be far larger than the total (terms of opposite signs), so scaling
// the terms would overflow f16 where scaling the total does not: the
// product by 2048 is not run on terms, each trip reduces first.  A factor
// in (0, 1] (accumulate-partial.mlir) is.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f loss_scaled -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f loss_scaled -q --seed 4 | FileCheck %s
// CHECK: match

mesh.mesh @mesh(shape = 2x4)

// IR-LABEL: func.func @loss_scaled(
// IR: "stablehlo.dot_general"
// IR: %[[S:.*]] = mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0, 1] : tensor<8x8xf16> -> tensor<8x8xf16>
// IR-NEXT: "stablehlo.multiply"(%[[S]], %{{.*}})
func.func @loss_scaled(%xs: tensor<4x8x64xf16>, %w: tensor<64x8xf16>) -> tensor<8x8xf16> {
  %sx = mesh.sharding @mesh split_axes = [[], [], [0, 1]] : !mesh.sharding
  %xs0 = mesh.shard %xs to %sx : tensor<4x8x64xf16>
  %sw = mesh.sharding @mesh split_axes = [[0, 1]] : !mesh.sharding
  %w0 = mesh.shard %w to %sw : tensor<64x8xf16>
  %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<8x8xf16>}> : () -> tensor<8x8xf16>
  %r:2 = "stablehlo.while"(%c0, %z) ({
  ^bb0(%i: tensor<i32>, %acc: tensor<8x8xf16>):
    %n = "stablehlo.constant"() <{value = dense<4> : tensor<i32>}> : () -> tensor<i32>
    %lt = "stablehlo.compare"(%i, %n) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.return"(%lt) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>, %acc: tensor<8x8xf16>):
    %zi = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %sl = "stablehlo.dynamic_slice"(%xs0, %i, %zi, %zi) <{slice_sizes = array<i64: 1, 8, 64>}> : (tensor<4x8x64xf16>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x8x64xf16>
    %x = "stablehlo.reshape"(%sl) : (tensor<1x8x64xf16>) -> tensor<8x64xf16>
    %d = "stablehlo.dot_general"(%x, %w0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x64xf16>, tensor<64x8xf16>) -> tensor<8x8xf16>
    %k = "stablehlo.constant"() <{value = dense<2048.0> : tensor<8x8xf16>}> : () -> tensor<8x8xf16>
    %m = "stablehlo.multiply"(%d, %k) : (tensor<8x8xf16>, tensor<8x8xf16>) -> tensor<8x8xf16>
    %a = "stablehlo.add"(%acc, %m) : (tensor<8x8xf16>, tensor<8x8xf16>) -> tensor<8x8xf16>
    %one = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %j = "stablehlo.add"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%j, %a) : (tensor<i32>, tensor<8x8xf16>) -> ()
  }) : (tensor<i32>, tensor<8x8xf16>) -> (tensor<i32>, tensor<8x8xf16>)
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %out = mesh.shard %r#1 to %whole : tensor<8x8xf16>
  return %out : tensor<8x8xf16>
}
