// An empty element in a pass pipeline is refused, as mlir-opt refuses it:
// one message naming its column, nothing on stdout, exit 1, before any input
// is read.  A pipeline with no pass at all stays a pipeline that prints the
// input.

// RUN: not mesh-opt %s --pass-pipeline='builtin.module(sharding-propagation,,mesh-partition)' 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: not mesh-opt %s.does-not-exist --pass-pipeline='sharding-propagation,,mesh-partition' 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: not mesh-opt %s --pass-pipeline='builtin.module(sharding-propagation,,mesh-partition)' 2>/dev/null | FileCheck %s --allow-empty --check-prefix=NOOUT
// TWO:      mesh-opt: empty pass at column 22 of pass pipeline 'sharding-propagation,,mesh-partition'
// TWO-NOT:  {{.}}
// NOOUT-NOT: {{.}}

// Spaces between the commas do not make a pass.
// RUN: not mesh-opt %s --pass-pipeline='builtin.module(cse, ,canonicalize)' 2>&1 | FileCheck %s --check-prefix=SPACE
// SPACE: mesh-opt: empty pass at column 6 of pass pipeline 'cse, ,canonicalize'

// A comma at either end.
// RUN: not mesh-opt %s --pass-pipeline='cse,,' 2>&1 | FileCheck %s --check-prefix=TRAILING2
// TRAILING2: mesh-opt: empty pass at column 5 of pass pipeline 'cse,,'
// RUN: not mesh-opt %s --pass-pipeline='builtin.module(cse,)' 2>&1 | FileCheck %s --check-prefix=TRAILING
// TRAILING: mesh-opt: empty pass at column 4 of pass pipeline 'cse,'
// RUN: not mesh-opt %s --pass-pipeline='builtin.module(,cse)' 2>&1 | FileCheck %s --check-prefix=LEADING
// LEADING: mesh-opt: empty pass at column 1 of pass pipeline ',cse'
// RUN: not mesh-opt %s --pass-pipeline='builtin.module(,)' 2>&1 | FileCheck %s --check-prefix=COMMA
// COMMA: mesh-opt: empty pass at column 1 of pass pipeline ','

// In a nested pipeline, where an empty pipeline is refused too.
// RUN: not mesh-opt %s --pass-pipeline='builtin.module(func.func(cse,,sharding-propagation))' 2>&1 | FileCheck %s --check-prefix=NESTED
// NESTED: mesh-opt: empty pass at column 15 of pass pipeline 'func.func(cse,,sharding-propagation)'
// RUN: not mesh-opt %s --pass-pipeline='builtin.module(canonicalize, func.func())' 2>&1 | FileCheck %s --check-prefix=NESTEDEMPTY
// NESTEDEMPTY: mesh-opt: empty pass at column 25 of pass pipeline 'canonicalize, func.func()'

// Commas inside a pass's options are the options' own.
// RUN: mesh-opt %s --pass-pipeline='builtin.module(func.func(cse), canonicalize{max-iterations=2 region-simplify=normal})' | FileCheck %s --check-prefix=OK
// RUN: mesh-opt %s --pass-pipeline='builtin.module( )' | FileCheck %s --check-prefix=OK
// OK: func.func @f

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
