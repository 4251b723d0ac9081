// The default float tolerance grows with the longest dimension (n * eps)
// but is capped at 1/16: f16 over 1024 columns made it about 1, so a
// per-device program that negates its result (Inputs/f16-tolerance-spmd.mlir)
// compared equal.
// RUN: not mesh-run %S/Inputs/f16-tolerance-spmd.mlir --compare-with %s -q | FileCheck %s
// CHECK: MISMATCH

func.func @f(%x: tensor<2x1024xf16>) -> tensor<2x1024xf16> {
  return %x : tensor<2x1024xf16>
}
