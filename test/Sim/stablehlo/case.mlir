// JAX's lax.cond and lax.switch (stablehlo.case; stablehlo.if and mhlo.if
// as older exporters write them): each result is one value carried out of
// every branch, with one layout; values the branches read from outside
// keep theirs; the operand choosing the branch is made whole first, so
// every device takes the same branch (here a sum over split rows and
// columns: two all_reduces, as XLA does). Simulated against the original on
// several seeds, so both branches run; a case index out of range takes the
// last branch.
// RUN: mesh-opt --allow-unregistered-dialect --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-opt --allow-unregistered-dialect --pass-pipeline="builtin.module(sharding-propagation{solver=sweep}, mesh-partition)" %s -o %t.sweep.mlir
// RUN: mesh-run --allow-unregistered-dialect %t.mlir --compare-with %s -f cond --seed 0 -q | FileCheck %s --check-prefix=SAME
// RUN: mesh-run --allow-unregistered-dialect %t.mlir --compare-with %s -f cond --seed 1 -q | FileCheck %s --check-prefix=SAME
// RUN: mesh-run --allow-unregistered-dialect %t.mlir --compare-with %s -f cond --seed 2 -q | FileCheck %s --check-prefix=SAME
// RUN: mesh-run --allow-unregistered-dialect %t.sweep.mlir --compare-with %s -f cond --seed 1 -q | FileCheck %s --check-prefix=SAME
// RUN: mesh-run --allow-unregistered-dialect %t.mlir --compare-with %s -f flag --seed 0 -q | FileCheck %s --check-prefix=SAME
// RUN: mesh-run --allow-unregistered-dialect %t.mlir --compare-with %s -f flag --seed 1 -q | FileCheck %s --check-prefix=SAME
// RUN: mesh-run --allow-unregistered-dialect %t.mlir --compare-with %s -f flag --seed 2 -q | FileCheck %s --check-prefix=SAME
// RUN: mesh-run --allow-unregistered-dialect %t.sweep.mlir --compare-with %s -f flag --seed 1 -q | FileCheck %s --check-prefix=SAME
// RUN: mesh-run --allow-unregistered-dialect %t.mlir --compare-with %s -f switch --seed 0 -q | FileCheck %s --check-prefix=SAME
// RUN: mesh-run --allow-unregistered-dialect %t.mlir --compare-with %s -f switch --seed 1 -q | FileCheck %s --check-prefix=SAME
// RUN: mesh-run --allow-unregistered-dialect %t.mlir --compare-with %s -f switch --seed 2 -q | FileCheck %s --check-prefix=SAME
// RUN: mesh-run --allow-unregistered-dialect %t.sweep.mlir --compare-with %s -f switch --seed 1 -q | FileCheck %s --check-prefix=SAME
// RUN: mesh-run --allow-unregistered-dialect %t.mlir --compare-with %s -f older --seed 0 -q | FileCheck %s --check-prefix=SAME
// RUN: mesh-run --allow-unregistered-dialect %t.mlir --compare-with %s -f older --seed 1 -q | FileCheck %s --check-prefix=SAME
// RUN: mesh-run --allow-unregistered-dialect %t.mlir --compare-with %s -f older --seed 2 -q | FileCheck %s --check-prefix=SAME
// RUN: mesh-run --allow-unregistered-dialect %t.sweep.mlir --compare-with %s -f older --seed 1 -q | FileCheck %s --check-prefix=SAME
// RUN: mesh-opt --allow-unregistered-dialect --mesh-analysis %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=COST
// SAME: match

// IR-LABEL: func.func @cond(%arg0: tensor<4x16xf32> {{.*}}, %arg1: tensor<16x8xf32> {{.*}}) -> (tensor<4x8xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0], [1]]>})
// IR: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0, 1] : tensor<f32> -> tensor<f32>
// IR-NOT: mesh.all_reduce
// IR: "stablehlo.case"(%{{.*}}) ({
// IR: "stablehlo.subtract"(%{{.*}}, %{{.*}}) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// IR: "stablehlo.multiply"(%{{.*}}, %{{.*}}) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// IR: }) : (tensor<i32>) -> tensor<4x8xf32>
// The flag is an "or" over split rows: partial until reduced, then whole.
// IR-LABEL: func.func @flag
// IR: %[[ANY:.*]] = "stablehlo.reduce"
// IR: %[[WHOLE:.*]] = mesh.all_reduce %[[ANY]] on @mesh mesh_axes = [0] reduction = <bitwise_or> : tensor<i1> -> tensor<i1>
// IR: "stablehlo.if"(%[[WHOLE]])
// IR-LABEL: func.func @switch
// IR: "stablehlo.case"
// IR-LABEL: func.func @older
// IR: "mhlo.if"

// COST: @cond on @mesh (shape 2x4, 8 devices)
// COST: max all_reduce 1 8
// COST: note: {{.*}}case.mlir:{{[0-9]+}}:10: 'stablehlo.case' on a value known only at run time: the costlier branch is counted

