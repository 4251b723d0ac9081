// A variadic stablehlo.reduce whose two results are annotated partial over
// different axes: both come out of the one reduction loop, so the loop takes
// the first result's axes and the second result is resharded after the op
// (both passes stopped with an internal KeyError).
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-opt --mesh-partition %s -o %t.alone.mlir
// RUN: mesh-run %t.alone.mlir --compare-with %s -q --seed 3 | FileCheck %s
// CHECK: match

mesh.mesh @mesh(shape = 2x2)
func.func @main(%a: tensor<4x6xi32>, %b: tensor<4x6xi32>) -> (tensor<6xi32>, tensor<6xi32>) {
  %sp0 = mesh.sharding @mesh split_axes = [[]] partial = sum [0] : !mesh.sharding
  %sp1 = mesh.sharding @mesh split_axes = [[]] partial = sum [0, 1] : !mesh.sharding
  %z = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %r:2 = "stablehlo.reduce"(%a, %b, %z, %z) <{dimensions = array<i64: 0>}> ({
  ^bb0(%p: tensor<i32>, %q: tensor<i32>, %u: tensor<i32>, %v: tensor<i32>):
    %t = "stablehlo.add"(%p, %u) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %t2 = "stablehlo.add"(%q, %v) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%t, %t2) : (tensor<i32>, tensor<i32>) -> ()
  }) : (tensor<4x6xi32>, tensor<4x6xi32>, tensor<i32>, tensor<i32>) -> (tensor<6xi32>, tensor<6xi32>)
  %r0 = mesh.shard %r#0 to %sp0 : tensor<6xi32>
  %r1 = mesh.shard %r#1 to %sp1 : tensor<6xi32>
  return %r0, %r1 : tensor<6xi32>, tensor<6xi32>
}
