// A function named with bytes that are not UTF-8 (@"f\FF", which MLIR
// accepts and prints back) is refused at the function, with the name as
// MLIR writes it, by every tool that reads names as text; before, each
// said "internal error" with nanobind's words.  Nothing is written.
// RUN: not mesh-opt --mesh-partition %s -o %t.out 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not test -e %t.out
// RUN: not mesh-opt --mesh-analysis %s -o %t.out 2>&1 | FileCheck %s --check-prefix=ANALYSIS
// RUN: not test -e %t.out
// RUN: not mesh-run %s 2>&1 | FileCheck %s --check-prefix=SIM
// RUN: not %python -m mesh_dialect.tools.mesh_viz %s 2>&1 | FileCheck %s --check-prefix=VIZ
// A pass that reads no function name keeps it, and the printer writes it back.
// RUN: mesh-opt --sharding-propagation %s | FileCheck %s --check-prefix=KEPT
// Other strings that are not UTF-8 stay unread, and partition runs.
// RUN: mesh-opt --mesh-partition %S/Inputs/string-not-utf8.mlir | FileCheck %s --check-prefix=STRING
// An error whose message MLIR writes with such a name (a return that does
// not match its function's type, "in function @...") cannot be shown: the
// parser names the string instead of failing with an internal error.
// RUN: not mesh-opt %S/Inputs/error-names-not-utf8.mlir 2>&1 | FileCheck %s --check-prefix=ERROR
// RUN: not mesh-run %S/Inputs/error-names-not-utf8.mlir 2>&1 | FileCheck %s --check-prefix=ERROR
// ERROR: error-names-not-utf8.mlir:2:12: error: the program has an error whose message holds a name or string that is not UTF-8, so it cannot be shown; names and strings must be UTF-8 for it to be read, got "f\ff"
// ERROR-NOT: internal error

// PASS: name-not-utf8.mlir:[[@LINE+6]]:1: error: names and strings must be UTF-8 for pass 'mesh-partition' to read them, got attribute 'sym_name' = "f\FF"
// ANALYSIS: name-not-utf8.mlir:[[@LINE+5]]:1: error: cannot analyze the program: names and strings must be UTF-8 for pass 'mesh-partition' to read them, got attribute 'sym_name' = "f\FF"
// SIM: name-not-utf8.mlir:[[@LINE+4]]:1: error: names and strings must be UTF-8 for the simulator to read them, got attribute 'sym_name' = "f\FF"
// VIZ: name-not-utf8.mlir:[[@LINE+3]]:1: error: names and strings must be UTF-8 for mesh-viz to read them, got attribute 'sym_name' = "f\FF"
// KEPT: func.func @"f\FF"
mesh.mesh @m(shape = 4)
func.func @"f\ff"(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %y = mesh.shard %x to %s : tensor<8xf32>
  return %y : tensor<8xf32>
}

// STRING: arith.addf %arg0, %arg0 {note = "\C3("} : tensor<2xf32>
