// A loop's accumulator of partial sums (gradient accumulation over
// micro-batches split over a mesh axis, a sum of products contracting a
// split dimension) stays partial through the loop: an add, a transpose, a
// reshape, a product or quotient by a positive constant (integers: a
// product by any whole factor, and a difference) run on each device's
// terms, and the sum is reduced once, after the loop, where each trip
// reduced its own term before.  Its
// init is kept on one device of each group (zeros are left as they are:
// zeros sum to zeros).  An accumulator read any other way inside the loop
// (a max, a float subtract, a condition) is still reduced there, on every
// trip.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f grad_accumulation -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f grad_accumulation -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f scaled_sum -q --seed 3 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f scaled_sum -q --seed 4 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f partial_argument -q --seed 5 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f partial_argument -q --seed 6 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f integers -q --seed 7 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f integers -q --seed 8 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f used_nonlinearly -q --seed 9 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f condition_reads -q --seed 10 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f product_of_partials -q --seed 11 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f product_of_partials -q --seed 12 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f float_subtract -q --seed 13 | FileCheck %s
// RUN: mesh-opt --mesh-analysis %t.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=ANALYSIS
// CHECK: match

mesh.mesh @mesh(shape = 2x2)

// Data parallel over axis 0, the weight's columns over axis 1: each trip's
// gradient x^T (x w) contracts the batch, split over axis 0, and is
// transposed into the accumulator.  One all_reduce of 16x4 floats after the
// 4 trips (256 bytes; the zero init's all_slice moves nothing), where
// reducing each trip's gradient would move 1,024.
// IR-LABEL: func.func @grad_accumulation(
// IR-SAME: %arg0: tensor<16x4xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}], [1]]>}
// IR-SAME: %arg1: tensor<4x4x16xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}], [0]]>}
// IR-NEXT: %[[C0:.*]] = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
// IR-NEXT: %[[Z:.*]] = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<16x8xf32>}> : () -> tensor<16x8xf32>
// IR-NEXT: %[[ZP:.*]] = mesh.all_slice %[[Z]] on @mesh mesh_axes = [1] slice_axis = 1 : tensor<16x8xf32> -> tensor<16x4xf32>
// IR-NEXT: %[[R:.*]]:2 = "stablehlo.while"(%[[C0]], %[[ZP]]) ({
// IR-NOT: mesh.
// IR: %[[G:.*]] = "stablehlo.dot_general"(%{{.*}}, %{{.*}}) {{.*}} : (tensor<4x4xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// IR-NEXT: %[[T:.*]] = "stablehlo.transpose"(%[[G]]) <{permutation = array<i64: 1, 0>}> : (tensor<4x16xf32>) -> tensor<16x4xf32>
// IR-NEXT: %[[A:.*]] = "stablehlo.add"(%{{.*}}, %[[T]]) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
// IR-NOT: mesh.
// IR: "stablehlo.return"(%{{.*}}, %[[A]]) : (tensor<i32>, tensor<16x4xf32>) -> ()
// IR-NEXT: }) : (tensor<i32>, tensor<16x4xf32>) -> (tensor<i32>, tensor<16x4xf32>)
// IR-NEXT: %[[S:.*]] = mesh.all_reduce %[[R]]#1 on @mesh mesh_axes = [0] : tensor<16x4xf32> -> tensor<16x4xf32>
// IR-NEXT: return %[[S]] : tensor<16x4xf32>
// ANALYSIS-LABEL: @grad_accumulation on @mesh
// ANALYSIS: max all_reduce 1, all_slice 1 256
func.func @grad_accumulation(%w: tensor<16x8xf32>, %xs: tensor<4x8x16xf32>) -> tensor<16x8xf32> {
  %sw = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
  %w0 = mesh.shard %w to %sw : tensor<16x8xf32>
  %sx = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %xs0 = mesh.shard %xs to %sx : tensor<4x8x16xf32>
  %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<16x8xf32>}> : () -> tensor<16x8xf32>
  %r:2 = "stablehlo.while"(%c0, %z) ({
  ^bb0(%i: tensor<i32>, %acc: tensor<16x8xf32>):
    %n = "stablehlo.constant"() <{value = dense<4> : tensor<i32>}> : () -> tensor<i32>
    %lt = "stablehlo.compare"(%i, %n) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.return"(%lt) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>, %acc: tensor<16x8xf32>):
    %zi = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %sl = "stablehlo.dynamic_slice"(%xs0, %i, %zi, %zi) <{slice_sizes = array<i64: 1, 8, 16>}> : (tensor<4x8x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x8x16xf32>
    %x = "stablehlo.reshape"(%sl) : (tensor<1x8x16xf32>) -> tensor<8x16xf32>
    %h = "stablehlo.dot_general"(%x, %w0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
    %g = "stablehlo.dot_general"(%h, %x) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<8x8xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %t = "stablehlo.transpose"(%g) <{permutation = array<i64: 1, 0>}> : (tensor<8x16xf32>) -> tensor<16x8xf32>
    %a = "stablehlo.add"(%acc, %t) : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    %one = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %j = "stablehlo.add"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%j, %a) : (tensor<i32>, tensor<16x8xf32>) -> ()
  }) : (tensor<i32>, tensor<16x8xf32>) -> (tensor<i32>, tensor<16x8xf32>)
  %out = mesh.shard %r#1 to %sw : tensor<16x8xf32>
  return %out : tensor<16x8xf32>
}

