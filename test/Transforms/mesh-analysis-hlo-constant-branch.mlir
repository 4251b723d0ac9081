// mesh-analysis reads a constant hlo case index (or if predicate) and
// counts the branch taken, not the costlier one: the case takes branch 1,
// a constant (no flops), the if its first branch, the matmul (512 flops a
// device).
// RUN: mesh-opt --allow-unregistered-dialect --mesh-analysis %s -o /dev/null 2>&1 | FileCheck %s
// CHECK-LABEL: @case on @mesh (shape 4, 4 devices)
// CHECK: max     -                       0              772      0                0
// CHECK-LABEL: @if on @mesh (shape 4, 4 devices)
// CHECK: max     -                       0              513    512                0
// CHECK-NOT: costlier branch

module {
  mesh.mesh @mesh(shape = 4)
  func.func @case(%x: tensor<8x16xf32>, %w: tensor<16x8xf32>) -> tensor<8x8xf32> {
    %s0 = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
    %s1 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %xs = mesh.shard %x to %s0 : tensor<8x16xf32>
    %ws = mesh.shard %w to %s1 : tensor<16x8xf32>
    %k = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %0 = "stablehlo.case"(%k) ({
      %d = "stablehlo.dot_general"(%xs, %ws) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
      "stablehlo.return"(%d) : (tensor<8x8xf32>) -> ()
    }, {
      %c = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<8x8xf32>}> : () -> tensor<8x8xf32>
      "stablehlo.return"(%c) : (tensor<8x8xf32>) -> ()
    }) : (tensor<i32>) -> tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
  func.func @if(%x: tensor<8x16xf32>, %w: tensor<16x8xf32>) -> tensor<8x8xf32> {
    %s0 = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
    %s1 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %xs = mesh.shard %x to %s0 : tensor<8x16xf32>
    %ws = mesh.shard %w to %s1 : tensor<16x8xf32>
    %p = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %0 = "stablehlo.if"(%p) ({
      %d = "stablehlo.dot_general"(%xs, %ws) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
      "stablehlo.return"(%d) : (tensor<8x8xf32>) -> ()
    }, {
      %c = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<8x8xf32>}> : () -> tensor<8x8xf32>
      "stablehlo.return"(%c) : (tensor<8x8xf32>) -> ()
    }) : (tensor<i1>) -> tensor<8x8xf32>
    return %0 : tensor<8x8xf32>
  }
}
