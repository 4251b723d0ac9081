// An operand cut by explicit offsets: an option says nothing of offsets, so
// propagation annotated the op's other values with the even cut of the same
// split, and partition refused the pieces that no longer lined up.  The
// op's other values of that type and split now take the operand's cut, and
// the op runs on its pieces, as partition alone runs it.  The cut goes by
// dimension (its size and mesh axes), so an op that changes the type (a
// pad of the other dimension, a transpose, a slice) passes it on too: its
// result used to get the even cut, which partition refused.
// RUN: mesh-opt --sharding-propagation %s | FileCheck %s
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f result -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f other_operand -q --seed 2 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f two_cuts -q --seed 3 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f pad -q --seed 6 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f transpose -q --seed 7 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f slice -q --seed 8 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f strided_scaled -q --seed 11 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f strided_unscaled -q --seed 12 | FileCheck %s --check-prefix=SIM
// RUN: mesh-opt --pass-pipeline='builtin.module(sharding-propagation{solver=sweep traversal=forward},mesh-partition)' %s -o %t.sweep.mlir
// RUN: mesh-run %t.sweep.mlir --compare-with %s -f pad -q --seed 9 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.sweep.mlir --compare-with %s -f transpose -q --seed 10 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.sweep.mlir --compare-with %s -f result -q --seed 4 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.sweep.mlir --compare-with %s -f other_operand -q --seed 5 | FileCheck %s --check-prefix=SIM
// SIM: match

mesh.mesh @m(shape = 4)
mesh.mesh @m3(shape = 3)

// The result is produced in the operand's cut.
// CHECK-LABEL: func.func @result(
// CHECK: %[[CUT:.*]] = mesh.sharding @m split_axes = {{\[\[}}0]] sharded_dims_offsets = [0, 1, 3, 6, 8]
// CHECK: %[[A:.*]] = tosa.add
// CHECK-NEXT: mesh.shard %[[A]] to %[[CUT]] : tensor<8xi32>
func.func @result(%x: tensor<8xi32>) -> tensor<8xi32> {
  %s = mesh.sharding @m split_axes = [[0]] sharded_dims_offsets = [0, 1, 3, 6, 8] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<8xi32>
  %q = tosa.add %xs, %xs : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
  return %q : tensor<8xi32>
}

// The other operand arrives in that cut too.
// CHECK-LABEL: func.func @other_operand(
// CHECK: %[[CUT:.*]] = mesh.sharding @m split_axes = {{\[\[}}0]] sharded_dims_offsets = [0, 1, 3, 6, 8]
// CHECK: mesh.shard %arg1 to %[[CUT]] annotate_for_users : tensor<8xi32>
func.func @other_operand(%x: tensor<8xi32>, %y: tensor<8xi32>) -> tensor<8xi32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %o = mesh.sharding @m split_axes = [[0]] sharded_dims_offsets = [0, 1, 3, 6, 8] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<8xi32>
  %xo = mesh.shard %xs to %o annotate_for_users : tensor<8xi32>
  %q = tosa.sub %xo, %y : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
  return %q : tensor<8xi32>
}

// Two operands in different cuts: no one cut to follow, so the op runs
// evenly and both are resharded.
func.func @two_cuts(%x: tensor<8xi32>, %y: tensor<8xi32>) -> tensor<8xi32> {
  %a = mesh.sharding @m split_axes = [[0]] sharded_dims_offsets = [0, 2, 3, 5, 8] : !mesh.sharding
  %b = mesh.sharding @m split_axes = [[0]] sharded_dims_offsets = [0, 1, 3, 6, 8] : !mesh.sharding
  %xs = mesh.shard %x to %a : tensor<8xi32>
  %ys = mesh.shard %y to %b : tensor<8xi32>
  %q = tosa.sub %xs, %ys : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
  return %q : tensor<8xi32>
}

