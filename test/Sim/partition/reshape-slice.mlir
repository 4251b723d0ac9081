// Reshapes, slices and casts next to a split value: each splits along the
// dimensions it keeps whole (a merged group along its major dimension); a
// split on a group's minor dimension, or on a sliced one, moves to a
// dimension the op keeps whole with one all_to_all (less than a gather).
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 5 | FileCheck %s
// CHECK-COUNT-6: max error 0
// CHECK-NEXT: match

// IR-LABEL: func.func @f(%arg0: tensor<2x6x4xf32>
// IR-NEXT: tensor.collapse_shape %arg0 {{\[\[}}0, 1], [2]] : tensor<2x6x4xf32> into tensor<12x4xf32>
// IR-NEXT: tensor.expand_shape %arg0 {{\[\[}}0], [1, 2], [3]] output_shape [2, 3, 2, 4] : tensor<2x6x4xf32> into tensor<2x3x2x4xf32>
// IR-NEXT: tensor.extract_slice %arg0[0, 2, 0] [2, 2, 4] [1, 1, 1] : tensor<2x6x4xf32> to tensor<2x2x4xf32>
// The minor dimension of a merged group cannot stay split: its split moves
// to the group's major dimension
// IR-NEXT: %[[G:.*]] = mesh.all_to_all %arg0 on @mesh mesh_axes = [1] split_axis = 1 concat_axis = 2 : tensor<2x6x4xf32> -> tensor<2x3x8xf32>
// IR-NEXT: %[[F:.*]] = tensor.collapse_shape %[[G]] {{\[\[}}0], [1, 2]] : tensor<2x3x8xf32> into tensor<2x24xf32>
// Inserted at row 4, the piece cannot stay split on its rows: they move to
// the columns, and the destination (an argument with no layout) arrives so
// IR-NEXT: %[[W:.*]] = mesh.all_to_all %[[F]] on @mesh mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<2x24xf32> -> tensor<4x12xf32>
// IR-NEXT: tensor.insert_slice %[[W]] into %arg1[4, 0] [4, 12] [1, 1] : tensor<4x12xf32> into tensor<8x12xf32>
// IR: %[[S:.*]] = tosa.const_shape {{ *}}{values = dense<[2, 24]> : tensor<2xindex>} : () -> !tosa.shape<2>
// IR-NEXT: tosa.reshape %[[G]], %[[S]] : (tensor<2x3x8xf32>, !tosa.shape<2>) -> tensor<2x24xf32>
// IR-NEXT: tensor.cast %arg0 : tensor<2x6x4xf32> to tensor<2x6x4xf32>

mesh.mesh @mesh(shape = 2x2)
func.func @f(%x: tensor<4x6x8xf32>, %d: tensor<8x48xf32>) -> (tensor<24x8xf32>, tensor<4x3x2x8xf32>, tensor<4x2x8xf32>, tensor<8x48xf32>, tensor<4x48xf32>, tensor<4x6x8xf32>) {
  %s = mesh.sharding @mesh split_axes = [[0], [], [1]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<4x6x8xf32>
  %c = tensor.collapse_shape %x0 [[0, 1], [2]] : tensor<4x6x8xf32> into tensor<24x8xf32>
  %e = tensor.expand_shape %x0 [[0], [1, 2], [3]] output_shape [4, 3, 2, 8] : tensor<4x6x8xf32> into tensor<4x3x2x8xf32>
  %sl = tensor.extract_slice %x0[0, 2, 0] [4, 2, 8] [1, 1, 1] : tensor<4x6x8xf32> to tensor<4x2x8xf32>
  %flat = tensor.collapse_shape %x0 [[0], [1, 2]] : tensor<4x6x8xf32> into tensor<4x48xf32>
  %i = tensor.insert_slice %flat into %d[4, 0] [4, 48] [1, 1] : tensor<4x48xf32> into tensor<8x48xf32>
  %shape = tosa.const_shape {values = dense<[4, 48]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.reshape %x0, %shape : (tensor<4x6x8xf32>, !tosa.shape<2>) -> tensor<4x48xf32>
  %cast = tensor.cast %x0 : tensor<4x6x8xf32> to tensor<4x6x8xf32>
  return %c, %e, %sl, %i, %r, %cast : tensor<24x8xf32>, tensor<4x3x2x8xf32>, tensor<4x2x8xf32>, tensor<8x48xf32>, tensor<4x48xf32>, tensor<4x6x8xf32>
}
