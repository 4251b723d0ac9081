// Upstream's folders turn an xor or integer comparison of a value with itself
// into a constant of the result type, and MLIR asserts (taking the process
// down) when that type has a dynamic shape. mesh-opt stops before any upstream
// pass that folds, with an error at the op, exit 1 and no abort. Partitioned
// programs reach it: uneven pieces have dynamic shapes.
// RUN: mesh-opt --split-input-file --verify-diagnostics --canonicalize %s
// RUN: not mesh-opt --split-input-file --pass-pipeline='builtin.module(sccp)' %s 2>&1 | FileCheck %s --check-prefix=SCCP
// RUN: mesh-opt --split-input-file --cse %s | FileCheck %s --check-prefix=CSE
// RUN: not mesh-opt --pass-pipeline='builtin.module(sharding-propagation, mesh-partition, canonicalize)' %S/Inputs/uneven-self-xor.mlir 2>&1 | FileCheck %s --check-prefix=PART
// RUN: mesh-opt --pass-pipeline='builtin.module(canonicalize, sharding-propagation, mesh-partition, canonicalize)' %S/Inputs/uneven-self-xor.mlir | FileCheck %s --check-prefix=FOLDED

// SCCP: upstream-fold-guard.mlir:[[@LINE+5]]:8: error: upstream pass 'sccp' cannot run on 'arith.xori' of one value with itself on 'tensor<?xi1>'
// CSE-LABEL: func.func @xor_self
// CSE: arith.xori %arg0, %arg0 : tensor<?xi1>
func.func @xor_self(%a: tensor<?xi1>) -> tensor<?xi1> {
  // expected-error@+1 {{upstream pass 'canonicalize' cannot run on 'arith.xori' of one value with itself on 'tensor<?xi1>' (MLIR aborts folding it to a constant of unknown shape); fold it while its shape is static, before mesh-partition}}
  %0 = arith.xori %a, %a : tensor<?xi1>
  return %0 : tensor<?xi1>
}

// -----

func.func @cmpi_self(%a: tensor<2x?xi32>) -> tensor<2x?xi1> {
  // expected-error@+1 {{cannot run on 'arith.cmpi' of one value with itself on 'tensor<2x?xi32>'}}
  %0 = arith.cmpi sle, %a, %a : tensor<2x?xi32>
  return %0 : tensor<2x?xi1>
}

// -----

func.func @cmpi_unranked(%a: tensor<*xi32>) -> tensor<*xi1> {
  // expected-error@+1 {{cannot run on 'arith.cmpi' of one value with itself on 'tensor<*xi32>'}}
  %0 = arith.cmpi ne, %a, %a : tensor<*xi32>
  return %0 : tensor<*xi1>
}

// -----

// A select of one value twice folds to that value before the xor is folded.
func.func @through_select(%a: tensor<?xi32>, %c: i1) -> tensor<?xi32> {
  %b = arith.select %c, %a, %a : tensor<?xi32>
  %m = arith.maxsi %b, %b : tensor<?xi32>
  // expected-error@+1 {{cannot run on 'arith.xori' of one value with itself on 'tensor<?xi32>'}}
  %0 = arith.xori %a, %m : tensor<?xi32>
  return %0 : tensor<?xi32>
}

// -----

// So does an scf.if whose branches yield one value.
func.func @through_if(%a: tensor<?xi32>, %c: i1) -> tensor<?xi32> {
  %b = scf.if %c -> tensor<?xi32> {
    scf.yield %a : tensor<?xi32>
  } else {
    scf.yield %a : tensor<?xi32>
  }
  // expected-error@+1 {{cannot run on 'arith.xori' of one value with itself}}
  %0 = arith.xori %b, %a : tensor<?xi32>
  return %0 : tensor<?xi32>
}

// -----

// And an scf.for iteration argument the loop yields unchanged.
func.func @through_loop(%a: tensor<?xi32>, %n: index) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a) -> tensor<?xi32> {
    scf.yield %x : tensor<?xi32>
  }
  // expected-error@+1 {{cannot run on 'arith.cmpi' of one value with itself}}
  %0 = arith.cmpi eq, %b, %a : tensor<?xi32>
  %1 = arith.extui %0 : tensor<?xi1> to tensor<?xi32>
  return %1 : tensor<?xi32>
}

// -----

// What upstream folds without trouble still runs: static shapes, two
// different values, and an unranked xor (which upstream leaves alone).
// CSE-LABEL: func.func @fine
func.func @fine(%s: tensor<4xi1>, %a: tensor<?xi32>, %b: tensor<?xi32>, %u: tensor<*xi32>) -> (tensor<4xi1>, tensor<?xi1>, tensor<*xi32>) {
  %0 = arith.xori %s, %s : tensor<4xi1>
  %1 = arith.cmpi eq, %a, %b : tensor<?xi32>
  %2 = arith.xori %u, %u : tensor<*xi32>
  return %0, %1, %2 : tensor<4xi1>, tensor<?xi1>, tensor<*xi32>
}

// PART: uneven-self-xor.mlir:7:8: error: upstream pass 'canonicalize' cannot run on 'arith.xori' of one value with itself on 'tensor<?xi1>'
// FOLDED: func.func @f(%arg0: tensor<?xi1> {{.*}}) -> (tensor<?xi1> {{.*}}) {
// FOLDED: %[[PIECE:.*]] = tensor.extract
// FOLDED-NEXT: %[[ZERO:.*]] = tensor.splat %false[%[[PIECE]]] : tensor<?xi1>
// FOLDED-NEXT: return %[[ZERO]] : tensor<?xi1>