// CHECK-LABEL: func.func @pad(
// CHECK: %[[CUT:.*]] = mesh.sharding @m split_axes = {{\[\[}}0]] sharded_dims_offsets = [0, 1, 3, 6, 8]
// CHECK: %[[P:.*]] = tensor.pad
// CHECK: mesh.shard %[[P]] to %[[CUT]] : tensor<8x8xi32>
func.func @pad(%x: tensor<8x6xi32>) -> tensor<8x8xi32> {
  %s = mesh.sharding @m split_axes = [[0]] sharded_dims_offsets = [0, 1, 3, 6, 8] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<8x6xi32>
  %c = arith.constant 7 : i32
  %p = tensor.pad %xs low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c : i32
  } : tensor<8x6xi32> to tensor<8x8xi32>
  return %p : tensor<8x8xi32>
}

// CHECK-LABEL: func.func @transpose(
// CHECK: %[[T:.*]] = mesh.sharding @m split_axes = {{\[\[}}], [0]] sharded_dims_offsets = [0, 1, 3, 6, 8]
// CHECK: %[[R:.*]] = linalg.transpose
// CHECK: mesh.shard %[[R]] to %[[T]] : tensor<6x8xi32>
func.func @transpose(%x: tensor<8x6xi32>) -> tensor<6x8xi32> {
  %s = mesh.sharding @m split_axes = [[0]] sharded_dims_offsets = [0, 1, 3, 6, 8] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<8x6xi32>
  %e = tensor.empty() : tensor<6x8xi32>
  %r = linalg.transpose ins(%xs : tensor<8x6xi32>) outs(%e : tensor<6x8xi32>) permutation = [1, 0]
  return %r : tensor<6x8xi32>
}

// CHECK-LABEL: func.func @slice(
// CHECK: %[[CUT:.*]] = mesh.sharding @m split_axes = {{\[\[}}0]] sharded_dims_offsets = [0, 1, 3, 6, 8]
// CHECK: %[[S:.*]] = tensor.extract_slice
// CHECK: mesh.shard %[[S]] to %[[CUT]] : tensor<8x2xi32>
func.func @slice(%x: tensor<8x6xi32>) -> tensor<8x2xi32> {
  %s = mesh.sharding @m split_axes = [[0]] sharded_dims_offsets = [0, 1, 3, 6, 8] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<8x6xi32>
  %r = tensor.extract_slice %xs[0, 3] [8, 2] [1, 1] : tensor<8x6xi32> to tensor<8x2xi32>
  return %r : tensor<8x2xi32>
}

// Every other element of a cut operand: the result takes the cut halved
// (6, 8, 10 rows give 3, 4, 5 elements), as partition lines them up; a
// cut no halving gives (7, 17, 0) leaves the slice on its default pieces
// and the operand resharded to them (both refused by partition before).
// CHECK-LABEL: func.func @strided_scaled(
// CHECK: %[[HALF:.*]] = mesh.sharding @m3 split_axes = {{\[\[}}0]] sharded_dims_offsets = [0, 3, 7, 12]
// CHECK: %[[S:.*]] = tensor.extract_slice
// CHECK: mesh.shard %[[S]] to %[[HALF]] : tensor<12xi32>
// CHECK-LABEL: func.func @strided_unscaled(
// CHECK: %[[EVEN:.*]] = mesh.sharding @m3 split_axes = {{\[\[}}0]] : !mesh.sharding
// CHECK: mesh.shard %{{.*}} to %[[EVEN]] annotate_for_users : tensor<24xi32>
// CHECK: tensor.extract_slice
func.func @strided_scaled(%a: tensor<24xi32>) -> tensor<12xi32> {
  %s = mesh.sharding @m3 split_axes = [[0]] sharded_dims_offsets = [0, 6, 14, 24] : !mesh.sharding
  %as = mesh.shard %a to %s : tensor<24xi32>
  %x = tensor.extract_slice %as[1] [12] [2] : tensor<24xi32> to tensor<12xi32>
  return %x : tensor<12xi32>
}

func.func @strided_unscaled(%a: tensor<24xi32>) -> tensor<12xi32> {
  %s = mesh.sharding @m3 split_axes = [[0]] sharded_dims_offsets = [0, 7, 24, 24] : !mesh.sharding
  %as = mesh.shard %a to %s : tensor<24xi32>
  %x = tensor.extract_slice %as[0] [12] [2] : tensor<24xi32> to tensor<12xi32>
  return %x : tensor<12xi32>
}
