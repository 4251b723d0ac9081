// mesh-lower-process-multi-index computes each device's coordinates from its
// linear index: every device of 1-D, 2-D and 3-D meshes must get the same
// coordinates as the simulator's process_multi_index gives it. Each result
// is split over every mesh axis, so each device's piece is its own answer.
// RUN: mesh-opt --mesh-lower-process-multi-index %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir -f line --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir -f grid --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir -f cube --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir -f ones --compare-with %s -q | FileCheck %s
// CHECK: match
// IR-NOT: mesh.process_multi_index

// The comparison has teeth: swapping every division and remainder is caught.
// RUN: sed -e 's/divui/SWAP/; s/remui/divui/; s/SWAP/remui/' %t.mlir > %t.wrong.mlir
// RUN: not mesh-run %t.wrong.mlir -f cube --compare-with %s -q | FileCheck %s --check-prefix=WRONG
// WRONG: MISMATCH

// IR-LABEL: func.func @cube
// IR: %[[L:.*]] = mesh.process_linear_index on @m3 : index
// IR-DAG: arith.divui %[[L]], %c12 : index
// IR-DAG: arith.remui %[[L]], %c4 : index

mesh.mesh @m1(shape = 6)
mesh.mesh @m2(shape = 2x3)
mesh.mesh @m3(shape = 2x3x4)
mesh.mesh @m4(shape = 1x3x1)

func.func @line() -> (tensor<1x1xi64> {mesh.sharding = #mesh.sharding<@m1, [[0]]>}) {
  %i = mesh.process_multi_index on @m1 : index
  %a = arith.index_cast %i : index to i64
  %t = tensor.from_elements %a : tensor<1x1xi64>
  return %t : tensor<1x1xi64>
}

func.func @grid() -> (tensor<1x1x4xi64> {mesh.sharding = #mesh.sharding<@m2, [[0], [1]]>}) {
  %i:2 = mesh.process_multi_index on @m2 : index, index
  %j:2 = mesh.process_multi_index on @m2 axes = [1, 0] : index, index
  %a = arith.index_cast %i#0 : index to i64
  %b = arith.index_cast %i#1 : index to i64
  %c = arith.index_cast %j#0 : index to i64
  %d = arith.index_cast %j#1 : index to i64
  %t = tensor.from_elements %a, %b, %c, %d : tensor<1x1x4xi64>
  return %t : tensor<1x1x4xi64>
}

func.func @cube() -> (tensor<1x1x1x6xi64> {mesh.sharding = #mesh.sharding<@m3, [[0], [1], [2]]>}) {
  %i:3 = mesh.process_multi_index on @m3 : index, index, index
  %j:2 = mesh.process_multi_index on @m3 axes = [2, 0] : index, index
  %k = mesh.process_multi_index on @m3 axes = [1] : index
  %a = arith.index_cast %i#0 : index to i64
  %b = arith.index_cast %i#1 : index to i64
  %c = arith.index_cast %i#2 : index to i64
  %d = arith.index_cast %j#0 : index to i64
  %e = arith.index_cast %j#1 : index to i64
  %f = arith.index_cast %k : index to i64
  %t = tensor.from_elements %a, %b, %c, %d, %e, %f : tensor<1x1x1x6xi64>
  return %t : tensor<1x1x1x6xi64>
}

// Size-1 axes are the constant 0.
func.func @ones() -> (tensor<1x1x1x3xi64> {mesh.sharding = #mesh.sharding<@m4, [[0], [1], [2]]>}) {
  %i:3 = mesh.process_multi_index on @m4 : index, index, index
  %a = arith.index_cast %i#0 : index to i64
  %b = arith.index_cast %i#1 : index to i64
  %c = arith.index_cast %i#2 : index to i64
  %t = tensor.from_elements %a, %b, %c : tensor<1x1x1x3xi64>
  return %t : tensor<1x1x1x3xi64>
}
