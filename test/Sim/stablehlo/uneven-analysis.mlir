// mesh-analysis follows hlo ops run on pieces of unequal sizes: 8 columns
// over mesh axis 1 of size 3 are cut 2, 3, 3, and the ops' local types are
// dynamic along that cut.  Each dynamic result size comes from the operand
// dimension the op maps to it (a dot_general's right-hand free dimension,
// a transpose's permuted one, what a reduce keeps, a broadcast's mapped
// one), not from the first operand of the same rank that knows one: the
// dot_general below was counted 6 columns wide (its left operand's).
// Every function gathers its rows over axis 0 at the end, so a device
// receives the other row piece of its own columns: 2 x c x 4 bytes.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: mesh-opt --mesh-analysis %t.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=COST
// RUN: mesh-run %t.mlir -f dot_cols --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f transposed --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f reduced --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f broadcast --compare-with %s -q --seed 1 | FileCheck %s
// CHECK: match

// COST-LABEL: @dot_cols on @mesh
// COST: [0, 0]  all_gather 1            16              112     52
// COST-NEXT: [0, 1]  all_gather 1            24              144     78
// COST-LABEL: @transposed on @mesh
// COST: [0, 0]  all_gather 1            16               48      4
// COST-NEXT: [0, 1]  all_gather 1            24               72      6
// COST-LABEL: @reduced on @mesh
// COST: [0, 0]  all_gather 1            16              116     28
// COST-NEXT: [0, 1]  all_gather 1            24              172     42
// COST-NOT: note
// COST-LABEL: @broadcast on @mesh
// COST: [0, 0]  all_gather 1            16               48      4
// COST-NEXT: [0, 1]  all_gather 1            24               72      6

mesh.mesh @mesh(shape = 2x3)

func.func @dot_cols(%x: tensor<4x6xf32>, %w: tensor<6x8xf32>) -> tensor<4x8xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %cols = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<4x6xf32>
  %ws = mesh.shard %w to %cols : tensor<6x8xf32>
  %y = "stablehlo.dot_general"(%xs, %ws) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x6xf32>, tensor<6x8xf32>) -> tensor<4x8xf32>
  %e = "stablehlo.exponential"(%y) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = mesh.shard %e to %cols : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

func.func @transposed(%x: tensor<8x4xf32>) -> tensor<4x8xf32> {
  %in = mesh.sharding @mesh split_axes = [[1], [0]] : !mesh.sharding
  %cols = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %in : tensor<8x4xf32>
  %t = "stablehlo.transpose"(%xs) <{permutation = array<i64: 1, 0>}> : (tensor<8x4xf32>) -> tensor<4x8xf32>
  %e = "stablehlo.exponential"(%t) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = mesh.shard %e to %cols : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

func.func @reduced(%x: tensor<4x6x8xf32>) -> tensor<4x8xf32> {
  %in = mesh.sharding @mesh split_axes = [[0], [], [1]] : !mesh.sharding
  %cols = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %in : tensor<4x6x8xf32>
  %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %s = "stablehlo.reduce"(%xs, %z) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%t) : (tensor<f32>) -> ()
  }) : (tensor<4x6x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %e = "stablehlo.exponential"(%s) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = mesh.shard %e to %cols : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

func.func @broadcast(%v: tensor<8xf32>, %x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %split = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
  %both = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %cols = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
  %vs = mesh.shard %v to %split : tensor<8xf32>
  %xs = mesh.shard %x to %both : tensor<4x8xf32>
  %b = "stablehlo.broadcast_in_dim"(%vs) <{broadcast_dimensions = array<i64: 1>}> : (tensor<8xf32>) -> tensor<4x8xf32>
  %m = "stablehlo.multiply"(%b, %xs) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = mesh.shard %m to %cols : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
