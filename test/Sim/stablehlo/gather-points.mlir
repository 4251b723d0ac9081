// A gather picking one element along several dimensions (`t[r, c]`,
// JAX's `logits[jnp.arange(n), labels]`) from a table split along them:
// each split dimension is a sum loop of its own.  A device shifts each
// split component of the index vector by its first row there, holds an
// element when it holds it along every split dimension, gives 0 for the
// others, and the partial sums are reduced.  Before, the table was
// gathered whole (label_logits: 288 bytes a device, now 48).
// RUN: mesh-opt --allow-unregistered-dialect --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f both_axes -q --seed 1 --rtol 0 --atol 0 --allow-unregistered-dialect | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f both_axes -q --seed 2 --rtol 0 --atol 0 --allow-unregistered-dialect | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f leading_vector -q --seed 3 --rtol 0 --atol 0 --allow-unregistered-dialect | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f leading_vector -q --seed 4 --rtol 0 --atol 0 --allow-unregistered-dialect | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f xla_cut -q --seed 5 --rtol 0 --atol 0 --allow-unregistered-dialect | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f xla_cut -q --seed 6 --rtol 0 --atol 0 --allow-unregistered-dialect | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f label_logits -q --seed 7 --rtol 0 --atol 0 --allow-unregistered-dialect | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f label_logits -q --seed 8 --rtol 0 --atol 0 --allow-unregistered-dialect | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f no_rows -q --seed 9 --rtol 0 --atol 0 --allow-unregistered-dialect | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f no_rows -q --seed 10 --rtol 0 --atol 0 --allow-unregistered-dialect | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f no_rows_one_dim -q --seed 11 --rtol 0 --atol 0 --allow-unregistered-dialect | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f propagated_no_rows -q --seed 12 --rtol 0 --atol 0 --allow-unregistered-dialect | FileCheck %s --check-prefix=SIM
// RUN: mesh-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(mesh-analysis)' %t.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BYTES
// SIM: match

mesh.mesh @mesh(shape = 2x2)

// Rows over axis 0, columns over axis 1: the ids' two columns are shifted
// one after the other, and the two masks are and-ed.
// CHECK-LABEL: func.func @both_axes(
// CHECK-SAME: %arg0: tensor<4x3xf32>
// CHECK: %[[IDS:.*]] = arith.extsi {{.*}} : tensor<5x2xi32> to tensor<5x2xi64>
// CHECK: %[[R:.*]] = tensor.extract_slice %[[IDS]][0, 0] [5, 1] [1, 1]
// CHECK: %[[RM:.*]] = arith.andi {{.*}} : tensor<5x1xi1>
// CHECK: %[[I1:.*]] = tensor.insert_slice {{.*}} into %[[IDS]][0, 0] [5, 1] [1, 1]
// CHECK: %[[C:.*]] = tensor.extract_slice %[[I1]][0, 1] [5, 1] [1, 1]
// CHECK: %[[CM:.*]] = arith.andi {{.*}} : tensor<5x1xi1>
// CHECK: %[[M:.*]] = arith.andi %[[RM]], %[[CM]] : tensor<5x1xi1>
// CHECK: %[[I2:.*]] = tensor.insert_slice {{.*}} into %[[I1]][0, 1] [5, 1] [1, 1]
// CHECK: %[[G:.*]] = "stablehlo.gather"(%arg0, %[[I2]]) {{.*}} : (tensor<4x3xf32>, tensor<5x2xi64>) -> tensor<5xf32>
// CHECK: %[[MINE:.*]] = tensor.collapse_shape %[[M]] {{\[\[}}0, 1]] : tensor<5x1xi1> into tensor<5xi1>
// CHECK: %[[S:.*]] = arith.select %[[MINE]], %[[G]]
// CHECK: mesh.all_reduce %[[S]] on @mesh mesh_axes = [0, 1] : tensor<5xf32>
// CHECK-NOT: mesh.all_gather
// CHECK: return
func.func @both_axes(%table: tensor<8x6xf32>, %r: tensor<5xi32>, %c: tensor<5xi32>) -> tensor<5xf32> {
  %split = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %sum = mesh.sharding @mesh split_axes = [[]] partial = sum [0, 1] : !mesh.sharding
  %t = mesh.shard %table to %split annotate_for_users : tensor<8x6xf32>
  %m = "stablehlo.constant"() <{value = dense<7> : tensor<5xi32>}> : () -> tensor<5xi32>
  %rm = "stablehlo.and"(%r, %m) : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
  %cm = "stablehlo.and"(%c, %m) : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
  %r2 = "stablehlo.reshape"(%rm) : (tensor<5xi32>) -> tensor<5x1xi32>
  %c2 = "stablehlo.reshape"(%cm) : (tensor<5xi32>) -> tensor<5x1xi32>
  %ids = "stablehlo.concatenate"(%r2, %c2) <{dimension = 1 : i64}> : (tensor<5x1xi32>, tensor<5x1xi32>) -> tensor<5x2xi32>
  %g = "stablehlo.gather"(%t, %ids) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<8x6xf32>, tensor<5x2xi32>) -> tensor<5xf32>
  %p = mesh.shard %g to %sum : tensor<5xf32>
  %o = mesh.shard %p to %whole annotate_for_users : tensor<5xf32>
  return %o : tensor<5xf32>
}

