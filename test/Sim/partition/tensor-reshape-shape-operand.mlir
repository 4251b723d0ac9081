// The target shape of a tensor.reshape becomes a whole constant of each
// device's piece's shape, whatever made the operand: one result of an op
// whose other result is still read (that op stays; partition used to erase
// it and abort the process), or an argument annotated split (the constant
// is typed whole, not as that argument's piece: partition used to fail
// building it).  Each function simulates equal to the original.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir -f shape_from_if --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir -f shape_from_if --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir -f split_shape -i %S/Inputs/reshape-8x6.npy -i %S/Inputs/reshape-shape-16x3.npy --compare-with %s -q | FileCheck %s --check-prefix=MATCH
// MATCH: match

mesh.mesh @mesh(shape = 4)

// CHECK-LABEL: func.func @shape_from_if
// CHECK: %[[IF:.*]]:2 = scf.if
// CHECK: %[[SHAPE:.*]] = arith.constant dense<[2, 4, 4]> : tensor<3xi64>
// CHECK: tensor.reshape %{{.*}}(%[[SHAPE]]) : (tensor<2x16xf32>, tensor<3xi64>) -> tensor<2x4x4xf32>
// CHECK: return %{{.*}}, %[[IF]]#1
func.func @shape_from_if(%x: tensor<8x16xf32>, %c: i1, %d: tensor<4xf32>, %e: tensor<4xf32>) -> (tensor<8x4x4xf32>, tensor<4xf32>) {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<8x16xf32>
  %target = arith.constant dense<[8, 4, 4]> : tensor<3xi64>
  %shape, %data = scf.if %c -> (tensor<3xi64>, tensor<4xf32>) {
    scf.yield %target, %d : tensor<3xi64>, tensor<4xf32>
  } else {
    scf.yield %target, %e : tensor<3xi64>, tensor<4xf32>
  }
  %r = tensor.reshape %xs(%shape) : (tensor<8x16xf32>, tensor<3xi64>) -> tensor<8x4x4xf32>
  %rs = mesh.shard %r to %rows : tensor<8x4x4xf32>
  return %rs, %data : tensor<8x4x4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @split_shape
// CHECK: %[[SHAPE:.*]] = arith.constant dense<[4, 3]> : tensor<2xi64>
// CHECK: tensor.reshape %arg0(%[[SHAPE]]) : (tensor<2x6xf32>, tensor<2xi64>) -> tensor<4x3xf32>
func.func @split_shape(%x: tensor<8x6xf32>, %shape: tensor<2xi64>) -> tensor<16x3xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<8x6xf32>
  %ss = mesh.shard %shape to %rows : tensor<2xi64>
  %r = tensor.reshape %xs(%ss) : (tensor<8x6xf32>, tensor<2xi64>) -> tensor<16x3xf32>
  %rs = mesh.shard %r to %rows : tensor<16x3xf32>
  return %rs : tensor<16x3xf32>
}
