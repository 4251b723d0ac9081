// RUN: mesh-opt --split-input-file --mesh-lower-all-slice %s | FileCheck %s

mesh.mesh @m(shape = 2x3x4)

// One axis: the piece starts at index * (its size).
// CHECK-LABEL: func.func @one_axis
// CHECK-NEXT:    %0 = mesh.process_multi_index on @m axes = [1] : index
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %1 = arith.muli %0, %c2 : index
// CHECK-NEXT:    %extracted_slice = tensor.extract_slice %arg0[0, %1] [4, 2] [1, 1] : tensor<4x6xf32> to tensor<4x2xf32>
// CHECK-NEXT:    return %extracted_slice : tensor<4x2xf32>
func.func @one_axis(%x: tensor<4x6xf32>) -> tensor<4x2xf32> {
  %0 = mesh.all_slice %x on @m mesh_axes = [1] slice_axis = 1 : tensor<4x6xf32> -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// Several axes: one in-group index, the first listed axis outermost
// ((i2 * 2 + i0) * 3 + i1 for [2, 0, 1]).
// CHECK-LABEL: func.func @axes_in_listed_order
// CHECK-NEXT:    %0:3 = mesh.process_multi_index on @m axes = [2, 0, 1] : index, index, index
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %1 = arith.muli %0#0, %c2 : index
// CHECK-NEXT:    %2 = arith.addi %1, %0#1 : index
// CHECK-NEXT:    %c3 = arith.constant 3 : index
// CHECK-NEXT:    %3 = arith.muli %2, %c3 : index
// CHECK-NEXT:    %4 = arith.addi %3, %0#2 : index
// CHECK-NEXT:    %5 = arith.muli %4, %c2 : index
// CHECK-NEXT:    %extracted_slice = tensor.extract_slice %arg0[%5, 0] [2, 5] [1, 1] : tensor<48x5xi8> to tensor<2x5xi8>
func.func @axes_in_listed_order(%x: tensor<48x5xi8>) -> tensor<2x5xi8> {
  %0 = mesh.all_slice %x on @m mesh_axes = [2, 0, 1] slice_axis = 0 : tensor<48x5xi8> -> tensor<2x5xi8>
  return %0 : tensor<2x5xi8>
}

// A dynamic tensor dimension other than the slice axis stays dynamic; one
// along the slice axis is divided by the group's size.
// CHECK-LABEL: func.func @dynamic_dims
// CHECK:         %[[I:.*]] = mesh.process_multi_index on @m axes = [2] : index
// CHECK:         %[[D:.*]] = tensor.dim %arg0, %c0 : tensor<?x8xf32>
// CHECK:         tensor.extract_slice %arg0[0, %{{.*}}] [%[[D]], 2] [1, 1] : tensor<?x8xf32> to tensor<?x2xf32>
// CHECK:         %[[I2:.*]] = mesh.process_multi_index on @m axes = [0] : index
// CHECK:         %[[D2:.*]] = tensor.dim %arg0, %c0{{.*}} : tensor<?x8xf32>
// CHECK:         %[[S:.*]] = arith.divui %[[D2]], %c2{{.*}} : index
// CHECK:         %[[O:.*]] = arith.muli %[[I2]], %[[S]] : index
// CHECK:         tensor.extract_slice %arg0[%[[O]], 0] [%[[S]], 8] [1, 1] : tensor<?x8xf32> to tensor<?x8xf32>
func.func @dynamic_dims(%x: tensor<?x8xf32>) -> (tensor<?x2xf32>, tensor<?x8xf32>) {
  %0 = mesh.all_slice %x on @m mesh_axes = [2] slice_axis = 1 : tensor<?x8xf32> -> tensor<?x2xf32>
  %1 = mesh.all_slice %x on @m mesh_axes = [0] slice_axis = 0 : tensor<?x8xf32> -> tensor<?x8xf32>
  return %0, %1 : tensor<?x2xf32>, tensor<?x8xf32>
}

// -----

// A dynamic mesh axis: the group's size comes from mesh.mesh_shape.
mesh.mesh @d(shape = 2x?)

// CHECK-LABEL: func.func @dynamic_mesh
// CHECK-NEXT:    %0 = mesh.mesh_shape @d axes = [1] : index
// CHECK-NEXT:    %1:2 = mesh.process_multi_index on @d axes = [1, 0] : index, index
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %2 = arith.muli %1#0, %c2 : index
// CHECK-NEXT:    %3 = arith.addi %2, %1#1 : index
// CHECK-NEXT:    %4 = arith.muli %0, %c2 : index
// CHECK-NEXT:    %c24 = arith.constant 24 : index
// CHECK-NEXT:    %5 = arith.divui %c24, %4 : index
// CHECK-NEXT:    %6 = arith.muli %3, %5 : index
// CHECK-NEXT:    %extracted_slice = tensor.extract_slice %arg0[%6, 0] [%5, 5] [1, 1] : tensor<24x5xf32> to tensor<?x5xf32>
func.func @dynamic_mesh(%x: tensor<24x5xf32>) -> tensor<?x5xf32> {
  %0 = mesh.all_slice %x on @d mesh_axes = [1, 0] slice_axis = 0 : tensor<24x5xf32> -> tensor<?x5xf32>
  return %0 : tensor<?x5xf32>
}

// -----

// One-device groups (no axes, or only size-1 axes) keep their input; a
// size-1 axis next to others is left out of the index.
mesh.mesh @o(shape = 1x4x1)

// CHECK-LABEL: func.func @one_device
// CHECK-NEXT:    %0 = mesh.process_multi_index on @o axes = [1] : index
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %1 = arith.muli %0, %c2 : index
// CHECK-NEXT:    %extracted_slice = tensor.extract_slice %arg0[%1, 0] [2, 3] [1, 1] : tensor<8x3xf32> to tensor<2x3xf32>
// CHECK-NEXT:    return %arg0, %arg0, %extracted_slice : tensor<8x3xf32>, tensor<8x3xf32>, tensor<2x3xf32>
func.func @one_device(%x: tensor<8x3xf32>) -> (tensor<8x3xf32>, tensor<8x3xf32>, tensor<2x3xf32>) {
  %0 = mesh.all_slice %x on @o mesh_axes = [] slice_axis = 0 : tensor<8x3xf32> -> tensor<8x3xf32>
  %1 = mesh.all_slice %x on @o mesh_axes = [2, 0] slice_axis = 1 : tensor<8x3xf32> -> tensor<8x3xf32>
  %2 = mesh.all_slice %x on @o mesh_axes = [0, 1, 2] slice_axis = 0 : tensor<8x3xf32> -> tensor<2x3xf32>
  return %0, %1, %2 : tensor<8x3xf32>, tensor<8x3xf32>, tensor<2x3xf32>
}

// -----

// A piece with no elements reads nothing: an empty tensor, no index (a
// static offset on a dimension of size 0 would not verify).
mesh.mesh @m2(shape = 2)
// CHECK-LABEL: func.func @empty
// CHECK-NEXT:    %0 = tensor.empty() : tensor<0xf32>
// CHECK-NEXT:    %1 = tensor.empty() : tensor<5x0xf64>
// CHECK-NEXT:    return %0, %1
func.func @empty(%x: tensor<0xf32>, %y: tensor<10x0xf64>) -> (tensor<0xf32>, tensor<5x0xf64>) {
  %0 = mesh.all_slice %x on @m2 mesh_axes = [0] slice_axis = 0 : tensor<0xf32> -> tensor<0xf32>
  %1 = mesh.all_slice %y on @m2 mesh_axes = [0] slice_axis = 0 : tensor<10x0xf64> -> tensor<5x0xf64>
  return %0, %1 : tensor<0xf32>, tensor<5x0xf64>
}
