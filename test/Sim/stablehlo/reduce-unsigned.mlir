// A split stablehlo.reduce over ui32 (JAX's uint32) whose init is not zero:
// the init stays on the group's first device and the others get a zero
// tensor constant (arith.constant makes no ui32 scalar: partition built one
// and its output failed to verify).
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s --seed 4 -q | FileCheck %s
// CHECK: match

// IR-LABEL: func.func @main(
// IR-SAME: -> (tensor<4xui32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}]], partial = sum [0]>})
// IR: %[[INIT:.*]] = "stablehlo.constant"() <{value = dense<7> : tensor<ui32>}>
// IR: %[[FIRST:.*]] = scf.if
// IR-NEXT: scf.yield %[[INIT]] : tensor<ui32>
// IR-NEXT: } else {
// IR-NEXT: %[[ZERO:.*]] = arith.constant dense<0> : tensor<ui32>
// IR-NEXT: scf.yield %[[ZERO]] : tensor<ui32>
// IR: "stablehlo.reduce"(%arg0, %[[FIRST]])
// IR-NEXT: ^bb0

mesh.mesh @mesh(shape = 4)
func.func @main(%arg0: tensor<4x16xui32>) -> tensor<4xui32> {
  %s = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %x = mesh.shard %arg0 to %s : tensor<4x16xui32>
  %seven = "stablehlo.constant"() <{value = dense<7> : tensor<ui32>}> : () -> tensor<ui32>
  %sum = "stablehlo.reduce"(%x, %seven) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<ui32>, %b: tensor<ui32>):
    %r = "stablehlo.add"(%a, %b) : (tensor<ui32>, tensor<ui32>) -> tensor<ui32>
    "stablehlo.return"(%r) : (tensor<ui32>) -> ()
  }) : (tensor<4x16xui32>, tensor<ui32>) -> tensor<4xui32>
  return %sum : tensor<4xui32>
}