// The index vector along the ids' first dimension, its components in the
// order start_index_map gives (the third dimension, then the first), i8
// ids, an integer table, and a dimension taken whole between them.
// CHECK-LABEL: func.func @leading_vector(
// CHECK-SAME: %arg0: tensor<2x3x5xi32>
// CHECK: mesh.process_multi_index on @mesh axes = [1]
// CHECK: tensor.extract_slice {{.*}}[0, 0] [1, 3] [1, 1] : tensor<2x3xi64> to tensor<1x3xi64>
// CHECK: mesh.process_multi_index on @mesh axes = [0]
// CHECK: tensor.extract_slice {{.*}}[1, 0] [1, 3] [1, 1] : tensor<2x3xi64> to tensor<1x3xi64>
// CHECK: "stablehlo.gather"(%arg0, {{.*}}) {{.*}} : (tensor<2x3x5xi32>, tensor<2x3xi64>) -> tensor<3x3xi32>
// CHECK: linalg.broadcast ins({{.*}} : tensor<3xi1>) outs({{.*}} : tensor<3x3xi1>) dimensions = [1]
// CHECK: mesh.all_reduce {{.*}} mesh_axes = [0, 1] : tensor<3x3xi32>
// CHECK-NOT: mesh.all_gather
// CHECK: return
func.func @leading_vector(%table: tensor<4x3x10xi32>, %ids: tensor<2x3xi8>) -> tensor<3x3xi32> {
  %split = mesh.sharding @mesh split_axes = [[0], [], [1]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %sum = mesh.sharding @mesh split_axes = [[]] partial = sum [0, 1] : !mesh.sharding
  %t = mesh.shard %table to %split annotate_for_users : tensor<4x3x10xi32>
  %m = "stablehlo.constant"() <{value = dense<7> : tensor<2x3xi8>}> : () -> tensor<2x3xi8>
  %k = "stablehlo.and"(%ids, %m) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
  %g = "stablehlo.gather"(%t, %k) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 2], start_index_map = [2, 0], index_vector_dim = 0>, indices_are_sorted = false, slice_sizes = array<i64: 1, 3, 1>}> : (tensor<4x3x10xi32>, tensor<2x3xi8>) -> tensor<3x3xi32>
  %p = mesh.shard %g to %sum : tensor<3x3xi32>
  %o = mesh.shard %p to %whole annotate_for_users : tensor<3x3xi32>
  return %o : tensor<3x3xi32>
}

// Rows cut as XLA cuts 7 over four devices (2, 2, 2, 1), the columns whole:
// only the first component is shifted, by a first row read from a table.
// CHECK-LABEL: func.func @xla_cut(
// CHECK-SAME: %arg0: tensor<?x6xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0, 1]], sharded_dims_offsets = [0, 2, 4, 6, 7]>}
// CHECK: arith.constant dense<[0, 2, 4, 6]> : tensor<4xindex>
// CHECK: tensor.extract_slice {{.*}}[0, 0] [4, 1] [1, 1]
// CHECK-NOT: tensor.extract_slice
// CHECK: "stablehlo.gather"(%arg0, {{.*}}) {{.*}} : (tensor<?x6xf32>, tensor<4x2xi64>) -> tensor<4xf32>
// CHECK: mesh.all_reduce {{.*}} mesh_axes = [0, 1] : tensor<4xf32>
// CHECK-NOT: mesh.all_gather
// CHECK: return
func.func @xla_cut(%table: tensor<7x6xf32>, %ids: tensor<4x2xi32>) -> tensor<4xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0, 1]] sharded_dims_offsets = [0, 2, 4, 6, 7] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %sum = mesh.sharding @mesh split_axes = [[]] partial = sum [0, 1] : !mesh.sharding
  %t = mesh.shard %table to %rows annotate_for_users : tensor<7x6xf32>
  %m = "stablehlo.constant"() <{value = dense<7> : tensor<4x2xi32>}> : () -> tensor<4x2xi32>
  %k = "stablehlo.and"(%ids, %m) : (tensor<4x2xi32>, tensor<4x2xi32>) -> tensor<4x2xi32>
  %g = "stablehlo.gather"(%t, %k) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<7x6xf32>, tensor<4x2xi32>) -> tensor<4xf32>
  %p = mesh.shard %g to %sum : tensor<4xf32>
  %o = mesh.shard %p to %whole annotate_for_users : tensor<4xf32>
  return %o : tensor<4xf32>
}

