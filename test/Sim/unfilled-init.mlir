// What a program never wrote (a tensor.empty) holds garbage in the
// simulator: values that are no reduction's neutral element, different on
// every device and run.  A per-device program that forgot its max
// reduction's init fill (Inputs/unfilled-init-spmd.mlir) is caught; the
// minimum integer the sentinel used to be is max's identity, so it passed.
// RUN: mesh-run %s --compare-with %s -q | FileCheck %s --check-prefix=SELF
// RUN: not mesh-run %S/Inputs/unfilled-init-spmd.mlir --compare-with %s -q | FileCheck %s
// RUN: not mesh-run %S/Inputs/unfilled-init-spmd.mlir --compare-with %s -q --seed 9 | FileCheck %s
// SELF: match
// CHECK: MISMATCH

func.func @f(%x: tensor<4x8xi32>) -> tensor<4xi32> {
  %c = arith.constant -2147483648 : i32
  %e = tensor.empty() : tensor<4xi32>
  %i = linalg.fill ins(%c : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  %r = linalg.reduce ins(%x : tensor<4x8xi32>) outs(%i : tensor<4xi32>) dimensions = [1]
    (%in: i32, %acc: i32) {
      %m = arith.maxsi %in, %acc : i32
      linalg.yield %m : i32
    }
  return %r : tensor<4xi32>
}
