// An hlo while the passes cannot read (its dialect is unregistered, so MLIR
// never verifies it) is an error at the op, in propagation, partition and
// mesh-analysis; each failed with an internal error (an index out of range).
// RUN: mesh-opt --allow-unregistered-dialect --split-input-file --verify-diagnostics --sharding-propagation %s
// RUN: mesh-opt --allow-unregistered-dialect --split-input-file --verify-diagnostics --mesh-partition %s
// RUN: not mesh-opt --allow-unregistered-dialect --split-input-file --mesh-analysis %s -o /dev/null 2>&1 | FileCheck %s

// CHECK: :[[#@LINE+6]]:8: error: cannot analyze the program: 'stablehlo.while' needs 2 regions of one block ending in a return
mesh.mesh @m(shape = 2)
func.func @one_region(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %0 = mesh.shard %x to %s : tensor<8xf32>
  // expected-error@+1 {{'stablehlo.while' needs 2 regions of one block ending in a return}}
  %r = "stablehlo.while"(%0) ({
  ^bb0(%a: tensor<8xf32>):
    "stablehlo.return"(%a) : (tensor<8xf32>) -> ()
  }) : (tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// CHECK: :[[#@LINE+5]]:8: error: cannot analyze the program: 'stablehlo.while' carries 1 values but has 1 results, 1 condition arguments, 2 body arguments and a body returning 1 values
mesh.mesh @m(shape = 2)
func.func @arity(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  // expected-error@+1 {{'stablehlo.while' carries 1 values but has 1 results, 1 condition arguments, 2 body arguments and a body returning 1 values}}
  %r = "stablehlo.while"(%x) ({
  ^bb0(%a: tensor<8xf32>):
    %t = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    "stablehlo.return"(%t) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<8xf32>, %b: tensor<8xf32>):
    %0 = mesh.shard %a to %s : tensor<8xf32>
    "stablehlo.return"(%0) : (tensor<8xf32>) -> ()
  }) : (tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}
