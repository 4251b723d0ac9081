// Ops of an unregistered dialect keep their `<{...}>` properties out of the
// attributes the bindings list, so two stablehlo ops of one name and the
// same types that differ only there (a transpose's permutation, a
// dot_general's dimension numbers, a reduce's dimensions) must still get
// rules of their own: here each function's second op took the first one's.
// RUN: mesh-opt --allow-unregistered-dialect --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run --allow-unregistered-dialect %t.mlir --function transposes --compare-with %s -q | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run --allow-unregistered-dialect %t.mlir --function dots --compare-with %s -q | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run --allow-unregistered-dialect %t.mlir --function reduces --compare-with %s -q | FileCheck %s --check-prefix=MATCH
// MATCH: match
// CHECK-LABEL: func.func @transposes
// CHECK-SAME: -> (tensor<2x2xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}1], [0]]>}, tensor<2x2xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0], [1]]>})
// CHECK-LABEL: func.func @dots
// CHECK: "stablehlo.dot_general"(%arg0, %arg1) {{.*}}lhs_contracting_dimensions = [1]{{.*}} : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
// CHECK: "stablehlo.dot_general"({{.*}}) {{.*}}lhs_contracting_dimensions = [0]{{.*}} : (tensor<4x2xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
// CHECK-LABEL: func.func @reduces
// CHECK-SAME: -> (tensor<4xf32> {mesh.sharding = #mesh.sharding<@line, {{\[\[}}]], partial = sum [0]>}, tensor<2xf32> {mesh.sharding = #mesh.sharding<@line, {{\[\[}}0]]>})

mesh.mesh @mesh(shape = 2x2)
mesh.mesh @line(shape = 2)

func.func @transposes(%a: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %s = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %a1 = mesh.shard %a to %s : tensor<4x4xf32>
  %t = "stablehlo.transpose"(%a1) <{permutation = array<i64: 1, 0>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %i = "stablehlo.transpose"(%a1) <{permutation = array<i64: 0, 1>}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %t, %i : tensor<4x4xf32>, tensor<4x4xf32>
}

func.func @dots(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %rows = mesh.sharding @line split_axes = [[0]] : !mesh.sharding
  %a1 = mesh.shard %a to %rows : tensor<4x4xf32>
  %mm = "stablehlo.dot_general"(%a1, %b) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %tm = "stablehlo.dot_general"(%a1, %b) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %mm1 = mesh.shard %mm to %rows : tensor<4x4xf32>
  %tm1 = mesh.shard %tm to %rows : tensor<4x4xf32>
  return %mm1, %tm1 : tensor<4x4xf32>, tensor<4x4xf32>
}

func.func @reduces(%a: tensor<4x4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %rows = mesh.sharding @line split_axes = [[0]] : !mesh.sharding
  %a1 = mesh.shard %a to %rows : tensor<4x4xf32>
  %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %r0 = "stablehlo.reduce"(%a1, %z) <{dimensions = array<i64: 0>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %t = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%t) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
  %r1 = "stablehlo.reduce"(%a1, %z) <{dimensions = array<i64: 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %t = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%t) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
  return %r0, %r1 : tensor<4xf32>, tensor<4xf32>
}
