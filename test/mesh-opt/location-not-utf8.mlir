// A location whose file name is not UTF-8 (loc("\FF":...), which MLIR
// accepts) is read through its printed form: the bindings' own reader of
// the name aborted the process.  Its bytes show as U+FFFD in a diagnostic;
// an op located so is reported, analysed and run like any other.
// RUN: mesh-opt --mesh-analysis %s -o %t.mlir 2>&1 | FileCheck %s --check-prefix=ANALYSIS
// RUN: FileCheck %s --check-prefix=OUT < %t.mlir
// RUN: mesh-run %s -f f -q --seed 1 --compare-with %s | FileCheck %s --check-prefix=MATCH
// RUN: printf 'mesh.mesh @m(shape = 2)\nfunc.func @g() {\n  %%%%s = mesh.sharding @m split_axes = [[3]] : !mesh.sharding loc("\\FF":7:9)\n  return\n}\n' > %t.bad.mlir
// RUN: not mesh-opt %t.bad.mlir -o %t.bad.out 2>&1 | FileCheck %s --check-prefix=ERROR
// RUN: not test -e %t.bad.out
// ANALYSIS: @f (no mesh: one device)
// OUT: math.exp %arg0 : tensor<4xf32>
// MATCH: match
// ERROR: �:7:9: error: 'mesh.sharding' op mesh axis 3 is out of range for mesh @m of rank 1

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %1 = math.exp %a : tensor<4xf32> loc("\FF":3:4)
  return %1 : tensor<4xf32>
}
