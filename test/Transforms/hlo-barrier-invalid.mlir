// An optimization_barrier whose results are not its operands (the dialect
// is unregistered, so MLIR never verifies it) is an error at the op, in
// propagation and partition, which hand each operand's layout to its result.
// RUN: mesh-opt --allow-unregistered-dialect --split-input-file --verify-diagnostics --sharding-propagation %s
// RUN: mesh-opt --allow-unregistered-dialect --split-input-file --verify-diagnostics --mesh-partition %s

mesh.mesh @m(shape = 2)
func.func @extra_result(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %0 = mesh.shard %x to %s : tensor<8xf32>
  // expected-error@+1 {{'stablehlo.optimization_barrier' needs results of its operands' types, one per operand}}
  %r:2 = "stablehlo.optimization_barrier"(%0) : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return %r#0 : tensor<8xf32>
}

// -----

mesh.mesh @m(shape = 2)
func.func @other_type(%x: tensor<8xf32>) -> tensor<8xf16> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %0 = mesh.shard %x to %s : tensor<8xf32>
  // expected-error@+1 {{'mhlo.optimization_barrier' needs results of its operands' types, one per operand}}
  %r = "mhlo.optimization_barrier"(%0) : (tensor<8xf32>) -> tensor<8xf16>
  return %r : tensor<8xf16>
}