// A sum of products contracting a dimension split over axis 1, scaled by
// constants (times 0.25, over 3), from a whole init that is not zero (kept on the first
// device of each group along axis 1, the neutral -0.0 on the others).
// IR-LABEL: func.func @scaled_sum(
// IR: %[[I:.*]] = mesh.process_multi_index on @mesh axes = [1] : index
// IR: %[[K:.*]] = scf.if
// IR-NEXT: scf.yield %arg2 : tensor<4x8xf32>
// IR: "stablehlo.while"(%{{.*}}, %[[K]]) ({
// IR-NOT: mesh.
// IR: %[[D:.*]] = "stablehlo.dot_general"
// IR-NEXT: %[[Q:.*]] = "stablehlo.constant"() {value = dense<2.500000e-01> : tensor<4x8xf32>}
// IR-NEXT: %[[M:.*]] = "stablehlo.multiply"(%[[Q]], %[[D]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// IR: %[[V:.*]] = "stablehlo.divide"(%[[M]], %{{.*}}) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// IR-NEXT: "stablehlo.add"(%{{.*}}, %[[V]])
// IR-NOT: mesh.
// IR: }) : (tensor<i32>, tensor<4x8xf32>) -> (tensor<i32>, tensor<4x8xf32>)
// IR-NEXT: mesh.all_reduce %{{.*}}#1 on @mesh mesh_axes = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
// ANALYSIS-LABEL: @scaled_sum on @mesh
// ANALYSIS: max all_reduce 1 128
func.func @scaled_sum(%xs: tensor<3x8x16xf32>, %w: tensor<16x8xf32>, %b: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %sx = mesh.sharding @mesh split_axes = [[], [0], [1]] : !mesh.sharding
  %xs0 = mesh.shard %xs to %sx : tensor<3x8x16xf32>
  %sw = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
  %w0 = mesh.shard %w to %sw : tensor<16x8xf32>
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %b0 = mesh.shard %b to %rows : tensor<8x8xf32>
  %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %r:2 = "stablehlo.while"(%c0, %b0) ({
  ^bb0(%i: tensor<i32>, %acc: tensor<8x8xf32>):
    %n = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
    %lt = "stablehlo.compare"(%i, %n) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.return"(%lt) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>, %acc: tensor<8x8xf32>):
    %zi = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %sl = "stablehlo.dynamic_slice"(%xs0, %i, %zi, %zi) <{slice_sizes = array<i64: 1, 8, 16>}> : (tensor<3x8x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x8x16xf32>
    %x = "stablehlo.reshape"(%sl) : (tensor<1x8x16xf32>) -> tensor<8x16xf32>
    %d = "stablehlo.dot_general"(%x, %w0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
    %q = "stablehlo.constant"() <{value = dense<0.25> : tensor<8x8xf32>}> : () -> tensor<8x8xf32>
    %m = "stablehlo.multiply"(%q, %d) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %three = "stablehlo.constant"() <{value = dense<3.0> : tensor<f32>}> : () -> tensor<f32>
    %c = "stablehlo.broadcast_in_dim"(%three) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x8xf32>
    %v = "stablehlo.divide"(%m, %c) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %a = "stablehlo.add"(%acc, %v) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %one = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %j = "stablehlo.add"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%j, %a) : (tensor<i32>, tensor<8x8xf32>) -> ()
  }) : (tensor<i32>, tensor<8x8xf32>) -> (tensor<i32>, tensor<8x8xf32>)
  %out = mesh.shard %r#1 to %rows : tensor<8x8xf32>
  return %out : tensor<8x8xf32>
}

// Two partial arguments (random terms on each device) added to the
// accumulator through an scf.for of 3 trips: each device adds its own
// terms, and the sum is reduced once after the loop.
// IR-LABEL: func.func @partial_argument(
// IR-SAME: %arg0: tensor<4x8xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}]], partial = sum [0]>}
// IR: scf.for
// IR-NOT: mesh.
// IR: scf.yield
// IR-NEXT: }
// IR-NEXT: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0] : tensor<4x8xf32> -> tensor<4x8xf32>
// ANALYSIS-LABEL: @partial_argument on @mesh
// ANALYSIS: max all_reduce 1 128
func.func @partial_argument(%g: tensor<4x8xf32>, %h: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %sp = mesh.sharding @mesh split_axes = [[]] partial = sum [0] : !mesh.sharding
  %g0 = mesh.shard %g to %sp : tensor<4x8xf32>
  %h0 = mesh.shard %h to %sp : tensor<4x8xf32>
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %lo = arith.constant 0 : index
  %hi = arith.constant 3 : index
  %st = arith.constant 1 : index
  %z = arith.constant dense<0.0> : tensor<4x8xf32>
  %r = scf.for %i = %lo to %hi step %st iter_args(%acc = %z) -> (tensor<4x8xf32>) {
    %a = arith.addf %acc, %g0 : tensor<4x8xf32>
    %b = arith.addf %a, %h0 : tensor<4x8xf32>
    scf.yield %b : tensor<4x8xf32>
  }
  %out = mesh.shard %r to %whole : tensor<4x8xf32>
  return %out : tensor<4x8xf32>
}

// Integers wrap alike on terms and on totals, so a product by any whole
// factor and a difference run on terms too; they lose their overflow
// flags, which the terms may break.  The result is returned partial, so
// running on terms moves nothing (reducing %g first would move 32 B): the
// whole init is kept on the first device of each group, zeros elsewhere.
// IR-LABEL: func.func @integers(
// IR: mesh.process_multi_index on @mesh axes = [1] : index
// IR: scf.yield %arg2 : tensor<8xi32>
// IR: linalg.fill
// IR: scf.for
// IR-NEXT: %[[M:.*]] = arith.muli %arg1, %arg0 : tensor<8xi32>
// IR-NEXT: arith.subi %{{.*}}, %[[M]] : tensor<8xi32>
// IR-NEXT: scf.yield
// IR-NEXT: }
// IR-NEXT: return
func.func @integers(%g: tensor<8xi32>, %k: tensor<8xi32>, %init: tensor<8xi32>) -> tensor<8xi32> {
  %sp = mesh.sharding @mesh split_axes = [[]] partial = sum [1] : !mesh.sharding
  %g0 = mesh.shard %g to %sp : tensor<8xi32>
  %lo = arith.constant 0 : index
  %hi = arith.constant 4 : index
  %st = arith.constant 1 : index
  %r = scf.for %i = %lo to %hi step %st iter_args(%acc = %init) -> (tensor<8xi32>) {
    %m = arith.muli %k, %g0 overflow<nsw> : tensor<8xi32>
    %a = arith.subi %acc, %m overflow<nsw, nuw> : tensor<8xi32>
    scf.yield %a : tensor<8xi32>
  }
  %out = mesh.shard %r to %sp : tensor<8xi32>
  return %out : tensor<8xi32>
}

// The accumulator goes through a max on every trip: the max needs its
// total: the accumulator stays whole and each trip reduces its term (4
// all_reduces), as before.
// IR-LABEL: func.func @used_nonlinearly(
// IR: "stablehlo.while"
// IR: }, {
// IR: "stablehlo.maximum"
// IR-NEXT: %[[S:.*]] = mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0] : tensor<8x4xf32> -> tensor<8x4xf32>
// IR-NEXT: "stablehlo.add"(%{{.*}}, %[[S]])
// IR: "stablehlo.return"
// IR-NEXT: })
// IR-NOT: mesh.
// IR: return
// ANALYSIS-LABEL: @used_nonlinearly on @mesh
// ANALYSIS: max all_reduce 4 512
func.func @used_nonlinearly(%xs: tensor<4x8x16xf32>, %w: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %sx = mesh.sharding @mesh split_axes = [[], [], [0]] : !mesh.sharding
  %xs0 = mesh.shard %xs to %sx : tensor<4x8x16xf32>
  %sw = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %w0 = mesh.shard %w to %sw : tensor<16x4xf32>
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<8x4xf32>}> : () -> tensor<8x4xf32>
  %r:2 = "stablehlo.while"(%c0, %z) ({
  ^bb0(%i: tensor<i32>, %acc: tensor<8x4xf32>):
    %n = "stablehlo.constant"() <{value = dense<4> : tensor<i32>}> : () -> tensor<i32>
    %lt = "stablehlo.compare"(%i, %n) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.return"(%lt) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>, %acc: tensor<8x4xf32>):
    %zi = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %sl = "stablehlo.dynamic_slice"(%xs0, %i, %zi, %zi) <{slice_sizes = array<i64: 1, 8, 16>}> : (tensor<4x8x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x8x16xf32>
    %x = "stablehlo.reshape"(%sl) : (tensor<1x8x16xf32>) -> tensor<8x16xf32>
    %d = "stablehlo.dot_general"(%x, %w0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
    %zf = "stablehlo.constant"() <{value = dense<0.0> : tensor<8x4xf32>}> : () -> tensor<8x4xf32>
    %p = "stablehlo.maximum"(%acc, %zf) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
    %a = "stablehlo.add"(%p, %d) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
    %one = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %j = "stablehlo.add"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%j, %a) : (tensor<i32>, tensor<8x4xf32>) -> ()
  }) : (tensor<i32>, tensor<8x4xf32>) -> (tensor<i32>, tensor<8x4xf32>)
  %out = mesh.shard %r#1 to %whole : tensor<8x4xf32>
  return %out : tensor<8x4xf32>
}

// The loop's condition reads the accumulator (until its first element
// passes 4, at most 6 trips).  Its trip count is known only at run time,
// costed as one trip: reducing each trip's term in the body is as cheap as
// reducing the accumulator once, and the sum stays whole.
// IR-LABEL: func.func @condition_reads(
// IR: "stablehlo.while"
// IR-NOT: mesh.
// IR: }, {
// IR: %[[D:.*]] = "stablehlo.dot_general"
// IR-NEXT: %[[S:.*]] = mesh.all_reduce %[[D]] on @mesh mesh_axes = [0] : tensor<4x4xf32> -> tensor<4x4xf32>
// IR-NEXT: "stablehlo.add"(%{{.*}}, %[[S]])
func.func @condition_reads(%x: tensor<4x16xf32>, %w: tensor<16x4xf32>) -> tensor<4x4xf32> {
  %sx = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %x0 = mesh.shard %x to %sx : tensor<4x16xf32>
  %sw = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %w0 = mesh.shard %w to %sw : tensor<16x4xf32>
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<4x4xf32>}> : () -> tensor<4x4xf32>
  %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %r:2 = "stablehlo.while"(%c0, %z) ({
  ^bb0(%i: tensor<i32>, %acc: tensor<4x4xf32>):
    %sl = "stablehlo.slice"(%acc) <{start_indices = array<i64: 0, 0>, limit_indices = array<i64: 1, 1>, strides = array<i64: 1, 1>}> : (tensor<4x4xf32>) -> tensor<1x1xf32>
    %e = "stablehlo.reshape"(%sl) : (tensor<1x1xf32>) -> tensor<f32>
    %four = "stablehlo.constant"() <{value = dense<4.0> : tensor<f32>}> : () -> tensor<f32>
    %lt = "stablehlo.compare"(%e, %four) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %n = "stablehlo.constant"() <{value = dense<6> : tensor<i32>}> : () -> tensor<i32>
    %lt2 = "stablehlo.compare"(%i, %n) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %both = "stablehlo.and"(%lt, %lt2) : (tensor<i1>, tensor<i1>) -> tensor<i1>
    "stablehlo.return"(%both) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>, %acc: tensor<4x4xf32>):
    %d = "stablehlo.dot_general"(%x0, %w0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x16xf32>, tensor<16x4xf32>) -> tensor<4x4xf32>
    %a = "stablehlo.add"(%acc, %d) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %one = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %j = "stablehlo.add"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%j, %a) : (tensor<i32>, tensor<4x4xf32>) -> ()
  }) : (tensor<i32>, tensor<4x4xf32>) -> (tensor<i32>, tensor<4x4xf32>)
  %out = mesh.shard %r#1 to %whole : tensor<4x4xf32>
  return %out : tensor<4x4xf32>
}


