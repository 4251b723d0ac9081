// tensor.reshape has the rule of the other reshapes: dimension groups from
// its static operand and result types (the target shape operand is read
// whole).  Partition gives each device a constant of its piece's shape as
// the target.  Before, the op was refused next to a split value.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir -f split_rows --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f flatten --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f regroup --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f shape_argument -i %S/Inputs/reshape-8x6.npy -i %S/Inputs/reshape-shape-16x3.npy --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir -f uneven_rows --compare-with %s -q --seed 1 | FileCheck %s
// CHECK: match

mesh.mesh @mesh(shape = 4)

// IR-LABEL: func.func @split_rows
// IR-SAME: tensor<2x16xf32>
// IR: %[[SHAPE:.*]] = arith.constant dense<[2, 4, 4]> : tensor<3xi64>
// IR: tensor.reshape %{{.*}}(%[[SHAPE]]) : (tensor<2x16xf32>, tensor<3xi64>) -> tensor<2x4x4xf32>
// IR-NOT: = mesh.
// IR: return
func.func @split_rows(%x: tensor<8x16xf32>) -> tensor<8x4x4xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<8x16xf32>
  %shape = arith.constant dense<[8, 4, 4]> : tensor<3xi64>
  %r = tensor.reshape %xs(%shape) : (tensor<8x16xf32>, tensor<3xi64>) -> tensor<8x4x4xf32>
  %rs = mesh.shard %r to %s : tensor<8x4x4xf32>
  return %rs : tensor<8x4x4xf32>
}

// Rows merged with columns: the merged dimension splits as the rows do.
// IR-LABEL: func.func @flatten
// IR: arith.constant dense<32> : tensor<1xindex>
// IR: tensor.reshape %{{.*}} : (tensor<2x16xf32>, tensor<1xindex>) -> tensor<32xf32>
// IR-NOT: = mesh.
// IR: return
func.func @flatten(%x: tensor<8x16xf32>) -> tensor<128xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<8x16xf32>
  %shape = arith.constant dense<[128]> : tensor<1xindex>
  %r = tensor.reshape %xs(%shape) : (tensor<8x16xf32>, tensor<1xindex>) -> tensor<128xf32>
  %rs = mesh.shard %r to %s : tensor<128xf32>
  return %rs : tensor<128xf32>
}

// 8x6 to 16x3 (no collapse or expand says it): one group, split along
// its first dimension on both sides.
// IR-LABEL: func.func @regroup
// IR: arith.constant dense<[4, 3]> : tensor<2xi32>
// IR: tensor.reshape %{{.*}} : (tensor<2x6xf32>, tensor<2xi32>) -> tensor<4x3xf32>
func.func @regroup(%x: tensor<8x6xf32>) -> tensor<16x3xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<8x6xf32>
  %shape = arith.constant dense<[16, 3]> : tensor<2xi32>
  %r = tensor.reshape %xs(%shape) : (tensor<8x6xf32>, tensor<2xi32>) -> tensor<16x3xf32>
  %rs = mesh.shard %r to %s : tensor<16x3xf32>
  return %rs : tensor<16x3xf32>
}

// The target shape as an argument: each device reshapes to a constant of
// its piece's shape (the argument must hold the result type's sizes).
// IR-LABEL: func.func @shape_argument
// IR: arith.constant dense<[4, 3]> : tensor<2xi64>
// IR: tensor.reshape
func.func @shape_argument(%x: tensor<8x6xf32>, %shape: tensor<2xi64>) -> tensor<16x3xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<8x6xf32>
  %r = tensor.reshape %xs(%shape) : (tensor<8x6xf32>, tensor<2xi64>) -> tensor<16x3xf32>
  %rs = mesh.shard %r to %s : tensor<16x3xf32>
  return %rs : tensor<16x3xf32>
}

// Rows the devices do not divide (6 over 4): the reshape runs on even
// pieces only, so the rows are gathered first (with a warning) and each
// device slices its own rows of the result.
// WARN: tensor-reshape.mlir:[[@LINE+8]]:8: warning: function argument 0 (tensor<6x4xf32>, split_axes = {{\[\[0\]\]}}) is gathered whole on every device here: 96 bytes received per device
// IR-LABEL: func.func @uneven_rows
// IR: mesh.all_gather
// IR: tensor.reshape %{{.*}} : (tensor<6x4xf32>, tensor<3xi64>) -> tensor<6x2x2xf32>
func.func @uneven_rows(%x: tensor<6x4xf32>) -> tensor<6x2x2xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<6x4xf32>
  %shape = arith.constant dense<[6, 2, 2]> : tensor<3xi64>
  %r = tensor.reshape %xs(%shape) : (tensor<6x4xf32>, tensor<3xi64>) -> tensor<6x2x2xf32>
  %rs = mesh.shard %r to %s : tensor<6x2x2xf32>
  return %rs : tensor<6x2x2xf32>
}
