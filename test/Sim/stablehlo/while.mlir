// stablehlo.while and mhlo.while (JAX's fori_loop, scan and while_loop):
// each carried value has one layout at the init, the block arguments of
// both regions, the body's return and the result; partition reshards the
// init in front of the loop and the returned value inside the body.  A
// split value the condition reads is reduced inside the condition.  When
// the loop's counter gives its trip count (a constant start, step and
// bound), the solver weighs what runs inside by it and mesh-analysis
// counts the body that many times.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f layers -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f until_small -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f accumulate -q --seed 3 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f no_trips -q --seed 4 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f mhlo_loop -q --seed 5 | FileCheck %s
// RUN: mesh-opt --pass-pipeline='builtin.module(func.func(sharding-propagation{solver=sweep}), mesh-partition)' %s -o %t.sweep.mlir
// RUN: mesh-run %t.sweep.mlir --compare-with %s -f layers -q --seed 6 | FileCheck %s
// RUN: mesh-run %t.sweep.mlir --compare-with %s -f until_small -q --seed 7 | FileCheck %s
// RUN: mesh-run %t.sweep.mlir --compare-with %s -f mhlo_loop -q --seed 8 | FileCheck %s
// RUN: mesh-opt --mesh-analysis %t.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=ANALYSIS
// CHECK: match

mesh.mesh @mesh(shape = 2x2)

// Three layers of a weight split by columns over axis 1, applied to rows
// split over axis 0: the carried value keeps both splits, and each trip
// gathers its columns back for the next product (3 x 128 bytes).
// IR-LABEL: func.func @layers(
// IR: mesh.all_slice %arg0 on @mesh mesh_axes = [1] slice_axis = 1 : tensor<4x16xf32> -> tensor<4x8xf32>
// IR: "stablehlo.while"(%{{.*}}, %{{.*}}) ({
// IR-NEXT: ^bb0(%{{.*}}: tensor<i32>, %{{.*}}: tensor<4x8xf32>):
// IR: }, {
// IR-NEXT: ^bb0(%{{.*}}: tensor<i32>, %[[A:.*]]: tensor<4x8xf32>):
// IR-NEXT: mesh.all_gather %[[A]] on @mesh mesh_axes = [1] gather_axis = 1 : tensor<4x8xf32> -> tensor<4x16xf32>
// IR: "stablehlo.return"(%{{.*}}, %{{.*}}) : (tensor<i32>, tensor<4x8xf32>) -> ()
// IR-NEXT: }) : (tensor<i32>, tensor<4x8xf32>) -> (tensor<i32>, tensor<4x8xf32>)
// ANALYSIS-LABEL: @layers on @mesh
// ANALYSIS: max all_gather 3, all_slice 1 384
func.func @layers(%x: tensor<8x16xf32>, %w: tensor<16x16xf32>) -> tensor<8x16xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<8x16xf32>
  %sw = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
  %w0 = mesh.shard %w to %sw : tensor<16x16xf32>
  %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %r:2 = "stablehlo.while"(%c0, %x0) ({
  ^bb0(%i: tensor<i32>, %a: tensor<8x16xf32>):
    %n = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
    %lt = "stablehlo.compare"(%i, %n) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.return"(%lt) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>, %a: tensor<8x16xf32>):
    %d = "stablehlo.dot_general"(%a, %w0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %t = "stablehlo.tanh"(%d) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    %one = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %j = "stablehlo.add"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%j, %t) : (tensor<i32>, tensor<8x16xf32>) -> ()
  }) : (tensor<i32>, tensor<8x16xf32>) -> (tensor<i32>, tensor<8x16xf32>)
  return %r#1 : tensor<8x16xf32>
}

// The condition sums a value split over both axes: the sum's partial terms
// are reduced inside the condition, on every test; the body keeps the
// split.  The trip count is known only at run time.
// IR-LABEL: func.func @until_small(
// IR: "stablehlo.while"(%arg0) ({
// IR-NEXT: ^bb0(%{{.*}}: tensor<4x2xf32>):
// IR: "stablehlo.reduce"
// IR: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0, 1] : tensor<f32> -> tensor<f32>
// IR-NOT: mesh.all_reduce
// IR: "stablehlo.compare"
// IR: }, {
// IR-NOT: = mesh.
// IR: "stablehlo.return"(%{{.*}}) : (tensor<4x2xf32>) -> ()
// ANALYSIS-LABEL: @until_small on @mesh
// ANALYSIS: note: {{.*}}'stablehlo.while' of a trip count known only at run time: its body is counted once
func.func @until_small(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<8x4xf32>
  %r = "stablehlo.while"(%x0) ({
  ^bb0(%a: tensor<8x4xf32>):
    %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
    %m = "stablehlo.abs"(%a) : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %t = "stablehlo.reduce"(%m, %z) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %u = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%u) : (tensor<f32>) -> ()
    }) : (tensor<8x4xf32>, tensor<f32>) -> tensor<f32>
    %ten = "stablehlo.constant"() <{value = dense<10.0> : tensor<f32>}> : () -> tensor<f32>
    %gt = "stablehlo.compare"(%t, %ten) <{comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%gt) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<8x4xf32>):
    %h = "stablehlo.constant"() <{value = dense<0.5> : tensor<8x4xf32>}> : () -> tensor<8x4xf32>
    %b = "stablehlo.multiply"(%a, %h) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
    "stablehlo.return"(%b) : (tensor<8x4xf32>) -> ()
  }) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// A product of values defined outside the loop, summed over 4 trips: they
