// --split-input-file: every chunk between `// -----` lines is parsed, verified
// and printed on its own (a module each), and the outputs are joined with
// `// -----` lines, so they can be told apart.
// RUN: mesh-opt --split-input-file %s | FileCheck %s
// The same from stdin, and through a pass.
// RUN: mesh-opt --split-input-file < %s | FileCheck %s
// RUN: mesh-opt --split-input-file --mesh-canonicalize %s | FileCheck %s --check-prefix=CANON
// Without the flag the markers are plain comments: one module holds all
// chunks, and the two @a clash.
// RUN: not mesh-opt %s 2>&1 | FileCheck %s --check-prefix=WHOLE -DFILE=%s

// CHECK:      module {
// CHECK-NEXT:   mesh.mesh @a(shape = 2x2)
// CHECK-NEXT: }
// CHECK-NOT:  mesh.mesh
// CHECK:      {{^// -----$}}
// CHECK-NEXT: module {
// CHECK-NEXT:   mesh.mesh @b(shape = 4)
// CHECK-NEXT:   func.func @size() -> index {
// CHECK-NEXT:     %0 = mesh.process_linear_index on @b : index
// CHECK-NEXT:     return %0 : index
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NOT:  mesh.mesh
// CHECK:      {{^// -----$}}
// CHECK-NEXT: module {
// CHECK-NEXT:   mesh.mesh @a(shape = 1)
// CHECK-NEXT:   func.func @one() -> index {
// CHECK-NEXT:     %0 = mesh.process_linear_index on @a : index
// CHECK-NEXT:     return %0 : index
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NOT:  {{.}}

// CANON:      {{^// -----$}}
// CANON:      {{^// -----$}}
// CANON:        func.func @one() -> index {
// CANON-NEXT:     %c0 = arith.constant 0 : index
// CANON-NEXT:     return %c0 : index

mesh.mesh @a(shape = 2x2)

// -----

mesh.mesh @b(shape = 4)
func.func @size() -> index {
  %0 = mesh.process_linear_index on @b : index
  return %0 : index
}

// -----

// A chunk may reuse a symbol of another chunk: they are separate modules.
// WHOLE:      [[FILE]]:[[@LINE+4]]:1: error: redefinition of symbol named 'a'
// WHOLE-NEXT: mesh.mesh @a(shape = 1)
// WHOLE-NEXT: {{^\^$}}
// WHOLE-NEXT: [[FILE]]:{{[0-9]+}}:1: note: see existing symbol definition here
mesh.mesh @a(shape = 1)
func.func @one() -> index {
  %0 = mesh.process_linear_index on @a : index
  return %0 : index
}