// A product of two partial sums of integers (random terms on each device)
// accumulated over 3 trips: the product is linear in one factor only, so
// the other is reduced (once, in front of the loop: it is defined outside),
// and the first's terms times that total stay partial, returned so.
// IR-LABEL: func.func @product_of_partials(
// IR: %[[B:.*]] = mesh.all_reduce %arg1 on @mesh mesh_axes = [0] : tensor<4x8xi32> -> tensor<4x8xi32>
// IR: scf.for
// IR-NEXT: %[[M:.*]] = arith.muli %arg0, %[[B]] : tensor<4x8xi32>
// IR-NEXT: arith.addi %{{.*}}, %[[M]] : tensor<4x8xi32>
// IR: scf.yield
// IR-NEXT: }
// IR-NEXT: return
func.func @product_of_partials(%g: tensor<4x8xi32>, %h: tensor<4x8xi32>) -> tensor<4x8xi32> {
  %sp = mesh.sharding @mesh split_axes = [[]] partial = sum [0] : !mesh.sharding
  %g0 = mesh.shard %g to %sp : tensor<4x8xi32>
  %h0 = mesh.shard %h to %sp : tensor<4x8xi32>
  %lo = arith.constant 0 : index
  %hi = arith.constant 3 : index
  %st = arith.constant 1 : index
  %z = arith.constant dense<0> : tensor<4x8xi32>
  %r = scf.for %i = %lo to %hi step %st iter_args(%acc = %z) -> (tensor<4x8xi32>) {
    %m = arith.muli %g0, %h0 : tensor<4x8xi32>
    %a = arith.addi %acc, %m : tensor<4x8xi32>
    scf.yield %a : tensor<4x8xi32>
  }
  %out = mesh.shard %r to %sp : tensor<4x8xi32>
  return %out : tensor<4x8xi32>
}

