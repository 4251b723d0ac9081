// A stencil iterated in a loop (x <- conv(x), "same" padding) with rows split
// over 4 devices: every iteration refreshes the halos, one mesh.update_halo
// per iteration.  Two convolutions in a row with a relu between, and a value
// read both through a window and elementwise, need halos only where a window
// reads.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: mesh-run %t.mlir -f jacobi --compare-with %s --seed 1 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f chain --compare-with %s --seed 2 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-opt --pass-pipeline='builtin.module(sharding-propagation{solver=sweep}, mesh-partition)' %s -o %t.sweep.mlir
// RUN: mesh-run %t.sweep.mlir -f jacobi --compare-with %s --seed 3 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.sweep.mlir -f chain --compare-with %s --seed 4 -q | FileCheck %s --check-prefix=SIM
// CHECK-LABEL: func.func @jacobi
// CHECK: scf.for
// CHECK: mesh.update_halo
// CHECK: tosa.conv2d
// CHECK-LABEL: func.func @chain
// CHECK-COUNT-2: mesh.update_halo
// CHECK-NOT: mesh.all_
// SIM: match

mesh.mesh @m(shape = 4)

func.func @jacobi(%x: tensor<1x16x8x1xf32>, %w: tensor<1x3x3x1xf32>, %b: tensor<1xf32>) -> tensor<1x16x8x1xf32> {
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<1x16x8x1xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %xs) -> (tensor<1x16x8x1xf32>) {
    %c = tosa.conv2d %acc, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
        : (tensor<1x16x8x1xf32>, tensor<1x3x3x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x8x1xf32>
    scf.yield %c : tensor<1x16x8x1xf32>
  }
  %rs = mesh.shard %r to %s : tensor<1x16x8x1xf32>
  return %rs : tensor<1x16x8x1xf32>
}

func.func @chain(%x: tensor<1x16x8x2xf32>, %w: tensor<2x3x3x2xf32>, %b: tensor<2xf32>) -> tensor<1x16x8x2xf32> {
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<1x16x8x2xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %c = tosa.conv2d %xs, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : (tensor<1x16x8x2xf32>, tensor<2x3x3x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x8x2xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 3.4028235e+38 : f32} : (tensor<1x16x8x2xf32>) -> tensor<1x16x8x2xf32>
  %d = tosa.conv2d %r, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : (tensor<1x16x8x2xf32>, tensor<2x3x3x2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x8x2xf32>
  %e = tosa.add %d, %r : (tensor<1x16x8x2xf32>, tensor<1x16x8x2xf32>) -> tensor<1x16x8x2xf32>
  %es = mesh.shard %e to %s : tensor<1x16x8x2xf32>
  return %es : tensor<1x16x8x2xf32>
}
