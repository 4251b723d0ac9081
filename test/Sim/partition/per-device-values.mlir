// A program written partly per device: %y, one row of x per device, differs
// between devices.  Partition may cut or gather only values that are one
// tensor every device holds alike, so every op reading %y runs on it whole.
// The solver had split the matmul's contraction (each device a column of %y
// against its rows of w: 64 partial sums to add, where gathering w moves 128
// floats), and the sum then added up the two devices' different rows.
// mesh-run runs a reference holding collectives on every device of the
// program's mesh, from the same whole inputs.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir 2>/dev/null
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir -f contract --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f contract --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f carried --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f carried --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f through_call --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f call_only --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f reduced_index --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f uneven_trips --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f uneven_trips --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f sliced_and_annotated --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f branch_then_sum --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f gathered_before_the_branch --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// SIM: match
// SIM-NOT: MISMATCH
// CHECK-LABEL: func.func @contract(
// CHECK: %[[Y:.*]] = mesh.all_slice %arg0 on @m mesh_axes = [0] slice_axis = 0 : tensor<2x4xf32> -> tensor<1x4xf32>
// CHECK: %[[W:.*]] = mesh.all_gather %arg1 on @m mesh_axes = [0] gather_axis = 0 : tensor<2x64xf32> -> tensor<4x64xf32>
// CHECK-NEXT: %[[Z:.*]] = linalg.matmul ins(%[[Y]], %[[W]] : tensor<1x4xf32>, tensor<4x64xf32>)
// CHECK-NEXT: %[[E:.*]] = math.exp %[[Z]] : tensor<1x64xf32>
// The gather of each device's row makes one tensor every device holds: it
// is the result laid out in rows, each device's row its own, so it moves
// nothing (the result is returned in pieces).
// CHECK-NEXT: return %[[E]] : tensor<1x64xf32>
// CHECK-NOT: mesh.all_reduce

mesh.mesh @m(shape = 2)

func.func @contract(%x: tensor<2x4xf32>, %w: tensor<4x64xf32>) -> tensor<2x64xf32> {
  %y = mesh.all_slice %x on @m mesh_axes = [0] slice_axis = 0 : tensor<2x4xf32> -> tensor<1x4xf32>
  %rows = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %ws = mesh.shard %w to %rows annotate_for_users : tensor<4x64xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64xf32>) -> tensor<1x64xf32>
  %z = linalg.matmul ins(%y, %ws : tensor<1x4xf32>, tensor<4x64xf32>) outs(%f : tensor<1x64xf32>) -> tensor<1x64xf32>
  %n = math.exp %z : tensor<1x64xf32>
  %g = mesh.all_gather %n on @m mesh_axes = [0] gather_axis = 0 : tensor<1x64xf32> -> tensor<2x64xf32>
  return %g : tensor<2x64xf32>
}

// The same product summed three times round a loop: the loop carries a
// value that differs between devices, and it is carried whole.
// CHECK-LABEL: func.func @carried(
// CHECK: mesh.all_gather %arg1 on @m mesh_axes = [0] gather_axis = 0 : tensor<2x64xf32> -> tensor<4x64xf32>
// CHECK: scf.for
// CHECK-NOT: mesh.all_reduce
// CHECK: return
func.func @carried(%x: tensor<2x4xf32>, %w: tensor<4x64xf32>) -> tensor<2x64xf32> {
  %y = mesh.all_slice %x on @m mesh_axes = [0] slice_axis = 0 : tensor<2x4xf32> -> tensor<1x4xf32>
  %rows = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %ws = mesh.shard %w to %rows annotate_for_users : tensor<4x64xf32>
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %e = tensor.empty() : tensor<1x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64xf32>) -> tensor<1x64xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %f) -> tensor<1x64xf32> {
    %z = linalg.matmul ins(%y, %ws : tensor<1x4xf32>, tensor<4x64xf32>) outs(%acc : tensor<1x64xf32>) -> tensor<1x64xf32>
    scf.yield %z : tensor<1x64xf32>
  }
  %n = math.exp %r : tensor<1x64xf32>
  %g = mesh.all_gather %n on @m mesh_axes = [0] gather_axis = 0 : tensor<1x64xf32> -> tensor<2x64xf32>
  return %g : tensor<2x64xf32>
}

