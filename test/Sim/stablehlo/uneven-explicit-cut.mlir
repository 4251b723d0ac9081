// Hlo ops on pieces cut by explicit offsets, as JAX programs arrive (XLA
// cuts a size its devices do not divide into ceil-sized pieces, the last
// ones shorter or empty, and import-shardings writes that cut as offsets).
// The hlo ops that run on pieces of unequal sizes take the cut the
// function's annotations give such a size, and the solver prices it: a
// softmax over 8 rows cut 3, 3, 2 and a tanh, a reduce and a matmul over 6
// rows cut 2, 2, 2, 0 (the last device holds no row) move nothing, and a
// contraction over such a cut leaves partial sums. Where the user asks for
// the default cut (2, 3, 3) of a value cut so, partition reshards between
// the two: each device receives the one row of its new piece it lacks from
// its neighbour (48 bytes; the all_to_alls there before received 192). A broadcast's new dimension takes no explicit cut (its type
// could not size the pieces): a scalar broadcast to 10 and annotated cut 9,
// 1 is made in the even cut the dot reads it in (partition refused it).
// A gather looks its ids up in a table whose rows are cut 13, 13, 13, 11
// where they lie (partial sums, one all_reduce); rows cut 2, 2, 1, 0 leave
// the last device no row to take a slice of one row from, so the lookup
// does not run on them (this small table is gathered).
// Each function is simulated against the unpartitioned program.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir -f softmax --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f softmax --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f empty_piece --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f empty_piece --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f two_cuts --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f two_cuts --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f contract_cols --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f contract_cols --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f broadcast_cut --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f broadcast_cut --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f embedding --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f embedding --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f embedding_no_rows --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f embedding_no_rows --compare-with %s -q --seed 2 | FileCheck %s
// CHECK: match

// IR-LABEL: func.func @softmax(
// IR-SAME: tensor<?x6xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]], sharded_dims_offsets = [0, 3, 6, 8]>}
// IR-NOT: mesh.all
// IR: "stablehlo.broadcast_in_dim"(%{{.*}}) <{broadcast_dimensions = array<i64: 0>}> : (tensor<?xf32>) -> tensor<?x6xf32>
// IR-NOT: mesh.all
// IR: "stablehlo.divide"(%{{.*}}, %{{.*}}) : (tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<?x6xf32>
// IR-NEXT: return

// IR-LABEL: func.func @empty_piece(
// IR-SAME: sharded_dims_offsets = [0, 2, 4, 6, 6]
// IR-NOT: mesh.all
// IR: "stablehlo.tanh"(%arg0) : (tensor<?x5xf32>) -> tensor<?x5xf32>
// IR-NOT: mesh.all
// IR: "stablehlo.dot_general"(%{{.*}}, %arg1) {{.*}} : (tensor<?x5xf32>, tensor<5x4xf32>) -> tensor<?x4xf32>
// IR-NEXT: return

// IR-LABEL: func.func @two_cuts(
// IR: "stablehlo.exponential"(%arg0) : (tensor<?x6xf32>) -> tensor<?x6xf32>
// IR-NOT: mesh.all
// IR: mesh.recv %{{.*}} on @mesh mesh_axes = [0] source = [%{{.*}}] : (tensor<1x6xf32>, index) -> tensor<1x6xf32>
// IR-NOT: mesh.all
// IR: mesh.recv %{{.*}} on @mesh mesh_axes = [0] source = [%{{.*}}] : (tensor<1x6xf32>, index) -> tensor<1x6xf32>
// IR-NOT: mesh.all
// IR: "stablehlo.negate"(%{{.*}}) : (tensor<?x6xf32>) -> tensor<?x6xf32>

// IR-LABEL: func.func @contract_cols(
// IR-SAME: -> (tensor<4x5xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}]], partial = sum [0]>})
// IR-NEXT: "stablehlo.dot_general"(%arg0, %arg1) {{.*}} : (tensor<4x?xf32>, tensor<?x5xf32>) -> tensor<4x5xf32>
// IR-NEXT: return

// IR-LABEL: func.func @broadcast_cut(
// IR: "stablehlo.broadcast_in_dim"(%{{.*}}) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<5xf32>
// IR-NEXT: "stablehlo.dot_general"(%arg0, %{{.*}}) {{.*}} : (tensor<5xf32>, tensor<5xf32>) -> tensor<f32>

// IR-LABEL: func.func @embedding(
// IR-SAME: %arg1: tensor<?x8xf32> {mesh.sharding = #mesh.sharding<@mesh4, {{\[\[}}0]], sharded_dims_offsets = [0, 13, 26, 39, 50]>}
// IR-NOT: mesh.all
// IR: arith.constant dense<[13, 13, 13, 11]> : tensor<4xindex>
// IR: "stablehlo.gather"(%arg1, {{.*}} : (tensor<?x8xf32>, tensor<6x1xi64>) -> tensor<6x8xf32>
// IR: mesh.all_reduce {{.*}} on @mesh4 mesh_axes = [0] : tensor<6x8xf32> -> tensor<6x8xf32>
// IR-NOT: mesh.all

// IR-LABEL: func.func @embedding_no_rows(
// IR-SAME: %arg1: tensor<?x8xf32> {mesh.sharding = #mesh.sharding<@mesh4, {{\[\[}}0]], sharded_dims_offsets = [0, 2, 4, 5, 5]>}
// IR: mesh.all_gather {{.*}} -> tensor<5x8xf32>
// IR-NEXT: "stablehlo.gather"({{.*}} : (tensor<5x8xf32>, tensor<6x1xi32>) -> tensor<6x8xf32>

mesh.mesh @mesh(shape = 3)
mesh.mesh @mesh4(shape = 4)
mesh.mesh @mesh32(shape = 3x2)

