// RUN: mesh-opt --split-input-file --mesh-lower-process-multi-index %s | FileCheck %s

mesh.mesh @m(shape = 2x3x4)

// Row-major over the mesh: axis 2 varies fastest. Axis 0 needs no remainder
// (the linear index is below the mesh's size), axis 2 no division.
// CHECK-LABEL: func.func @all_axes
// CHECK-NEXT:    %0 = mesh.process_linear_index on @m : index
// CHECK-NEXT:    %c12 = arith.constant 12 : index
// CHECK-NEXT:    %1 = arith.divui %0, %c12 : index
// CHECK-NEXT:    %c4 = arith.constant 4 : index
// CHECK-NEXT:    %2 = arith.divui %0, %c4 : index
// CHECK-NEXT:    %c3 = arith.constant 3 : index
// CHECK-NEXT:    %3 = arith.remui %2, %c3 : index
// CHECK-NEXT:    %4 = arith.remui %0, %c4 : index
// CHECK-NEXT:    return %1, %3, %4 : index, index, index
func.func @all_axes() -> (index, index, index) {
  %0:3 = mesh.process_multi_index on @m : index, index, index
  return %0#0, %0#1, %0#2 : index, index, index
}

// The results follow the order of `axes`.
// CHECK-LABEL: func.func @some_axes
// CHECK-NEXT:    %0 = mesh.process_linear_index on @m : index
// CHECK-NEXT:    %c4 = arith.constant 4 : index
// CHECK-NEXT:    %1 = arith.remui %0, %c4 : index
// CHECK-NEXT:    %c12 = arith.constant 12 : index
// CHECK-NEXT:    %2 = arith.divui %0, %c12 : index
// CHECK-NEXT:    return %1, %2 : index, index
func.func @some_axes() -> (index, index) {
  %0:2 = mesh.process_multi_index on @m axes = [2, 0] : index, index
  return %0#0, %0#1 : index, index
}

// -----

// Dynamic sizes are read with one mesh.mesh_shape; a size-1 axis is 0.
mesh.mesh @d(shape = 2x?x1x3)

// CHECK-LABEL: func.func @dynamic
// CHECK-NEXT:    %0 = mesh.mesh_shape @d axes = [1] : index
// CHECK-NEXT:    %c3 = arith.constant 3 : index
// CHECK-NEXT:    %1 = arith.muli %c3, %0 : index
// CHECK-NEXT:    %2 = mesh.process_linear_index on @d : index
// CHECK-NEXT:    %3 = arith.divui %2, %1 : index
// CHECK-NEXT:    %4 = arith.divui %2, %c3 : index
// CHECK-NEXT:    %5 = arith.remui %4, %0 : index
// CHECK-NEXT:    %6 = arith.remui %2, %c3 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    return %3, %5, %c0, %6 : index, index, index, index
func.func @dynamic() -> (index, index, index, index) {
  %0:4 = mesh.process_multi_index on @d : index, index, index, index
  return %0#0, %0#1, %0#2, %0#3 : index, index, index, index
}

// -----

// A 1-D mesh: the coordinate is the linear index; only size-1 axes:
// no process query at all.
mesh.mesh @line(shape = 8)
mesh.mesh @one(shape = 1x1)

// CHECK-LABEL: func.func @line_and_one
// CHECK-NEXT:    %0 = mesh.process_linear_index on @line : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    return %0, %c0, %c0 : index, index, index
func.func @line_and_one() -> (index, index, index) {
  %0 = mesh.process_multi_index on @line : index
  %1:2 = mesh.process_multi_index on @one : index, index
  return %0, %1#0, %1#1 : index, index, index
}

// -----

// Inside regions, each op is lowered where it stands.
mesh.mesh @m(shape = 2x2)

// CHECK-LABEL: func.func @in_region
// CHECK:         scf.if
// CHECK-NEXT:      %[[L:.*]] = mesh.process_linear_index on @m : index
// CHECK-NEXT:      %c2 = arith.constant 2 : index
// CHECK-NEXT:      %{{.*}} = arith.remui %[[L]], %c2 : index
// CHECK-NOT:     mesh.process_multi_index
func.func @in_region(%c: i1) -> index {
  %r = scf.if %c -> index {
    %0 = mesh.process_multi_index on @m axes = [1] : index
    scf.yield %0 : index
  } else {
    %z = arith.constant 0 : index
    scf.yield %z : index
  }
  return %r : index
}

// -----

// Axis 0 needs neither its own size nor a remainder, even when dynamic.
mesh.mesh @dl(shape = ?x2)

// CHECK-LABEL: func.func @dynamic_first_axis
// CHECK-NEXT:    %0 = mesh.process_linear_index on @dl : index
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %1 = arith.divui %0, %c2 : index
// CHECK-NEXT:    return %1 : index
func.func @dynamic_first_axis() -> index {
  %0 = mesh.process_multi_index on @dl axes = [0] : index
  return %0 : index
}
