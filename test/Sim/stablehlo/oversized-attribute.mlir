// The simulator refuses an hlo integer list attribute of billions of
// entries (a splat written with a huge shape, which MLIR never verifies in
// an unregistered dialect) at the op, without reading every entry: it read
// them one by one, for minutes.
// RUN: not mesh-run %s -f slice --allow-unregistered-dialect 2>&1 | FileCheck %s
// RUN: not mesh-run %s -f pad --allow-unregistered-dialect 2>&1 | FileCheck %s --check-prefix=PAD

// CHECK: oversized-attribute.mlir:[[@LINE+2]]:8: error: 'stablehlo.slice' cannot be simulated: an integer list attribute of 2147483647 entries is more than any op has dimensions (at most 4096)
func.func @slice(%x: tensor<8xf32>) -> tensor<4xf32> {
  %y = "stablehlo.slice"(%x) <{start_indices = array<i64: 0>, limit_indices = dense<4> : tensor<2147483647xi64>, strides = array<i64: 1>}> : (tensor<8xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// PAD: oversized-attribute.mlir:[[@LINE+3]]:8: error: 'stablehlo.pad' cannot be simulated: an integer list attribute of 5000 entries is more than any op has dimensions (at most 4096)
func.func @pad(%x: tensor<8xf32>) -> tensor<9xf32> {
  %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %y = "stablehlo.pad"(%x, %z) <{edge_padding_low = array<i64: 0>, edge_padding_high = array<i64: 1>, interior_padding = dense<0> : tensor<5000xi64>}> : (tensor<8xf32>, tensor<f32>) -> tensor<9xf32>
  return %y : tensor<9xf32>
}
