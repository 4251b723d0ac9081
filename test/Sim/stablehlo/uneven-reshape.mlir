// An hlo reshape that only adds, drops or moves unit dimensions next to
// dimensions cut into pieces of different sizes (5 rows and 7 columns over
// 2x2, a layout written by hand, or propagation's cut of a slice's result)
// cannot write its result's size: partition makes it a tensor.expand_shape
// or collapse_shape (both, where it merges units on one side and splits
// them on the other), each piece's size read from the operand's.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f add_unit -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f drop_units -q --seed 2 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f move_units -q --seed 3 | FileCheck %s --check-prefix=SIM
// SIM: match

mesh.mesh @mesh(shape = 2x2)
func.func @add_unit(%arg0: tensor<5x7xf32>) -> tensor<5x7x1xf32> {
  %s = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %x = mesh.shard %arg0 to %s : tensor<5x7xf32>
  %0 = "stablehlo.reshape"(%x) : (tensor<5x7xf32>) -> tensor<5x7x1xf32>
  %1 = mesh.shard %0 to %s : tensor<5x7x1xf32>
  return %1 : tensor<5x7x1xf32>
}
// CHECK-LABEL: func.func @add_unit(%arg0: tensor<?x?xf32>
// CHECK:         %[[R:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[ROWS:.*]] = tensor.dim %arg0, %[[R]] : tensor<?x?xf32>
// CHECK-NEXT:    %[[C:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[COLS:.*]] = tensor.dim %arg0, %[[C]] : tensor<?x?xf32>
// CHECK-NEXT:    %[[E:.*]] = tensor.expand_shape %arg0 {{\[\[}}0], [1, 2]] output_shape [%[[ROWS]], %[[COLS]], 1] : tensor<?x?xf32> into tensor<?x?x1xf32>
// CHECK-NEXT:    return %[[E]]

func.func @drop_units(%arg0: tensor<1x5x1x7xf32>) -> tensor<5x7xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [0], [], [1]] : !mesh.sharding
  %t = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %x = mesh.shard %arg0 to %s : tensor<1x5x1x7xf32>
  %0 = "stablehlo.reshape"(%x) : (tensor<1x5x1x7xf32>) -> tensor<5x7xf32>
  %1 = mesh.shard %0 to %t : tensor<5x7xf32>
  return %1 : tensor<5x7xf32>
}
// CHECK-LABEL: func.func @drop_units(%arg0: tensor<1x?x1x?xf32>
// CHECK-NEXT:    %[[D:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1], [2, 3]] : tensor<1x?x1x?xf32> into tensor<?x?xf32>
// CHECK-NEXT:    return %[[D]]

func.func @move_units(%arg0: tensor<5x1x7xf32>) -> tensor<1x5x7x1xf32> {
  %s = mesh.sharding @mesh split_axes = [[0], [], [1]] : !mesh.sharding
  %t = mesh.sharding @mesh split_axes = [[], [0], [1]] : !mesh.sharding
  %x = mesh.shard %arg0 to %s : tensor<5x1x7xf32>
  %0 = "stablehlo.reshape"(%x) : (tensor<5x1x7xf32>) -> tensor<1x5x7x1xf32>
  %1 = mesh.shard %0 to %t : tensor<1x5x7x1xf32>
  return %1 : tensor<1x5x7x1xf32>
}
// CHECK-LABEL: func.func @move_units(%arg0: tensor<?x1x?xf32>
// CHECK-NEXT:    %[[M:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0], [1, 2]] : tensor<?x1x?xf32> into tensor<?x?xf32>
// CHECK:         tensor.expand_shape %[[M]] {{\[\[}}0, 1], [2, 3]] output_shape [1, %{{.*}}, %{{.*}}, 1] : tensor<?x?xf32> into tensor<1x?x?x1xf32>
