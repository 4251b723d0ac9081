// (call-in-reducer.mlir: a reducer calling a function the module does not have)
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4xi32>) -> tensor<i32>, sym_name = "main"}> ({
  ^bb0(%x: tensor<4xi32>):
    %zero = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %r = "stablehlo.reduce"(%x, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %s = "func.call"(%a, %b) <{callee = @_nowhere}> : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%s) : (tensor<i32>) -> ()
    }) : (tensor<4xi32>, tensor<i32>) -> tensor<i32>
    "func.return"(%r) : (tensor<i32>) -> ()
  }) : () -> ()
}) : () -> ()