module {
  mesh.mesh @mesh(shape = 2x4)

  // jax.lax.cond(jnp.sum(x @ w) > 0, lambda h: h * 2.0, lambda h: h - 1.0, x @ w)
  func.func @cond(%x: tensor<8x16xf32>, %w: tensor<16x32xf32>) -> tensor<8x32xf32> {
    %s0 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %s1 = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
    %xs = mesh.shard %x to %s0 : tensor<8x16xf32>
    %ws = mesh.shard %w to %s1 : tensor<16x32xf32>
    %0 = "stablehlo.dot_general"(%xs, %ws) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.reduce"(%0, %zero) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %r = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%r) : (tensor<f32>) -> ()
    }) : (tensor<8x32xf32>, tensor<f32>) -> tensor<f32>
    %2 = "stablehlo.compare"(%1, %zero) <{comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %3 = "stablehlo.convert"(%2) : (tensor<i1>) -> tensor<i32>
    %4 = "stablehlo.case"(%3) ({
      %c1 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %5 = "stablehlo.broadcast_in_dim"(%c1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
      %6 = "stablehlo.subtract"(%0, %5) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
      "stablehlo.return"(%6) : (tensor<8x32xf32>) -> ()
    }, {
      %c2 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %5 = "stablehlo.broadcast_in_dim"(%c2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
      %6 = "stablehlo.multiply"(%0, %5) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
      "stablehlo.return"(%6) : (tensor<8x32xf32>) -> ()
    }) : (tensor<i32>) -> tensor<8x32xf32>
    return %4 : tensor<8x32xf32>
  }

  // stablehlo.if on whether any element of x is positive (x split by rows)
  func.func @flag(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
    %s0 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %xs = mesh.shard %x to %s0 : tensor<8x4xf32>
    %zeros = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<8x4xf32>}> : () -> tensor<8x4xf32>
    %big = "stablehlo.compare"(%xs, %zeros) <{comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xi1>
    %no = "stablehlo.constant"() <{value = dense<false> : tensor<i1>}> : () -> tensor<i1>
    %any = "stablehlo.reduce"(%big, %no) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%a: tensor<i1>, %b: tensor<i1>):
      %r = "stablehlo.or"(%a, %b) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%r) : (tensor<i1>) -> ()
    }) : (tensor<8x4xi1>, tensor<i1>) -> tensor<i1>
    %out = "stablehlo.if"(%any) ({
      %n = "stablehlo.negate"(%xs) : (tensor<8x4xf32>) -> tensor<8x4xf32>
      "stablehlo.return"(%n) : (tensor<8x4xf32>) -> ()
    }, {
      "stablehlo.return"(%xs) : (tensor<8x4xf32>) -> ()
    }) : (tensor<i1>) -> tensor<8x4xf32>
    return %out : tensor<8x4xf32>
  }

  // three branches returning values of other layouts, and an index that is
  // 0 or 5 (out of range: the last branch)
  func.func @switch(%x: tensor<8x8xf32>, %y: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
    %cols = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
    %xs = mesh.shard %x to %rows : tensor<8x8xf32>
    %ys = mesh.shard %y to %cols : tensor<8x8xf32>
    %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %corner = "stablehlo.slice"(%x) <{start_indices = array<i64: 0, 0>, limit_indices = array<i64: 1, 1>, strides = array<i64: 1, 1>}> : (tensor<8x8xf32>) -> tensor<1x1xf32>
    %c = "stablehlo.reshape"(%corner) : (tensor<1x1xf32>) -> tensor<f32>
    %pos = "stablehlo.compare"(%c, %zero) <{comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %one = "stablehlo.convert"(%pos) : (tensor<i1>) -> tensor<i32>
    %five = "stablehlo.constant"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
    %k = "stablehlo.multiply"(%one, %five) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %out = "stablehlo.case"(%k) ({
      "stablehlo.return"(%xs) : (tensor<8x8xf32>) -> ()
    }, {
      %d = "stablehlo.dot_general"(%xs, %ys) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
      "stablehlo.return"(%d) : (tensor<8x8xf32>) -> ()
    }, {
      %s = "stablehlo.add"(%xs, %ys) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
      "stablehlo.return"(%s) : (tensor<8x8xf32>) -> ()
    }) : (tensor<i32>) -> tensor<8x8xf32>
    return %out : tensor<8x8xf32>
  }

  // mhlo.if, on a predicate computed from values split over both axes
  func.func @older(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %s = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
    %xs = mesh.shard %x to %s : tensor<8x8xf32>
    %zero = "mhlo.constant"() {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
    %m = "mhlo.reduce"(%xs, %zero) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %r = "mhlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "mhlo.return"(%r) : (tensor<f32>) -> ()
    }) {dimensions = dense<[0, 1]> : tensor<2xi64>} : (tensor<8x8xf32>, tensor<f32>) -> tensor<f32>
    %p = "mhlo.compare"(%m, %zero) {comparison_direction = #mhlo<comparison_direction LT>} : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %out = "mhlo.if"(%p) ({
      %e = "mhlo.exponential"(%xs) : (tensor<8x8xf32>) -> tensor<8x8xf32>
      "mhlo.return"(%e) : (tensor<8x8xf32>) -> ()
    }, {
      %t = "mhlo.tanh"(%xs) : (tensor<8x8xf32>) -> tensor<8x8xf32>
      "mhlo.return"(%t) : (tensor<8x8xf32>) -> ()
    }) : (tensor<i1>) -> tensor<8x8xf32>
    return %out : tensor<8x8xf32>
  }
}