// Propagated: `logits[jnp.arange(8), labels]` with the logits split over
// both axes stays split; only the labels (16 bytes) are gathered.
// CHECK-LABEL: func.func @label_logits(
// CHECK-SAME: %arg0: tensor<4x6xf32>
// CHECK: mesh.all_gather {{.*}} : tensor<4x1xi32> -> tensor<8x1xi32>
// CHECK-NOT: mesh.all_gather
// CHECK: "stablehlo.gather"(%arg0, {{.*}}) {{.*}} : (tensor<4x6xf32>, tensor<8x2xi64>) -> tensor<8xf32>
// CHECK: mesh.reduce_scatter {{.*}} mesh_axes = [0] scatter_axis = 0 : tensor<8xf32> -> tensor<4xf32>
// CHECK: mesh.all_reduce {{.*}} mesh_axes = [1] : tensor<4xf32>
// CHECK-NOT: mesh.all_gather
// CHECK: return
// BYTES-LABEL: @label_logits on @mesh
// BYTES: max all_gather 1, all_reduce 1, reduce_scatter 1 48 424
func.func @label_logits(%logits: tensor<8x12xf32>, %labels: tensor<8xi32>) -> tensor<8xf32> {
  %split = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %batch = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %l = mesh.shard %logits to %split : tensor<8x12xf32>
  %y = mesh.shard %labels to %batch : tensor<8xi32>
  %rows = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<8xi32>
  %r = "stablehlo.reshape"(%rows) : (tensor<8xi32>) -> tensor<8x1xi32>
  %c = "stablehlo.reshape"(%y) : (tensor<8xi32>) -> tensor<8x1xi32>
  %ids = "stablehlo.concatenate"(%r, %c) <{dimension = 1 : i64}> : (tensor<8x1xi32>, tensor<8x1xi32>) -> tensor<8x2xi32>
  %g = "stablehlo.gather"(%l, %ids) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<8x12xf32>, tensor<8x2xi32>) -> tensor<8xf32>
  %o = mesh.shard %g to %batch : tensor<8xf32>
  return %o : tensor<8xf32>
}

// Columns cut as 4, 0 and rows as 3, 2: a device holding no columns
// gets one column of zeros (a slice of one element fits in no piece of
// none), which its mask never lets through.
// CHECK-LABEL: func.func @no_rows(
// CHECK-SAME: %arg0: tensor<?x?xf32>
// CHECK: %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<?x?xf32>)
// CHECK: %[[T:.*]] = tensor.insert_slice %arg0 into %[[Z]][0, 0]
// CHECK: "stablehlo.gather"(%[[T]], {{.*}}) {{.*}} : (tensor<?x?xf32>, tensor<6x2xi64>) -> tensor<6xf32>
// CHECK: mesh.all_reduce {{.*}} mesh_axes = [0, 1] : tensor<6xf32>
// CHECK: return
func.func @no_rows(%table: tensor<5x4xf32>, %ids: tensor<6x2xi32>) -> tensor<6xf32> {
  %cut = mesh.sharding @mesh split_axes = [[0], [1]] sharded_dims_offsets = [0, 3, 5, 0, 4, 4] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %sum = mesh.sharding @mesh split_axes = [[]] partial = sum [0, 1] : !mesh.sharding
  %t = mesh.shard %table to %cut annotate_for_users : tensor<5x4xf32>
  %m = "stablehlo.constant"() <{value = dense<7> : tensor<6x2xi32>}> : () -> tensor<6x2xi32>
  %k = "stablehlo.and"(%ids, %m) : (tensor<6x2xi32>, tensor<6x2xi32>) -> tensor<6x2xi32>
  %g = "stablehlo.gather"(%t, %k) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<5x4xf32>, tensor<6x2xi32>) -> tensor<6xf32>
  %p = mesh.shard %g to %sum : tensor<6xf32>
  %o = mesh.shard %p to %whole annotate_for_users : tensor<6xf32>
  return %o : tensor<6xf32>
}