// The row comes back from a callee partition leaves as it is: a call's
// results differ between devices when its callee's may.
// CHECK-LABEL: func.func @through_call(
// CHECK: mesh.all_gather %arg1 on @m mesh_axes = [0] gather_axis = 0 : tensor<2x64xf32> -> tensor<4x64xf32>
// CHECK-NOT: mesh.all_reduce
// CHECK: return
func.func private @row(%x: tensor<2x4xf32>) -> tensor<1x4xf32> {
  %y = mesh.all_slice %x on @m mesh_axes = [0] slice_axis = 0 : tensor<2x4xf32> -> tensor<1x4xf32>
  return %y : tensor<1x4xf32>
}

func.func @through_call(%x: tensor<2x4xf32>, %w: tensor<4x64xf32>) -> tensor<2x64xf32> {
  %y = func.call @row(%x) : (tensor<2x4xf32>) -> tensor<1x4xf32>
  %rows = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %ws = mesh.shard %w to %rows annotate_for_users : tensor<4x64xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64xf32>) -> tensor<1x64xf32>
  %z = linalg.matmul ins(%y, %ws : tensor<1x4xf32>, tensor<4x64xf32>) outs(%f : tensor<1x64xf32>) -> tensor<1x64xf32>
  %n = math.exp %z : tensor<1x64xf32>
  %g = mesh.all_gather %n on @m mesh_axes = [0] gather_axis = 0 : tensor<1x64xf32> -> tensor<2x64xf32>
  return %g : tensor<2x64xf32>
}

// A reference whose collectives are all in a callee runs on every device too.
func.func private @gathered_row(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %y = mesh.all_slice %x on @m mesh_axes = [0] slice_axis = 0 : tensor<2x4xf32> -> tensor<1x4xf32>
  %g = mesh.all_gather %y on @m mesh_axes = [0] gather_axis = 0 : tensor<1x4xf32> -> tensor<2x4xf32>
  return %g : tensor<2x4xf32>
}

func.func @call_only(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %rows = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows annotate_for_users : tensor<2x4xf32>
  %e = math.exp %xs : tensor<2x4xf32>
  %y = func.call @gathered_row(%e) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

// A device index summed over every axis of the mesh is the same on every
// device again: it may be cut.
mesh.mesh @m4(shape = 2x2)
// CHECK-LABEL: func.func @reduced_index(
// CHECK: mesh.all_reduce %{{.*}} on @m4 mesh_axes = [0, 1] : tensor<4xf32> -> tensor<4xf32>
// CHECK: mesh.all_slice %{{.*}} on @m4 mesh_axes = [0] slice_axis = 0 : tensor<4xf32> -> tensor<2xf32>
func.func @reduced_index(%x: tensor<4xf32>) -> tensor<4xf32> {
  %i = mesh.process_linear_index on @m4 : index
  %n = arith.index_cast %i : index to i64
  %f = arith.sitofp %n : i64 to f32
  %t = tensor.splat %f : tensor<4xf32>
  %sum = mesh.all_reduce %t on @m4 mesh_axes = [0, 1] : tensor<4xf32> -> tensor<4xf32>
  %rows = mesh.sharding @m4 split_axes = [[0]] : !mesh.sharding
  %ss = mesh.shard %sum to %rows annotate_for_users : tensor<4xf32>
  %e = arith.addf %ss, %x : tensor<4xf32>
  return %e : tensor<4xf32>
}

// Device d runs the loop d + 1 times: its body runs on whole values, and x
// is gathered before the loop, not in it (a gather in it would wait for the
// device whose loop has ended).
// CHECK-LABEL: func.func @uneven_trips(
// CHECK: %[[X:.*]] = mesh.all_gather %arg0 on @m mesh_axes = [0] gather_axis = 0 : tensor<2xf32> -> tensor<4xf32>
// CHECK-NEXT: scf.for
// CHECK-NEXT: math.exp %[[X]] : tensor<4xf32>
// CHECK-NOT: mesh.
// CHECK: scf.yield
func.func @uneven_trips(%x: tensor<4xf32>) -> tensor<4xf32> {
  %i = mesh.process_linear_index on @m : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.addi %i, %c1 : index
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %x) -> tensor<4xf32> {
    %rows = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
    %xs = mesh.shard %x to %rows annotate_for_users : tensor<4xf32>
    %e = math.exp %xs : tensor<4xf32>
    %t = arith.addf %e, %acc : tensor<4xf32>
    scf.yield %t : tensor<4xf32>
  }
  %g = mesh.all_reduce %r on @m mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  return %g : tensor<4xf32>
}

