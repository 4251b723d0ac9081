// mlir-opt's flags, with mlir-opt's meanings; the IR they print is in our
// custom syntax, headers name pipeline elements as written.

// --verify-each takes a value as mlir-opt's does; a bad one is refused.
// RUN: mesh-opt %s --verify-each=false --mesh-canonicalize | FileCheck %s --check-prefix=OUT
// RUN: mesh-opt %s --verify-each=0 --mesh-canonicalize | FileCheck %s --check-prefix=OUT
// RUN: mesh-opt %s --verify-each=true --mesh-canonicalize | FileCheck %s --check-prefix=OUT
// RUN: mesh-opt %s -verify-each=1 --mesh-canonicalize | FileCheck %s --check-prefix=OUT
// RUN: not mesh-opt %s --verify-each=off 2>&1 | FileCheck %s --check-prefix=BADBOOL
// BADBOOL: mesh-opt: error: option '--verify-each' takes true, false, 1 or 0, got 'off'

// OUT:      mesh.mesh @one(shape = 1x4)
// OUT:      %c4 = arith.constant 4 : index

// --mlir-print-ir-before-all: a header and the IR before each element.
// RUN: mesh-opt %s --mlir-print-ir-before-all --mesh-canonicalize -canonicalize 2>&1 >/dev/null | FileCheck %s --check-prefix=BEFORE
// BEFORE:      // -----// IR Dump Before mesh-canonicalize //----- //
// BEFORE-NEXT: module {
// BEFORE-NEXT:   mesh.mesh @one(shape = 1x4)
// BEFORE:        %0:2 = mesh.mesh_shape @one : index, index
// BEFORE:      // -----// IR Dump Before canonicalize //----- //
// BEFORE-NEXT: module {
// BEFORE-NOT:    mesh.mesh_shape
// BEFORE-NOT:  IR Dump

// --mlir-print-ir-after-change narrows --mlir-print-ir-after-all to the
// elements that changed the IR (the second mesh-canonicalize finds nothing);
// alone it prints nothing, as in mlir-opt.
// RUN: mesh-opt %s --mlir-print-ir-after-all --mlir-print-ir-after-change --mesh-canonicalize --mesh-canonicalize -canonicalize 2>&1 >/dev/null | FileCheck %s --check-prefix=CHANGE
// RUN: mesh-opt %s --mlir-print-ir-after-change --mesh-canonicalize 2>&1 >/dev/null | FileCheck %s --allow-empty --check-prefix=NOTHING
// CHANGE:     // -----// IR Dump After mesh-canonicalize //----- //
// CHANGE:     // -----// IR Dump After canonicalize //----- //
// CHANGE-NOT: IR Dump
// NOTHING-NOT: {{.}}

// --mlir-print-ir-after-failure: the IR the failed element left, after its
// error; with --mlir-print-ir-after-all, only that one.
// RUN: not mesh-opt %s --mlir-print-ir-after-failure --mlir-print-ir-after-all --mesh-canonicalize --one-shot-bufferize 2>&1 >/dev/null | FileCheck %s --check-prefix=FAILED
// FAILED-NOT:  IR Dump After mesh-canonicalize
// FAILED:      error: op was not bufferized
// FAILED:      // -----// IR Dump After one-shot-bufferize Failed //----- //
// FAILED-NEXT: module {
// FAILED:        mesh.mesh @one(shape = 1x4)
// FAILED:        bufferization.to_tensor
// FAILED-NOT:  IR Dump

// --mlir-elide-elementsattrs-if-larger=N, in the output and in dumps.
// RUN: mesh-opt %s --mlir-elide-elementsattrs-if-larger=3 | FileCheck %s --check-prefix=ELIDE
// RUN: mesh-opt %s --mlir-elide-elementsattrs-if-larger=3 --mlir-print-ir-after-all --cse 2>&1 >/dev/null | FileCheck %s --check-prefix=ELIDE
// RUN: mesh-opt %s --mlir-elide-elementsattrs-if-larger=4 | FileCheck %s --check-prefix=KEEP
// ELIDE: arith.constant dense_resource<__elided__> : tensor<4xf32>
// KEEP:  arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>

