// With no input file, or with `-`, the input is read from stdin; its
// diagnostics and locations are named <stdin>, as mlir-opt names them.
// RUN: mesh-opt < %s | FileCheck %s
// RUN: mesh-opt - < %s | FileCheck %s
// RUN: cat %s | mesh-opt --mesh-canonicalize --canonicalize - | FileCheck %s --check-prefix=CANON
// RUN: mesh-opt --mlir-print-debuginfo < %s | FileCheck %s --check-prefix=LOC
// RUN: mesh-opt --split-input-file - < %s | FileCheck %s --check-prefix=SPLIT
// An error in stdin input is reported with <stdin>'s positions.
// RUN: sed -e 's/shape = 1x4/shape = 0x4/' %s | not mesh-opt 2>&1 | FileCheck %s --check-prefix=ERR

// CHECK:      module {
// CHECK-NEXT:   mesh.mesh @one(shape = 1x4)
// CHECK-NEXT:   func.func @f() -> index {
// CHECK-NEXT:     %0:2 = mesh.mesh_shape @one : index, index
// CHECK-NEXT:     return %0#1 : index

// CANON:        func.func @f() -> index {
// CANON-NEXT:     %c4 = arith.constant 4 : index
// CANON-NEXT:     return %c4 : index

// LOC:      mesh.mesh @one(shape = 1x4) loc([[MESH:#loc[0-9]+]])
// LOC:      [[MESH]] = loc("<stdin>":[[@LINE+9]]:1)

// SPLIT:      mesh.mesh @one
// SPLIT:      {{^// -----$}}
// SPLIT-NEXT: module {
// SPLIT-NEXT: }

// ERR:      <stdin>:[[@LINE+2]]:1: error: 'mesh.mesh' op mesh axis 0 of @one must have size >= 1 or ?, got 0
// ERR-NEXT: mesh.mesh @one(shape = 0x4)
mesh.mesh @one(shape = 1x4)
func.func @f() -> index {
  %0:2 = mesh.mesh_shape @one : index, index
  return %0#1 : index
}
// -----
