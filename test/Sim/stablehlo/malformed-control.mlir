// An hlo while, if or case whose regions do not fit its values (MLIR never
// verifies an unregistered dialect) is refused by the simulator at the op,
// with the rule the passes give: it ran the body on the values it had and
// failed at an op inside with a message naming neither.
// RUN: not mesh-run %s -f while --allow-unregistered-dialect 2>&1 | FileCheck %s --check-prefix=WHILE
// RUN: not mesh-run %s -f if --allow-unregistered-dialect 2>&1 | FileCheck %s --check-prefix=IF

// WHILE: malformed-control.mlir:[[@LINE+2]]:8: error: 'stablehlo.while' cannot be simulated: 'stablehlo.while' carries 1 values but has 1 results, 1 condition arguments, 2 body arguments and a body returning 1 values
func.func @while(%x: tensor<i32>) -> tensor<i32> {
  %r = "stablehlo.while"(%x) ({
  ^bb0(%a: tensor<i32>):
    %c = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
    %t = "stablehlo.compare"(%a, %c) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.return"(%t) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %one = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %n = "stablehlo.add"(%b, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%n) : (tensor<i32>) -> ()
  }) : (tensor<i32>) -> tensor<i32>
  return %r : tensor<i32>
}

// IF: malformed-control.mlir:[[@LINE+2]]:8: error: 'stablehlo.if' cannot be simulated: 'stablehlo.if' has 1 results but region 1 returns 2 values
func.func @if(%p: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  %r = "stablehlo.if"(%p) ({
    "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }, {
    "stablehlo.return"(%x, %x) : (tensor<f32>, tensor<f32>) -> ()
  }) : (tensor<i1>) -> tensor<f32>
  return %r : tensor<f32>
}
