// A pooling whose window tensor is empty (0 rows) reads no input cell: its
// rows are no window to cut halos from, so they stay whole (propagation
// failed with an internal error on the malformed window).  Found by the
// fuzzer.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir 2>/dev/null
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 1 | FileCheck %s
// CHECK: match

// IR-LABEL: func.func @sum_pool(
// IR-NOT: mesh.update_halo
// IR: linalg.pooling_nhwc_sum
mesh.mesh @mesh(shape = 2x2)
func.func @sum_pool(%x: tensor<1x18x4x2xf32>) -> tensor<1x16x2x2xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<1x18x4x2xf32>
  %win = tensor.empty() : tensor<0x3xf32>
  %zero = arith.constant 1.5 : f32
  %e = tensor.empty() : tensor<1x16x2x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x2x2xf32>) -> tensor<1x16x2x2xf32>
  %r = linalg.pooling_nhwc_sum {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%xs, %win : tensor<1x18x4x2xf32>, tensor<0x3xf32>) outs(%z : tensor<1x16x2x2xf32>) -> tensor<1x16x2x2xf32>
  %rs = mesh.shard %r to %s : tensor<1x16x2x2xf32>
  return %rs : tensor<1x16x2x2xf32>
}
