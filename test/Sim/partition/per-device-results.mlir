// Results that differ between devices: a program written partly per device
// may return one (a reduce_scatter's piece, a shifted block, a value computed
// from the device's index). mesh-run runs such a program, and a reference
// holding collectives, on every device of the mesh its device ops name, and
// shows such a result as every device's array, indexed by the device first.
// With --compare-with, those results are compared device by device, and one
// that differs between devices in only one of the two programs is a mismatch.
// They used to stop mesh-run: 'replicas [0] and [1] differ', or, for a
// program without layouts, "'mesh.reduce_scatter' needs a device".
// RUN: mesh-run %s -f scatter --seed 1 | FileCheck %s --check-prefix=OUT
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir 2>/dev/null
// RUN: mesh-run %t.mlir -f scatter --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f shifted --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f shifted --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f by_index --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f two_results --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: not mesh-run %t.mlir -f summed --compare-with %s --ref-function scatter_summed -q --seed 1 | FileCheck %s --check-prefix=ONLY-REF
// RUN: not mesh-run %s -f scatter_summed --compare-with %s --ref-function summed -q --seed 1 | FileCheck %s --check-prefix=ONLY-PROGRAM
// RUN: not mesh-run %s -f by_index --compare-with %s --ref-function by_index_plus_one -q --seed 1 | FileCheck %s --check-prefix=DIFFER
// RUN: not mesh-run %s -f holders_program --compare-with %s --ref-function holders_reference -q --seed 1 | FileCheck %s --check-prefix=HOLDERS

// OUT-LABEL: result 0: tensor<2x3xi32> on each device, differing between devices (indexed by device first)
// OUT-NEXT: {{\[\[\[}}
// SIM: match
// SIM-NOT: MISMATCH
// ONLY-REF: result 0: differs between devices in the reference, not in the program
// ONLY-REF-NEXT: MISMATCH
// ONLY-PROGRAM: result 0: differs between devices in the program, not in the reference
// ONLY-PROGRAM-NEXT: MISMATCH
// DIFFER: result 0: differs from the reference at [0, 0, 0]: got 0, reference 1, difference 1
// DIFFER-NEXT: MISMATCH
// HOLDERS: result 0: max error 0
// HOLDERS: result 1: differs from the reference at [0] (held by device [0]): got 1, reference 0, difference 1
// HOLDERS-NEXT: MISMATCH

mesh.mesh @m(shape = 2)

// Each device's half of the sum of both devices' copies.
func.func @scatter(%x: tensor<4x3xi32>) -> tensor<2x3xi32> {
  %r = mesh.reduce_scatter %x on @m mesh_axes = [0] scatter_axis = 0 : tensor<4x3xi32> -> tensor<2x3xi32>
  return %r : tensor<2x3xi32>
}

// A block shifted to the next device: the first device's is undefined.
func.func @shifted(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %e = tensor.empty() : tensor<4x6xf32>
  %y = linalg.exp ins(%x : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %s = mesh.shift %y on @m mesh_axes = [0] shift_axis = 0 offset = 1 rotate : tensor<4x6xf32> -> tensor<4x6xf32>
  return %s : tensor<4x6xf32>
}

// The device's index in every element, added to the input.
func.func @by_index(%x: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %d = mesh.process_linear_index on @m : index
  %i = arith.index_cast %d : index to i32
  %e = tensor.empty() : tensor<2x3xi32>
  %f = linalg.fill ins(%i : i32) outs(%e : tensor<2x3xi32>) -> tensor<2x3xi32>
  %r = arith.addi %x, %f : tensor<2x3xi32>
  return %r : tensor<2x3xi32>
}

func.func @by_index_plus_one(%x: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %d = mesh.process_linear_index on @m : index
  %one = arith.constant 1 : index
  %d1 = arith.addi %d, %one : index
  %i = arith.index_cast %d1 : index to i32
  %e = tensor.empty() : tensor<2x3xi32>
  %f = linalg.fill ins(%i : i32) outs(%e : tensor<2x3xi32>) -> tensor<2x3xi32>
  %r = arith.addi %x, %f : tensor<2x3xi32>
  return %r : tensor<2x3xi32>
}

// One result every device holds alike (a split matmul's), one that differs.
func.func @two_results(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>) -> (tensor<4x4xf32>, tensor<2x8xf32>) {
  %ws = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %wa = mesh.shard %w to %ws annotate_for_users : tensor<8x4xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %y = linalg.matmul ins(%x, %wa : tensor<4x8xf32>, tensor<8x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %s = mesh.all_slice %x on @m mesh_axes = [0] slice_axis = 0 : tensor<4x8xf32> -> tensor<2x8xf32>
  return %y, %s : tensor<4x4xf32>, tensor<2x8xf32>
}

// The sum every device holds, and each device's half of it.
func.func @summed(%x: tensor<4x3xi32>) -> tensor<2x3xi32> {
  %r = mesh.all_reduce %x on @m mesh_axes = [0] : tensor<4x3xi32> -> tensor<4x3xi32>
  %h = tensor.extract_slice %r[0, 0] [2, 3] [1, 1] : tensor<4x3xi32> to tensor<2x3xi32>
  return %h : tensor<2x3xi32>
}

func.func @scatter_summed(%x: tensor<4x3xi32>) -> tensor<2x3xi32> {
  %r = mesh.reduce_scatter %x on @m mesh_axes = [0] scatter_axis = 0 : tensor<4x3xi32> -> tensor<2x3xi32>
  return %r : tensor<2x3xi32>
}

// A result that differs between devices, then one that does not and is
// wrong: the second's mismatch still names the devices that hold it.
func.func @holders_program(%x: tensor<4xi32> {mesh.sharding = #mesh.sharding<@m, [[]]>}) -> (tensor<2xi32> {mesh.sharding = #mesh.sharding<@m, [[]]>}, tensor<2xi32> {mesh.sharding = #mesh.sharding<@m, [[0]]>}) {
  %s = mesh.all_slice %x on @m mesh_axes = [0] slice_axis = 0 : tensor<4xi32> -> tensor<2xi32>
  %one = arith.constant dense<1> : tensor<2xi32>
  %w = arith.addi %s, %one : tensor<2xi32>
  return %s, %w : tensor<2xi32>, tensor<2xi32>
}

func.func @holders_reference(%x: tensor<4xi32>) -> (tensor<2xi32>, tensor<4xi32>) {
  %s = mesh.all_slice %x on @m mesh_axes = [0] slice_axis = 0 : tensor<4xi32> -> tensor<2xi32>
  return %s, %x : tensor<2xi32>, tensor<4xi32>
}
