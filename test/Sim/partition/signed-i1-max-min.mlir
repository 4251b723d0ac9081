// Read signed, an i1 true is -1: arith.maxsi on i1 is a logical and and
// arith.minsi a logical or (mlir-opt --canonicalize folds maxsi(true, false)
// to false).  Partitioning splits them into partial max and min, so the
// simulator's max and min on i1 (partial results, mesh.all_reduce) must be
// and and or too.  Rows: mixed in one half, all true, all false, one half
// true and the other false (which only the all-reduce tells apart).
// RUN: mesh-run %s --function maxsi_partial --global | FileCheck %s --check-prefix=MAX
// RUN: mesh-run %s --function minsi_partial --global | FileCheck %s --check-prefix=MIN
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --function maxsi_partial | FileCheck %s --check-prefix=MAX
// RUN: mesh-run %t.mlir --function maxsi_whole | FileCheck %s --check-prefix=MAX
// RUN: mesh-run %t.mlir --function minsi_partial | FileCheck %s --check-prefix=MIN
// RUN: mesh-run %t.mlir --function minsi_whole | FileCheck %s --check-prefix=MIN
// RUN: mesh-run %t.mlir --function maxsi_whole --compare-with %s -q | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir --function minsi_whole --compare-with %s -q | FileCheck %s --check-prefix=MATCH
// MAX: result 0: tensor<4xi1>
// MAX-NEXT: [False True False False]
// MIN: result 0: tensor<4xi1>
// MIN-NEXT: [ True True False True]
// MATCH: match
// IR-LABEL: func.func @maxsi_partial
// IR-SAME: partial = max [0]
// IR-LABEL: func.func @maxsi_whole
// IR: mesh.all_reduce {{.*}} reduction = <max> : tensor<4xi1>
// IR-LABEL: func.func @minsi_partial
// IR-SAME: partial = min [0]
// IR-LABEL: func.func @minsi_whole
// IR: mesh.all_reduce {{.*}} reduction = <min> : tensor<4xi1>

mesh.mesh @m(shape = 2)

func.func @maxsi_partial() -> tensor<4xi1> {
  %x = arith.constant dense<[[true, false, true, true, true, true, true, true],
                             [true, true, true, true, true, true, true, true],
                             [false, false, false, false, false, false, false, false],
                             [true, true, true, true, false, false, false, false]]> : tensor<4x8xi1>
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x8xi1>
  %true = arith.constant true
  %e = tensor.empty() : tensor<4xi1>
  %init = linalg.fill ins(%true : i1) outs(%e : tensor<4xi1>) -> tensor<4xi1>
  %r = linalg.reduce ins(%xs : tensor<4x8xi1>) outs(%init : tensor<4xi1>) dimensions = [1]
    (%a: i1, %acc: i1) {
      %m = arith.maxsi %a, %acc : i1
      linalg.yield %m : i1
    }
  return %r : tensor<4xi1>
}

func.func @maxsi_whole() -> tensor<4xi1> {
  %x = arith.constant dense<[[true, false, true, true, true, true, true, true],
                             [true, true, true, true, true, true, true, true],
                             [false, false, false, false, false, false, false, false],
                             [true, true, true, true, false, false, false, false]]> : tensor<4x8xi1>
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x8xi1>
  %true = arith.constant true
  %e = tensor.empty() : tensor<4xi1>
  %init = linalg.fill ins(%true : i1) outs(%e : tensor<4xi1>) -> tensor<4xi1>
  %r = linalg.reduce ins(%xs : tensor<4x8xi1>) outs(%init : tensor<4xi1>) dimensions = [1]
    (%a: i1, %acc: i1) {
      %m = arith.maxsi %a, %acc : i1
      linalg.yield %m : i1
    }
  %w = mesh.sharding @m split_axes = [[]] : !mesh.sharding
  %o = mesh.shard %r to %w : tensor<4xi1>
  return %o : tensor<4xi1>
}

func.func @minsi_partial() -> tensor<4xi1> {
  %x = arith.constant dense<[[true, false, true, true, true, true, true, true],
                             [true, true, true, true, true, true, true, true],
                             [false, false, false, false, false, false, false, false],
                             [true, true, true, true, false, false, false, false]]> : tensor<4x8xi1>
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x8xi1>
  %false = arith.constant false
  %e = tensor.empty() : tensor<4xi1>
  %init = linalg.fill ins(%false : i1) outs(%e : tensor<4xi1>) -> tensor<4xi1>
  %r = linalg.reduce ins(%xs : tensor<4x8xi1>) outs(%init : tensor<4xi1>) dimensions = [1]
    (%a: i1, %acc: i1) {
      %m = arith.minsi %a, %acc : i1
      linalg.yield %m : i1
    }
  return %r : tensor<4xi1>
}

func.func @minsi_whole() -> tensor<4xi1> {
  %x = arith.constant dense<[[true, false, true, true, true, true, true, true],
                             [true, true, true, true, true, true, true, true],
                             [false, false, false, false, false, false, false, false],
                             [true, true, true, true, false, false, false, false]]> : tensor<4x8xi1>
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x8xi1>
  %false = arith.constant false
  %e = tensor.empty() : tensor<4xi1>
  %init = linalg.fill ins(%false : i1) outs(%e : tensor<4xi1>) -> tensor<4xi1>
  %r = linalg.reduce ins(%xs : tensor<4x8xi1>) outs(%init : tensor<4xi1>) dimensions = [1]
    (%a: i1, %acc: i1) {
      %m = arith.minsi %a, %acc : i1
      linalg.yield %m : i1
    }
  %w = mesh.sharding @m split_axes = [[]] : !mesh.sharding
  %o = mesh.shard %r to %w : tensor<4xi1>
  return %o : tensor<4xi1>
}