// are gathered once, in front of the loop, not on every trip.
// IR-LABEL: func.func @accumulate(
// IR: mesh.all_gather %arg0
// IR: mesh.all_gather %arg1
// IR: "stablehlo.while"
// IR-NOT: = mesh.
// IR: return
// ANALYSIS-LABEL: @accumulate on @mesh
// ANALYSIS: max all_gather 2 384
func.func @accumulate(%x: tensor<8x16xf32>, %w: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<8x16xf32>
  %sw = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %w0 = mesh.shard %w to %sw : tensor<16x4xf32>
  %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<8x4xf32>}> : () -> tensor<8x4xf32>
  %r:2 = "stablehlo.while"(%c0, %z) ({
  ^bb0(%i: tensor<i32>, %acc: tensor<8x4xf32>):
    %n = "stablehlo.constant"() <{value = dense<4> : tensor<i32>}> : () -> tensor<i32>
    %lt = "stablehlo.compare"(%i, %n) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.return"(%lt) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>, %acc: tensor<8x4xf32>):
    %d = "stablehlo.dot_general"(%x0, %w0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
    %f = "stablehlo.convert"(%i) : (tensor<i32>) -> tensor<f32>
    %fb = "stablehlo.broadcast_in_dim"(%f) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x4xf32>
    %e = "stablehlo.multiply"(%d, %fb) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
    %a2 = "stablehlo.add"(%acc, %e) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
    %one = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %j = "stablehlo.add"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%j, %a2) : (tensor<i32>, tensor<8x4xf32>) -> ()
  }) : (tensor<i32>, tensor<8x4xf32>) -> (tensor<i32>, tensor<8x4xf32>)
  return %r#1 : tensor<8x4xf32>
}

// A loop whose counter starts past its bound runs no trip: its results are
// its inits, and mesh-analysis counts only the condition.
// IR-LABEL: func.func @no_trips(
// IR-NOT: = mesh.
// IR: return
// ANALYSIS-LABEL: @no_trips on @mesh
// ANALYSIS: max - 0 73 1 1
func.func @no_trips(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<8x4xf32>
  %c0 = "stablehlo.constant"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
  %r:2 = "stablehlo.while"(%c0, %x0) ({
  ^bb0(%i: tensor<i32>, %a: tensor<8x4xf32>):
    %n = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
    %lt = "stablehlo.compare"(%i, %n) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.return"(%lt) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>, %a: tensor<8x4xf32>):
    %b = "stablehlo.transpose"(%a) <{permutation = array<i64: 0, 1>}> : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %c = "stablehlo.negate"(%b) : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %one = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %j = "stablehlo.add"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%j, %c) : (tensor<i32>, tensor<8x4xf32>) -> ()
  }) : (tensor<i32>, tensor<8x4xf32>) -> (tensor<i32>, tensor<8x4xf32>)
  return %r#1 : tensor<8x4xf32>
}

// mhlo's spelling, counting down by 2 from 7 while above 1 (3 trips), with
// a value captured from outside in another layout: it is resharded once,
// in front of the loop.
// IR-LABEL: func.func @mhlo_loop(
// IR: mesh.send
// IR: "mhlo.while"
// IR-NOT: = mesh.
// IR: return
// ANALYSIS-LABEL: @mhlo_loop on @mesh
// ANALYSIS: max recv 1, send 1 32 132 31 0
func.func @mhlo_loop(%x: tensor<8x4xf32>, %b: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<8x4xf32>
  %t = mesh.sharding @mesh split_axes = [[1], [0]] : !mesh.sharding
  %b0 = mesh.shard %b to %t : tensor<8x4xf32>
  %c0 = "mhlo.constant"() {value = dense<7> : tensor<i32>} : () -> tensor<i32>
  %r:2 = "mhlo.while"(%c0, %x0) ({
  ^bb0(%i: tensor<i32>, %a: tensor<8x4xf32>):
    %n = "mhlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %gt = "mhlo.compare"(%i, %n) {comparison_direction = #mhlo<comparison_direction GT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "mhlo.return"(%gt) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>, %a: tensor<8x4xf32>):
    %m = "mhlo.multiply"(%a, %b0) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
    %two = "mhlo.constant"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
    %j = "mhlo.subtract"(%i, %two) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "mhlo.return"(%j, %m) : (tensor<i32>, tensor<8x4xf32>) -> ()
  }) : (tensor<i32>, tensor<8x4xf32>) -> (tensor<i32>, tensor<8x4xf32>)
  return %r#1 : tensor<8x4xf32>
}
