// A max pool split along its rows pads the edge devices' halo rows with the
// lowest value of its element type.  Formats without infinities (the
// finite-only `FN` formats) pad with their lowest finite value: a constant
// -inf there was the format's NaN (f8E4M3FN's 0xFF), which a max returns,
// or no value at all (f4E2M1FN has no NaN either: the process aborted).
// The simulator has no narrow floats: the IR is checked.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s | FileCheck %s

mesh.mesh @mesh(shape = 4)

// CHECK-LABEL: func.func @pool_e4m3fn
// CHECK: arith.constant -4.480000e+02 : f8E4M3FN
func.func @pool_e4m3fn(%x: tensor<1x8x8x2xf8E4M3FN>) -> tensor<1x8x8x2xf8E4M3FN> {
  %rows = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<1x8x8x2xf8E4M3FN>
  %p = tosa.max_pool2d %xs {kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x2xf8E4M3FN>) -> tensor<1x8x8x2xf8E4M3FN>
  %ps = mesh.shard %p to %rows : tensor<1x8x8x2xf8E4M3FN>
  return %ps : tensor<1x8x8x2xf8E4M3FN>
}

// CHECK-LABEL: func.func @pool_e2m1fn
// CHECK: arith.constant -6.000000e+00 : f4E2M1FN
func.func @pool_e2m1fn(%x: tensor<1x8x8x2xf4E2M1FN>) -> tensor<1x8x8x2xf4E2M1FN> {
  %rows = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<1x8x8x2xf4E2M1FN>
  %p = tosa.max_pool2d %xs {kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x2xf4E2M1FN>) -> tensor<1x8x8x2xf4E2M1FN>
  %ps = mesh.shard %p to %rows : tensor<1x8x8x2xf4E2M1FN>
  return %ps : tensor<1x8x8x2xf4E2M1FN>
}

// CHECK-LABEL: func.func @pool_f16
// CHECK: arith.constant 0xFC00 : f16
func.func @pool_f16(%x: tensor<1x8x8x2xf16>) -> tensor<1x8x8x2xf16> {
  %rows = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<1x8x8x2xf16>
  %p = tosa.max_pool2d %xs {kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x2xf16>) -> tensor<1x8x8x2xf16>
  %ps = mesh.shard %p to %rows : tensor<1x8x8x2xf16>
  return %ps : tensor<1x8x8x2xf16>
}