// The same with one picked dimension (Megatron's embedding), 5 rows over 4
// devices cut 2, 2, 1, 0: refused before.
// CHECK-LABEL: func.func @no_rows_one_dim(
// CHECK: tensor.insert_slice %arg0 into
// CHECK: "stablehlo.gather"
// CHECK: mesh.all_reduce {{.*}} mesh_axes = [0, 1] : tensor<3x8xf32>
func.func @no_rows_one_dim(%table: tensor<5x8xf32>, %ids: tensor<3x1xi32>) -> tensor<3x8xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0, 1]] sharded_dims_offsets = [0, 2, 4, 5, 5] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %sum = mesh.sharding @mesh split_axes = [[]] partial = sum [0, 1] : !mesh.sharding
  %t = mesh.shard %table to %rows annotate_for_users : tensor<5x8xf32>
  %m = "stablehlo.constant"() <{value = dense<7> : tensor<3x1xi32>}> : () -> tensor<3x1xi32>
  %k = "stablehlo.and"(%ids, %m) : (tensor<3x1xi32>, tensor<3x1xi32>) -> tensor<3x1xi32>
  %g = "stablehlo.gather"(%t, %k) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 8>}> : (tensor<5x8xf32>, tensor<3x1xi32>) -> tensor<3x8xf32>
  %p = mesh.shard %g to %sum : tensor<3x8xf32>
  %o = mesh.shard %p to %whole annotate_for_users : tensor<3x8xf32>
  return %o : tensor<3x8xf32>
}

// Propagated from a table whose rows are cut 2, 2, 0 over three devices
// (helper-193's case): the device of no rows takes part in the sum, 24
// bytes a device (the table was cut again first: 312; before several
// picked dimensions split, an all_to_all: 192).
mesh.mesh @line(shape = 3)
// CHECK-LABEL: func.func @propagated_no_rows(
// CHECK-NOT: mesh.send
// CHECK: mesh.reduce_scatter
// BYTES-LABEL: @propagated_no_rows on @line
// BYTES: max reduce_scatter 1 24
func.func @propagated_no_rows(%table: tensor<4x9x4xf32>, %ids: tensor<2xi32>) -> tensor<9xf32> {
  %rows = mesh.sharding @line split_axes = [[0]] sharded_dims_offsets = [0, 2, 4, 4] : !mesh.sharding
  %t = mesh.shard %table to %rows annotate_for_users : tensor<4x9x4xf32>
  %g = "stablehlo.gather"(%t, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [0, 2], start_index_map = [0, 2], index_vector_dim = 0>, indices_are_sorted = false, slice_sizes = array<i64: 1, 9, 1>}> : (tensor<4x9x4xf32>, tensor<2xi32>) -> tensor<9xf32>
  %out = mesh.sharding @line split_axes = [[0]] : !mesh.sharding
  %o = mesh.shard %g to %out : tensor<9xf32>
  return %o : tensor<9xf32>
}

// Boolean ids (which StableHLO does not allow) are no rows partition can
// shift: i1 true would read as -1 once widened.  The split moves from the
// rows to the columns the slice takes whole.
// CHECK-LABEL: func.func @boolean_ids(
// CHECK-NOT: arith.extsi
// CHECK: mesh.all_to_all %arg0 on @mesh mesh_axes = [0] split_axis = 1 concat_axis = 0
// CHECK: "stablehlo.gather"
// CHECK-NOT: mesh.all_reduce
// CHECK: return
func.func @boolean_ids(%table: tensor<2x6xf32>, %ids: tensor<3x1xi1>) -> tensor<3x6xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %t = mesh.shard %table to %rows annotate_for_users : tensor<2x6xf32>
  %g = "stablehlo.gather"(%t, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 6>}> : (tensor<2x6xf32>, tensor<3x1xi1>) -> tensor<3x6xf32>
  return %g : tensor<3x6xf32>
}