// An argument a collective reads arrives whole, even where the annotations
// for its other users agree on a layout (partition refused the collective's
// split operand).
// CHECK-LABEL: func.func @sliced_and_annotated(%arg0: tensor<8xf32> {mesh.sharding = #mesh.sharding<@m, {{\[\[}}]]>})
// CHECK: mesh.all_slice %arg0 on @m mesh_axes = [0] slice_axis = 0 : tensor<8xf32> -> tensor<4xf32>
func.func @sliced_and_annotated(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = mesh.all_slice %x on @m mesh_axes = [0] slice_axis = 0 : tensor<8xf32> -> tensor<4xf32>
  %zero = arith.constant dense<0.0> : tensor<8xf32>
  %z = tensor.insert_slice %y into %zero[2] [4] [1] : tensor<4xf32> into tensor<8xf32>
  %rows = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows annotate_for_users : tensor<8xf32>
  %w = arith.mulf %xs, %z : tensor<8xf32>
  %g = mesh.all_reduce %w on @m mesh_axes = [0] : tensor<8xf32> -> tensor<8xf32>
  return %g : tensor<8xf32>
}

// A branch chosen by the device index makes its result differ along the
// axes the index varies along; the sum over them agrees again and may be cut.
// CHECK-LABEL: func.func @branch_then_sum(
// CHECK: scf.if
// CHECK: mesh.all_reduce %{{.*}} on @m mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
// CHECK: mesh.all_slice %{{.*}} on @m mesh_axes = [0] slice_axis = 0 : tensor<4xf32> -> tensor<2xf32>
func.func @branch_then_sum(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %i = mesh.process_linear_index on @m : index
  %c0 = arith.constant 0 : index
  %first = arith.cmpi eq, %i, %c0 : index
  %r = scf.if %first -> tensor<4xf32> {
    %e = math.exp %x : tensor<4xf32>
    scf.yield %e : tensor<4xf32>
  } else {
    scf.yield %x : tensor<4xf32>
  }
  %g = mesh.all_reduce %r on @m mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  %rows = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %gs = mesh.shard %g to %rows annotate_for_users : tensor<4xf32>
  %ys = mesh.shard %y to %rows annotate_for_users : tensor<4xf32>
  %z = arith.mulf %gs, %ys : tensor<4xf32>
  return %z : tensor<4xf32>
}

// A branch only device 0 takes reads x whole: x is gathered in front of the
// branch, which every device reaches (a gather in the branch waited for the
// device that took the other way).
// CHECK-LABEL: func.func @gathered_before_the_branch(
// CHECK: %[[X:.*]] = mesh.all_gather %arg0 on @m mesh_axes = [0] gather_axis = 0 : tensor<2xf32> -> tensor<4xf32>
// CHECK-NEXT: scf.if
// CHECK-NEXT: math.exp %[[X]] : tensor<4xf32>
// CHECK-NOT: mesh.
// CHECK: } else {
func.func @gathered_before_the_branch(%x: tensor<4xf32>) -> tensor<4xf32> {
  %rows = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<4xf32>
  %i = mesh.process_linear_index on @m : index
  %c0 = arith.constant 0 : index
  %first = arith.cmpi eq, %i, %c0 : index
  %r = scf.if %first -> tensor<4xf32> {
    %e = math.exp %xs : tensor<4xf32>
    scf.yield %e : tensor<4xf32>
  } else {
    %n = arith.negf %xs : tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  }
  %g = mesh.all_reduce %r on @m mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  return %g : tensor<4xf32>
}
