// Reshards of pieces of different sizes loop over the group's members
// (scf.for) past mesh-partition's unroll-limit; at 0 every one loops, so
// the loops run here on meshes small enough to simulate: rows and columns
// over more devices than they have (most pieces empty, as on the
// 65536-device axis of test/Transforms/mesh-partition-large-group.mlir),
// gathered whole, moved between dimensions and reduced from partial sums.
// Each function is simulated against the original on random inputs.
// RUN: mesh-opt --mesh-partition=unroll-limit=0 %s -o %t.mlir 2>/dev/null
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir -f rows_over_8 --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir -f rows_over_2x4 --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir -f partial_rows_over_8 --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir -f columns_to_rows_over_3 --compare-with %s -q | FileCheck %s
// CHECK: result 0: max error 0
// CHECK-NEXT: match

// IR-LABEL: func.func @rows_over_8
// IR-COUNT-3: scf.for
// IR-NOT: scf.for
// IR-LABEL: func.func @rows_over_2x4
// IR-COUNT-3: scf.for
// IR-NOT: scf.for
// IR-LABEL: func.func @partial_rows_over_8
// IR: scf.for
// IR-NOT: scf.for
// IR: mesh.reduce_scatter
// IR-LABEL: func.func @columns_to_rows_over_3
// IR-COUNT-2: scf.for
// IR-NOT: {{scf.for|tensor.concat}}

mesh.mesh @m8(shape = 1x8)
mesh.mesh @m24(shape = 2x4)
mesh.mesh @m3(shape = 3)

// 4 rows over 8 devices (4 empty pieces), gathered whole: all_to_all, all_gather
func.func @rows_over_8(%x: tensor<4x12xi32>) -> tensor<4x12xi32> {
  %s = mesh.sharding @m8 split_axes = [[1]] : !mesh.sharding
  %0 = mesh.shard %x to %s : tensor<4x12xi32>
  %w = mesh.sharding @m8 split_axes = [[]] : !mesh.sharding
  %1 = mesh.shard %0 to %w annotate_for_users : tensor<4x12xi32>
  %2 = arith.addi %1, %1 : tensor<4x12xi32>
  %3 = mesh.shard %2 to %w : tensor<4x12xi32>
  return %3 : tensor<4x12xi32>
}

// the same over both axes of a 2x4 mesh
func.func @rows_over_2x4(%x: tensor<4x12xi32>) -> tensor<4x12xi32> {
  %s = mesh.sharding @m24 split_axes = [[0, 1]] : !mesh.sharding
  %0 = mesh.shard %x to %s : tensor<4x12xi32>
  %w = mesh.sharding @m24 split_axes = [[]] : !mesh.sharding
  %1 = mesh.shard %0 to %w annotate_for_users : tensor<4x12xi32>
  %2 = arith.addi %1, %1 : tensor<4x12xi32>
  %3 = mesh.shard %2 to %w : tensor<4x12xi32>
  return %3 : tensor<4x12xi32>
}

// a partial sum scattered into 6 rows over 8 devices (2 empty): reduce_scatter
func.func @partial_rows_over_8(%x: tensor<6x2xi32>) -> tensor<6x2xi32> {
  %p = mesh.sharding @m8 split_axes = [[]] partial = sum [1] : !mesh.sharding
  %0 = mesh.shard %x to %p : tensor<6x2xi32>
  %s = mesh.sharding @m8 split_axes = [[1]] : !mesh.sharding
  %1 = mesh.shard %0 to %s annotate_for_users : tensor<6x2xi32>
  %2 = arith.addi %1, %1 : tensor<6x2xi32>
  %3 = mesh.shard %2 to %s : tensor<6x2xi32>
  return %3 : tensor<6x2xi32>
}

// 7 columns (2, 2, 3) become 5 rows (1, 2, 2): one all_to_all
func.func @columns_to_rows_over_3(%x: tensor<5x7xi32>) -> tensor<5x7xi32> {
  %s = mesh.sharding @m3 split_axes = [[], [0]] : !mesh.sharding
  %0 = mesh.shard %x to %s : tensor<5x7xi32>
  %t = mesh.sharding @m3 split_axes = [[0]] : !mesh.sharding
  %1 = mesh.shard %0 to %t annotate_for_users : tensor<5x7xi32>
  %2 = arith.addi %1, %1 : tensor<5x7xi32>
  %3 = mesh.shard %2 to %t : tensor<5x7xi32>
  return %3 : tensor<5x7xi32>
}
