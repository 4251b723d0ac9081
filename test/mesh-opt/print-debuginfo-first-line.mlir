mesh.mesh @first(shape = 2)
// An op written on line 1 has its location at line 1, column 1, like any other.
// RUN: mesh-opt --mlir-print-debuginfo %s | FileCheck %s -DFILE=%s
// RUN: mesh-opt --mlir-print-debuginfo < %s | FileCheck %s -DFILE="<stdin>"
// CHECK: mesh.mesh @first(shape = 2) loc([[FIRST:#loc[0-9]+]])
// CHECK: [[FIRST]] = loc("[[FILE]]":1:1)
// (The parser wraps the text in "module {" on line 1, so MLIR records the
// op at column 9: printed locations are mapped back as diagnostics are.)
