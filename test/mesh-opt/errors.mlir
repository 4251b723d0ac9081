// Bad pipelines and command lines: one message on stderr, nothing on stdout,
// a failing exit; the pipeline is checked before any input is read.

// An unknown pass, as a flag (either spelling) or in a pipeline, also nested.
// RUN: not mesh-opt %s --bogus 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not mesh-opt %s -bogus 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not mesh-opt %s --mesh-canonicalize --bogus 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not mesh-opt %s --pass-pipeline='builtin.module(mesh-canonicalize, bogus)' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not mesh-opt %s --pass-pipeline='builtin.module(func.func(cse, bogus))' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not mesh-opt %s.does-not-exist --bogus 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not mesh-opt %s --bogus 2>/dev/null | FileCheck %s --allow-empty --check-prefix=NOOUT
// UNKNOWN:     mesh-opt: 'bogus' is not a pass of mesh-opt or of upstream MLIR (see --list-passes)
// UNKNOWN-NOT: {{.}}
// NOOUT-NOT:   {{.}}

// An unknown option of our pass, in braces or after `=`.
// RUN: not mesh-opt %s --pass-pipeline='builtin.module(mesh-canonicalize{nope=1})' 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not mesh-opt %s --mesh-canonicalize=nope=1 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not mesh-opt %s '--mesh-canonicalize={dce=false nope=1}' 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION:     mesh-opt: pass 'mesh-canonicalize' has no option 'nope' (options: cse, dce, fold-collectives, fold-queries)
// OPTION-NOT: {{.}}

// Text that is no key=value item is refused, not read as no option (a
// stray brace, or one closing brace too many left on a value).
// RUN: not mesh-opt %s '--mesh-canonicalize={{{' 2>&1 | FileCheck %s --check-prefix=GARBAGE
// RUN: not mesh-opt %s --pass-pipeline='builtin.module(mesh-canonicalize{dce=false {})' 2>&1 | FileCheck %s --check-prefix=GARBAGE2
// RUN: not mesh-opt %s '--mesh-canonicalize=dce=false}' 2>&1 | FileCheck %s --check-prefix=BRACE
// GARBAGE:  mesh-opt: cannot read the options of pass 'mesh-canonicalize': unexpected '{' at column 1 of '{{\{\{\{}}' (expected key=value items, a value with blanks quoted or braced)
// GARBAGE2: mesh-opt: cannot read the options of pass 'mesh-canonicalize': unexpected '{' at column 11 of 'dce=false {' (expected key=value items, a value with blanks quoted or braced)
// BRACE:    mesh-opt: option 'dce' of pass 'mesh-canonicalize' must be true or false, got 'false}'

// An option value that does not parse.
// RUN: not mesh-opt %s --pass-pipeline='builtin.module(mesh-canonicalize{dce=maybe})' 2>&1 | FileCheck %s --check-prefix=VALUE
// VALUE: mesh-opt: option 'dce' of pass 'mesh-canonicalize' must be true or false, got 'maybe'

// An unknown option of an upstream pass.
// RUN: not mesh-opt %s --pass-pipeline='builtin.module(canonicalize{bogus=1})' 2>&1 | FileCheck %s --check-prefix=UPSTREAM
// UPSTREAM: mesh-opt: <Pass-Options-Parser>: no such option bogus

// Our Python pass runs on the module only: not inside func.func(...).
// RUN: not mesh-opt %s --pass-pipeline='builtin.module(func.func(mesh-canonicalize))' 2>&1 | FileCheck %s --check-prefix=NESTED
// RUN: not mesh-opt %s --pass-pipeline='builtin.module(func.func(cse, mesh-canonicalize{dce=false}))' 2>&1 | FileCheck %s --check-prefix=NESTED
// NESTED:     mesh-opt: pass 'mesh-canonicalize' runs on builtin.module only; list it at the top level of the pipeline
// NESTED-NOT: {{.}}

// A malformed pipeline.
// RUN: not mesh-opt %s --pass-pipeline='builtin.module(func.func(cse)' 2>&1 | FileCheck %s --check-prefix=UNBALANCED
// UNBALANCED: mesh-opt: unbalanced '(' after 'func.func' in pass pipeline 'func.func(cse'
// RUN: not mesh-opt %s --pass-pipeline='builtin.module(cse canonicalize)' 2>&1 | FileCheck %s --check-prefix=COMMA
// COMMA: mesh-opt: expected ',' after 'cse' in pass pipeline 'cse canonicalize'

// --pass-pipeline and pass flags do not mix, in either order.
// RUN: not mesh-opt %s --pass-pipeline='builtin.module(cse)' --mesh-canonicalize 2>&1 | FileCheck %s --check-prefix=MIX
// RUN: not mesh-opt %s -canonicalize --pass-pipeline='builtin.module(cse)' 2>&1 | FileCheck %s --check-prefix=MIX
// MIX:      usage: mesh-opt
// MIX:      mesh-opt: error: --pass-pipeline cannot be combined with pass flags
// MIX-NOT:  {{.}}

// Two input files.
// RUN: not mesh-opt %s %s 2>&1 | FileCheck %s --check-prefix=TWO -DFILE=%s
// TWO: mesh-opt: error: unrecognized argument '[[FILE]]'

mesh.mesh @m(shape = 2)
