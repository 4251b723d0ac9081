// mesh-lower-all-slice keeps on each device the piece mesh.all_slice keeps:
// slices over 1-D, 2-D and 3-D meshes, along every tensor axis, over mesh
// axes in and out of order, with size-1 axes and one-device groups. Each
// result is laid out as the slice leaves it, so the simulator puts the
// pieces back together and compares them with the unlowered program's.
// RUN: mesh-opt --mesh-lower-all-slice %s -o %t.slice.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.slice.mlir
// RUN: mesh-run %t.slice.mlir -f line --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.slice.mlir -f grid --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.slice.mlir -f cube --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.slice.mlir -f cube --compare-with %s -q --seed 4 | FileCheck %s
// RUN: mesh-run %t.slice.mlir -f ones --compare-with %s -q | FileCheck %s
// And after lowering the process indices too, only the linear index is left:
// RUN: mesh-opt --mesh-lower-all-slice --mesh-lower-process-multi-index %s -o %t.linear.mlir
// RUN: FileCheck %s --check-prefix=LINEAR < %t.linear.mlir
// RUN: mesh-run %t.linear.mlir -f line --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.linear.mlir -f grid --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.linear.mlir -f cube --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.linear.mlir -f ones --compare-with %s -q | FileCheck %s
// CHECK: match

// Pieces taken in the wrong group order are caught:
// RUN: sed -e 's/mesh_axes = \[2, 0\] slice_axis = 1/mesh_axes = [0, 2] slice_axis = 1/' %s > %t.swapped.mlir
// RUN: not mesh-run %t.swapped.mlir -f cube --compare-with %s -q | FileCheck %s --check-prefix=WRONG
// WRONG: MISMATCH

// IR-NOT: mesh.all_slice
// IR-LABEL: func.func @line
// IR: %[[I:.*]] = mesh.process_multi_index on @m1 axes = [0] : index
// IR: %[[O:.*]] = arith.muli %[[I]], %c2 : index
// IR: tensor.extract_slice %arg0[%[[O]], 0] [2, 3] [1, 1] : tensor<8x3xf32> to tensor<2x3xf32>
// IR-LABEL: func.func @cube
// The in-group index reads the first listed axis as the outermost:
// IR: %[[I:.*]]:2 = mesh.process_multi_index on @m3 axes = [2, 0] : index, index
// IR: %[[A:.*]] = arith.muli %[[I]]#0, %c2 : index
// IR: %[[B:.*]] = arith.addi %[[A]], %[[I]]#1 : index
// IR-LABEL: func.func @ones
// A one-device group keeps its input:
// IR-NOT: tensor.extract_slice %arg0{{.*}} to tensor<4x6xi32>
// IR: return %arg0,

// LINEAR-NOT: mesh.process_multi_index
// LINEAR-NOT: mesh.all_slice
// LINEAR: mesh.process_linear_index

mesh.mesh @m1(shape = 4)
mesh.mesh @m2(shape = 2x3)
mesh.mesh @m3(shape = 2x3x2)
mesh.mesh @m4(shape = 1x4x1)

func.func @line(%x: tensor<8x3xf32>) -> (tensor<2x3xf32> {mesh.sharding = #mesh.sharding<@m1, [[0]]>},
                                        tensor<8x3xf32> {mesh.sharding = #mesh.sharding<@m1, [[]]>}) {
  %0 = mesh.all_slice %x on @m1 mesh_axes = [0] slice_axis = 0 : tensor<8x3xf32> -> tensor<2x3xf32>
  %1 = mesh.all_slice %x on @m1 mesh_axes = [] slice_axis = 1 : tensor<8x3xf32> -> tensor<8x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<8x3xf32>
}

func.func @grid(%x: tensor<6x12xi32>)
    -> (tensor<6x2xi32> {mesh.sharding = #mesh.sharding<@m2, [[], [1, 0]]>},
        tensor<3x4xi32> {mesh.sharding = #mesh.sharding<@m2, [[0], [1]]>},
        tensor<1x12xi32> {mesh.sharding = #mesh.sharding<@m2, [[0, 1]]>}) {
  %0 = mesh.all_slice %x on @m2 mesh_axes = [1, 0] slice_axis = 1 : tensor<6x12xi32> -> tensor<6x2xi32>
  // Two slices in a row: the rows over axis 0, then the columns over axis 1.
  %r = mesh.all_slice %x on @m2 mesh_axes = [0] slice_axis = 0 : tensor<6x12xi32> -> tensor<3x12xi32>
  %1 = mesh.all_slice %r on @m2 mesh_axes = [1] slice_axis = 1 : tensor<3x12xi32> -> tensor<3x4xi32>
  %2 = mesh.all_slice %x on @m2 mesh_axes = [0, 1] slice_axis = 0 : tensor<6x12xi32> -> tensor<1x12xi32>
  return %0, %1, %2 : tensor<6x2xi32>, tensor<3x4xi32>, tensor<1x12xi32>
}

func.func @cube(%x: tensor<4x12x12xf32>)
    -> (tensor<4x3x12xf32> {mesh.sharding = #mesh.sharding<@m3, [[], [2, 0]]>},
        tensor<4x12x1xf32> {mesh.sharding = #mesh.sharding<@m3, [[], [], [1, 2, 0]]>},
        tensor<2x4x6xf32> {mesh.sharding = #mesh.sharding<@m3, [[0], [1], [2]]>}) {
  %0 = mesh.all_slice %x on @m3 mesh_axes = [2, 0] slice_axis = 1 : tensor<4x12x12xf32> -> tensor<4x3x12xf32>
  %1 = mesh.all_slice %x on @m3 mesh_axes = [1, 2, 0] slice_axis = 2 : tensor<4x12x12xf32> -> tensor<4x12x1xf32>
  %a = mesh.all_slice %x on @m3 mesh_axes = [0] slice_axis = 0 : tensor<4x12x12xf32> -> tensor<2x12x12xf32>
  %b = mesh.all_slice %a on @m3 mesh_axes = [1] slice_axis = 1 : tensor<2x12x12xf32> -> tensor<2x4x12xf32>
  %2 = mesh.all_slice %b on @m3 mesh_axes = [2] slice_axis = 2 : tensor<2x4x12xf32> -> tensor<2x4x6xf32>
  return %0, %1, %2 : tensor<4x3x12xf32>, tensor<4x12x1xf32>, tensor<2x4x6xf32>
}

// Size-1 axes: a group over them alone has one device; next to a real axis
// they change nothing.
func.func @ones(%x: tensor<4x6xi32>)
    -> (tensor<4x6xi32> {mesh.sharding = #mesh.sharding<@m4, [[]]>},
        tensor<1x6xi32> {mesh.sharding = #mesh.sharding<@m4, [[0, 1, 2]]>}) {
  %0 = mesh.all_slice %x on @m4 mesh_axes = [2, 0] slice_axis = 0 : tensor<4x6xi32> -> tensor<4x6xi32>
  %1 = mesh.all_slice %x on @m4 mesh_axes = [0, 1, 2] slice_axis = 0 : tensor<4x6xi32> -> tensor<1x6xi32>
  return %0, %1 : tensor<4x6xi32>, tensor<1x6xi32>
}