// --dump-pass-pipeline: the pipeline with every option, on stderr.
// RUN: mesh-opt %s --dump-pass-pipeline --pass-pipeline='builtin.module(mesh-canonicalize{dce=false}, func.func(cse, canonicalize{max-iterations=3}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=DUMP
// DUMP:      Pass Manager with 2 passes:
// DUMP-NEXT: builtin.module(
// DUMP-NEXT:   mesh-canonicalize{fold-collectives=true fold-queries=true cse=true dce=false},
// DUMP-NEXT:   func.func(
// DUMP-NEXT:     cse,
// DUMP-NEXT:     canonicalize{ {{ *}}max-iterations=3 {{.*}}}
// DUMP-NEXT:   )
// DUMP-NEXT: )

// --mlir-timing: mlir-opt's report on stderr, our passes and verifier in it.
// RUN: mesh-opt %s --mlir-timing --pass-pipeline='builtin.module(mesh-canonicalize, func.func(cse))' 2>&1 >/dev/null | FileCheck %s --check-prefix=TIME
// TIME:      ===-------------------------------------------------------------------------===
// TIME-NEXT:                          ... Execution time report ...
// TIME-NEXT: ===-------------------------------------------------------------------------===
// TIME-NEXT:   Total Execution Time: {{[0-9]+\.[0-9][0-9][0-9][0-9]}} seconds
// TIME-EMPTY:
// TIME-NEXT:   ----User Time----  ----Wall Time----  ----Name----
// TIME-NEXT:   {{ +[0-9]+\.[0-9]+ \( *[0-9.]+%\) +[0-9]+\.[0-9]+ \( *[0-9.]+%\)}}  Parser
// TIME-NEXT:   {{.*}}  mesh-canonicalize
// TIME-NEXT:   {{.*}}    mesh-verify
// TIME-NEXT:   {{.*}}  func.func(cse)
// TIME-NEXT:   {{.*}}    mesh-verify
// TIME-NEXT:   {{.*}}  Output
// TIME-NEXT:   {{.*}}  Rest
// TIME-NEXT:   {{.*}}(100.0%)  Total

// --mlir-pass-statistics: MLIR's report, our passes in it by class name.
// RUN: mesh-opt %s --mlir-pass-statistics --pass-pipeline='builtin.module(mesh-canonicalize, func.func(cse))' 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// STATS:      ===-------------------------------------------------------------------------===
// STATS-NEXT:                          ... Pass statistics report ...
// STATS-NEXT: ===-------------------------------------------------------------------------===
// STATS-NEXT: MeshCanonicalize
// STATS-NEXT: 'func.func' Pipeline
// STATS-NEXT:   CSE
// STATS-NEXT:     (S) {{[0-9]+}} num-cse'd - Number of operations CSE'd
// STATS-NOT:  VerifyMesh

// --emit-bytecode: MLIR bytecode to -o or stdout, which mesh-opt reads back.
// RUN: mesh-opt %s --emit-bytecode --mesh-canonicalize -o %t.mlirbc
// RUN: mesh-opt %t.mlirbc | FileCheck %s --check-prefix=OUT
// RUN: mesh-opt %s --emit-bytecode | mesh-opt --canonicalize | FileCheck %s --check-prefix=BYTES
// RUN: not mesh-opt %s --emit-bytecode --split-input-file 2>&1 | FileCheck %s --check-prefix=ONEMODULE
// BYTES:      mesh.mesh @one(shape = 1x4)
// BYTES:      mesh.mesh_shape @one
// ONEMODULE: mesh-opt: error: --emit-bytecode writes one module, which --split-input-file cannot give

// --version: who we are and the LLVM under us, on stdout.
// RUN: mesh-opt --version | FileCheck %s --check-prefix=VERSION
// VERSION:      mesh-opt (mesh-dialect {{[0-9.]+}}):
// VERSION-NEXT:   LLVM version {{[0-9]+\.[0-9]+\.[0-9]+}} (MLIR Python bindings: {{.*}})

mesh.mesh @one(shape = 1x4)
func.func @f(%x: tensor<4xf32>) -> (index, tensor<4xf32>) {
  %0:2 = mesh.mesh_shape @one : index, index
  %cst = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %y = arith.addf %x, %cst : tensor<4xf32>
  return %0#1, %y : index, tensor<4xf32>
}