// Floats are not subtracted on terms (a -0.0 kept on one device's neutral
// terms would turn into +0.0): each trip's product is reduced before the
// accumulator takes it away, 3 all_reduces in the loop.
// IR-LABEL: func.func @float_subtract(
// IR: "stablehlo.while"
// IR: }, {
// IR: %[[D:.*]] = "stablehlo.dot_general"
// IR-NEXT: %[[S:.*]] = mesh.all_reduce %[[D]] on @mesh mesh_axes = [0] : tensor<4x4xf32> -> tensor<4x4xf32>
// IR-NEXT: "stablehlo.subtract"(%{{.*}}, %[[S]])
// IR: "stablehlo.return"
// IR-NEXT: })
// IR-NEXT: return
// ANALYSIS-LABEL: @float_subtract on @mesh
// ANALYSIS: max all_reduce 3 192
func.func @float_subtract(%xs: tensor<3x4x16xf32>, %w: tensor<16x4xf32>) -> tensor<4x4xf32> {
  %sx = mesh.sharding @mesh split_axes = [[], [], [0]] : !mesh.sharding
  %xs0 = mesh.shard %xs to %sx : tensor<3x4x16xf32>
  %sw = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %w0 = mesh.shard %w to %sw : tensor<16x4xf32>
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<4x4xf32>}> : () -> tensor<4x4xf32>
  %r:2 = "stablehlo.while"(%c0, %z) ({
  ^bb0(%i: tensor<i32>, %acc: tensor<4x4xf32>):
    %n = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
    %lt = "stablehlo.compare"(%i, %n) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.return"(%lt) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>, %acc: tensor<4x4xf32>):
    %zi = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %sl = "stablehlo.dynamic_slice"(%xs0, %i, %zi, %zi) <{slice_sizes = array<i64: 1, 4, 16>}> : (tensor<3x4x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x4x16xf32>
    %x = "stablehlo.reshape"(%sl) : (tensor<1x4x16xf32>) -> tensor<4x16xf32>
    %d = "stablehlo.dot_general"(%x, %w0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x16xf32>, tensor<16x4xf32>) -> tensor<4x4xf32>
    %a = "stablehlo.subtract"(%acc, %d) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %one = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %j = "stablehlo.add"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%j, %a) : (tensor<i32>, tensor<4x4xf32>) -> ()
  }) : (tensor<i32>, tensor<4x4xf32>) -> (tensor<i32>, tensor<4x4xf32>)
  %out = mesh.shard %r#1 to %whole : tensor<4x4xf32>
  return %out : tensor<4x4xf32>
}
