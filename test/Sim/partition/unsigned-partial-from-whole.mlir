// A whole value turned into a sum, product or xor partial stays on each
// group's first device, and the others hold the reduction's neutral value.
// arith.constant makes no scalar of a signed or unsigned integer type, so
// that neutral piece is a tensor constant (partition built a scalar and
// failed to verify).  Max, min, and, or need no neutral: every device keeps
// the value.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f sum_ui8 -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f product_ui8 -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f xor_ui16 -q --seed 3 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f sum_si8 -q --seed 4 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f max_ui8 -q --seed 5 | FileCheck %s
// CHECK: match

mesh.mesh @m(shape = 2x2)

// IR-LABEL: func.func @sum_ui8(
// IR: } else {
// IR-NEXT: %[[Z:.*]] = arith.constant dense<0> : tensor<4x2xui8>
// IR-NEXT: scf.yield %[[Z]] : tensor<4x2xui8>
func.func @sum_ui8(%x: tensor<4x2xui8>) -> tensor<4x2xui8> {
  %r = mesh.sharding @m split_axes = [[]] : !mesh.sharding
  %xr = mesh.shard %x to %r : tensor<4x2xui8>
  %p = mesh.sharding @m split_axes = [[]] partial = sum [0, 1] : !mesh.sharding
  %xp = mesh.shard %xr to %p annotate_for_users : tensor<4x2xui8>
  return %xp : tensor<4x2xui8>
}

// IR-LABEL: func.func @product_ui8(
// IR: arith.constant dense<1> : tensor<4x2xui8>
func.func @product_ui8(%x: tensor<4x2xui8>) -> tensor<4x2xui8> {
  %r = mesh.sharding @m split_axes = [[]] : !mesh.sharding
  %xr = mesh.shard %x to %r : tensor<4x2xui8>
  %p = mesh.sharding @m split_axes = [[]] partial = product [1] : !mesh.sharding
  %xp = mesh.shard %xr to %p annotate_for_users : tensor<4x2xui8>
  return %xp : tensor<4x2xui8>
}

// IR-LABEL: func.func @xor_ui16(
// IR: arith.constant dense<0> : tensor<4x1xui16>
func.func @xor_ui16(%x: tensor<4x2xui16>) -> tensor<4x2xui16> {
  %s = mesh.sharding @m split_axes = [[], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x2xui16>
  %p = mesh.sharding @m split_axes = [[], [1]] partial = bitwise_xor [0] : !mesh.sharding
  %xp = mesh.shard %xs to %p annotate_for_users : tensor<4x2xui16>
  return %xp : tensor<4x2xui16>
}

// IR-LABEL: func.func @sum_si8(
// IR: arith.constant dense<0> : tensor<4x2xsi8>
func.func @sum_si8(%x: tensor<4x2xsi8>) -> tensor<4x2xsi8> {
  %r = mesh.sharding @m split_axes = [[]] : !mesh.sharding
  %xr = mesh.shard %x to %r : tensor<4x2xsi8>
  %p = mesh.sharding @m split_axes = [[]] partial = sum [0, 1] : !mesh.sharding
  %xp = mesh.shard %xr to %p annotate_for_users : tensor<4x2xsi8>
  return %xp : tensor<4x2xsi8>
}

// IR-LABEL: func.func @max_ui8(
// IR-NOT: scf.if
// IR: return
func.func @max_ui8(%x: tensor<4x2xui8>) -> tensor<4x2xui8> {
  %r = mesh.sharding @m split_axes = [[]] : !mesh.sharding
  %xr = mesh.shard %x to %r : tensor<4x2xui8>
  %p = mesh.sharding @m split_axes = [[]] partial = max [1] : !mesh.sharding
  %xp = mesh.shard %xr to %p annotate_for_users : tensor<4x2xui8>
  return %xp : tensor<4x2xui8>
}
