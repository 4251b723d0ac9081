// Running an add on each device's terms of a partial sum reassociates the
// sum.  In f32 and wider that is accepted as rounding, but a device's own
// terms can be far larger than their total (they cancel across devices),
// and f16 overflows at realistic sizes: adds of f16 partial sums, and a
// float value added to itself (a doubling, like a product by 2), read their
// operands whole.  Here each device's term is +40000 or -40000 (f16's
// largest finite value is 65504) and every total is 0: doubling the terms
// gave +inf and -inf, whose all_reduce is NaN.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir -f doubled_f16 --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f doubled_f16 --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f plus_f16 --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// SIM: match

mesh.mesh @pair(shape = 2)

// CHECK-LABEL: func.func @doubled_f16(
// CHECK-NOT: partial
// CHECK: return
func.func @doubled_f16(%x: tensor<2x2xf16>) -> tensor<2x2xf16> {
  %zero = arith.constant 0.0 : f16
  %w = arith.constant dense<[[40000.0, 40000.0], [-40000.0, -40000.0]]> : tensor<2x2xf16>
  %rows = mesh.sharding @pair split_axes = [[0]] : !mesh.sharding
  %ws = mesh.shard %w to %rows annotate_for_users : tensor<2x2xf16>
  %ones = arith.constant dense<1.0> : tensor<2x2xf16>
  %e = tensor.empty() : tensor<2x2xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<2x2xf16>) -> tensor<2x2xf16>
  %a = linalg.matmul ins(%ones, %ws : tensor<2x2xf16>, tensor<2x2xf16>) outs(%f : tensor<2x2xf16>) -> tensor<2x2xf16>
  %d = arith.addf %a, %a : tensor<2x2xf16>
  %r = arith.addf %d, %x : tensor<2x2xf16>
  return %r : tensor<2x2xf16>
}

// Two f16 products whose terms cancel, added: reduced before the add.
// CHECK-LABEL: func.func @plus_f16(
// CHECK-NOT: partial
// CHECK: return
func.func @plus_f16() -> tensor<2x2xf16> {
  %zero = arith.constant 0.0 : f16
  %w = arith.constant dense<[[40000.0, 40000.0], [-40000.0, -40000.0]]> : tensor<2x2xf16>
  %rows = mesh.sharding @pair split_axes = [[0]] : !mesh.sharding
  %ws = mesh.shard %w to %rows annotate_for_users : tensor<2x2xf16>
  %ones = arith.constant dense<1.0> : tensor<2x2xf16>
  %e = tensor.empty() : tensor<2x2xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<2x2xf16>) -> tensor<2x2xf16>
  %a = linalg.matmul ins(%ones, %ws : tensor<2x2xf16>, tensor<2x2xf16>) outs(%f : tensor<2x2xf16>) -> tensor<2x2xf16>
  %b = linalg.matmul ins(%ones, %ws : tensor<2x2xf16>, tensor<2x2xf16>) outs(%f : tensor<2x2xf16>) -> tensor<2x2xf16>
  %r = arith.addf %a, %b : tensor<2x2xf16>
  return %r : tensor<2x2xf16>
}