func.func @softmax(%x: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] sharded_dims_offsets = [0, 3, 6, 8] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<8x6xf32>
  %ninf = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
  %m = "stablehlo.reduce"(%xs, %ninf) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%t) : (tensor<f32>) -> ()
  }) : (tensor<8x6xf32>, tensor<f32>) -> tensor<8xf32>
  %mb = "stablehlo.broadcast_in_dim"(%m) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x6xf32>
  %d = "stablehlo.subtract"(%xs, %mb) : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
  %e = "stablehlo.exponential"(%d) : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %s = "stablehlo.reduce"(%e, %z) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%t) : (tensor<f32>) -> ()
  }) : (tensor<8x6xf32>, tensor<f32>) -> tensor<8xf32>
  %sb = "stablehlo.broadcast_in_dim"(%s) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x6xf32>
  %y = "stablehlo.divide"(%e, %sb) : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
  %ys = mesh.shard %y to %rows : tensor<8x6xf32>
  return %ys : tensor<8x6xf32>
}

func.func @empty_piece(%x: tensor<6x5xf32>, %w: tensor<5x4xf32>) -> (tensor<6xf32>, tensor<6x4xf32>) {
  %rows = mesh.sharding @mesh4 split_axes = [[0]] sharded_dims_offsets = [0, 2, 4, 6, 6] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<6x5xf32>
  %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %t = "stablehlo.tanh"(%xs) : (tensor<6x5xf32>) -> tensor<6x5xf32>
  %s = "stablehlo.reduce"(%t, %z) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %u = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%u) : (tensor<f32>) -> ()
  }) : (tensor<6x5xf32>, tensor<f32>) -> tensor<6xf32>
  %y = "stablehlo.dot_general"(%t, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<6x5xf32>, tensor<5x4xf32>) -> tensor<6x4xf32>
  %ss = mesh.shard %s to %rows : tensor<6xf32>
  %ys = mesh.shard %y to %rows : tensor<6x4xf32>
  return %ss, %ys : tensor<6xf32>, tensor<6x4xf32>
}

func.func @two_cuts(%x: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %xla = mesh.sharding @mesh split_axes = [[0]] sharded_dims_offsets = [0, 3, 6, 8] : !mesh.sharding
  %ours = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %xla : tensor<8x6xf32>
  %e = "stablehlo.exponential"(%xs) : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %es = mesh.shard %e to %ours : tensor<8x6xf32>
  %n = "stablehlo.negate"(%es) : (tensor<8x6xf32>) -> tensor<8x6xf32>
  return %n : tensor<8x6xf32>
}

func.func @contract_cols(%x: tensor<4x8xf32>, %w: tensor<8x5xf32>) -> tensor<4x5xf32> {
  %cols = mesh.sharding @mesh split_axes = [[], [0]] sharded_dims_offsets = [0, 3, 6, 8] : !mesh.sharding
  %rows = mesh.sharding @mesh split_axes = [[0]] sharded_dims_offsets = [0, 3, 6, 8] : !mesh.sharding
  %xs = mesh.shard %x to %cols : tensor<4x8xf32>
  %ws = mesh.shard %w to %rows : tensor<8x5xf32>
  %y = "stablehlo.dot_general"(%xs, %ws) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x8xf32>, tensor<8x5xf32>) -> tensor<4x5xf32>
  return %y : tensor<4x5xf32>
}

func.func @broadcast_cut(%x: tensor<10xf32>) -> tensor<f32> {
  %s = mesh.sharding @mesh32 split_axes = [[1]] : !mesh.sharding
  %xs = mesh.shard %x to %s annotate_for_users : tensor<10xf32>
  %c = "stablehlo.constant"() <{value = dense<-3.0> : tensor<f32>}> : () -> tensor<f32>
  %b = "stablehlo.broadcast_in_dim"(%c) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<10xf32>
  %o = mesh.sharding @mesh32 split_axes = [[1]] sharded_dims_offsets = [0, 9, 10] : !mesh.sharding
  %bs = mesh.shard %b to %o : tensor<10xf32>
  %d = "stablehlo.dot_general"(%xs, %b) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<10xf32>, tensor<10xf32>) -> tensor<f32>
  return %d : tensor<f32>
}

func.func @embedding(%ids: tensor<6x1xi32>, %table: tensor<50x8xf32>) -> tensor<6x8xf32> {
  %rows = mesh.sharding @mesh4 split_axes = [[0]] sharded_dims_offsets = [0, 13, 26, 39, 50] : !mesh.sharding
  %t = mesh.shard %table to %rows annotate_for_users : tensor<50x8xf32>
  %g = "stablehlo.gather"(%t, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 8>}> : (tensor<50x8xf32>, tensor<6x1xi32>) -> tensor<6x8xf32>
  %whole = mesh.sharding @mesh4 split_axes = [[]] : !mesh.sharding
  %r = mesh.shard %g to %whole : tensor<6x8xf32>
  return %r : tensor<6x8xf32>
}

func.func @embedding_no_rows(%ids: tensor<6x1xi32>, %table: tensor<5x8xf32>) -> tensor<6x8xf32> {
  %rows = mesh.sharding @mesh4 split_axes = [[0]] sharded_dims_offsets = [0, 2, 4, 5, 5] : !mesh.sharding
  %t = mesh.shard %table to %rows annotate_for_users : tensor<5x8xf32>
  %g = "stablehlo.gather"(%t, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 8>}> : (tensor<5x8xf32>, tensor<6x1xi32>) -> tensor<6x8xf32>
  %whole = mesh.sharding @mesh4 split_axes = [[]] : !mesh.sharding
  %r = mesh.shard %g to %whole : tensor<6x8xf32>
  return %r : tensor<6x8xf32>
}
