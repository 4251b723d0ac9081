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
// SIM: match
// SIM-NOT: MISMATCH
// CHECK-LABEL: func.func @contract(
// CHECK: %[[Y:.*]] = mesh.all_slice %arg0 on @m mesh_axes = [0] slice_axis = 0 : tensor<2x4xf32> -> tensor<1x4xf32>
// CHECK: %[[W:.*]] = mesh.all_gather %arg1 on @m mesh_axes = [0] gather_axis = 0 : tensor<2x64xf32> -> tensor<4x64xf32>
// CHECK-NEXT: %[[Z:.*]] = linalg.matmul ins(%[[Y]], %[[W]] : tensor<1x4xf32>, tensor<4x64xf32>)
// CHECK-NEXT: %[[E:.*]] = math.exp %[[Z]] : tensor<1x64xf32>
// CHECK-NEXT: mesh.all_gather %[[E]] on @m mesh_axes = [0] gather_axis = 0 : tensor<1x64xf32> -> tensor<2x64xf32>
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
