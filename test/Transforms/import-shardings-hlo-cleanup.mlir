// import-shardings does to hlo ops what XLA does before it partitions:
// ops with a built-in sharding rule (each computes its results from its
// operands alone) are merged when one repeats an earlier one of its block,
// and dropped when nothing reads them. Ops it cannot vouch for (a
// custom_call, a while) stay, and ops that differ only in their
// properties (a constant's value, a reduce's dimensions) stay apart.
// RUN: mesh-opt --allow-unregistered-dialect --import-shardings %s | FileCheck %s
// RUN: mesh-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(import-shardings, sharding-propagation, mesh-partition)' %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=PART < %t.mlir
// RUN: mesh-run --allow-unregistered-dialect %t.mlir --compare-with %s -f grad -q --seed 3 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.mlir --compare-with %s -f norm -q --seed 4 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.mlir --compare-with %s -f laid_out -q --seed 5 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.mlir --compare-with %s -f bodies -q --seed 6 | FileCheck %s --check-prefix=SIM
// SIM: match

module @jit_grad attributes {mhlo.num_partitions = 4 : i32} {
  "sdy.mesh"() <{mesh = #sdy.mesh<["a"=4]>, sym_name = "mesh"}> : () -> ()

  // `jax.grad` exports the forward pass's loss beside the gradient: the
  // row-parallel product `%y` summed to a loss nobody returns. Kept, it was
  // all-reduced (1,536 bytes) for nothing.
  func.func public @grad(%x: tensor<8x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"a"}]>}, %w: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> (tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) {
    %y = "stablehlo.dot_general"(%x, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
    %sq = "stablehlo.multiply"(%y, %y) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %loss = "stablehlo.reduce"(%sq, %zero) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) : (tensor<8x32xf32>, tensor<f32>) -> tensor<f32>
    %start = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %kept = "stablehlo.while"(%start) ({
    ^bb0(%i: tensor<i32>):
      %limit = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
      %more = "stablehlo.compare"(%i, %limit) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%more) : (tensor<i1>) -> ()
    }, {
    ^bb0(%i: tensor<i32>):
      %one = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %next = "stablehlo.add"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%next) : (tensor<i32>) -> ()
    }) : (tensor<i32>) -> tensor<i32>
    %ones = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
    %g = "stablehlo.dot_general"(%x, %ones) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>}> : (tensor<8x64xf32>, tensor<8x32xf32>) -> tensor<64x32xf32>
    return %g : tensor<64x32xf32>
  }

  // `jnp.var` computes the mean `jnp.mean` already did (a batch norm's
  // statistics over a batch split over "a"): merged, the batch is reduced
  // twice (the sums and the squares' sums), not three times. The two
  // column sums below differ only in their dimensions, the two constants
  // in their values: they stay.
  func.func public @norm(%x: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> (tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}, tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) {
    %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %n = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %other = "stablehlo.constant"() <{value = dense<4.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %sum = "stablehlo.reduce"(%x, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) : (tensor<16x4xf32>, tensor<f32>) -> tensor<4xf32>
    %nb = "stablehlo.broadcast_in_dim"(%n) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %mean = "stablehlo.divide"(%sum, %nb) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %zero2 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %sum2 = "stablehlo.reduce"(%x, %zero2) <{dimensions = array<i64: 0>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) : (tensor<16x4xf32>, tensor<f32>) -> tensor<4xf32>
    %nb2 = "stablehlo.broadcast_in_dim"(%n) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %mean2 = "stablehlo.divide"(%sum2, %nb2) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %mb = "stablehlo.broadcast_in_dim"(%mean2) <{broadcast_dimensions = array<i64: 1>}> : (tensor<4xf32>) -> tensor<16x4xf32>
    %d = "stablehlo.subtract"(%x, %mb) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    %d2 = "stablehlo.multiply"(%d, %d) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    %ss = "stablehlo.reduce"(%d2, %zero) <{dimensions = array<i64: 0>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) : (tensor<16x4xf32>, tensor<f32>) -> tensor<4xf32>
    %var = "stablehlo.divide"(%ss, %nb) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %mb1 = "stablehlo.broadcast_in_dim"(%mean) <{broadcast_dimensions = array<i64: 1>}> : (tensor<4xf32>) -> tensor<16x4xf32>
    %vb = "stablehlo.broadcast_in_dim"(%var) <{broadcast_dimensions = array<i64: 1>}> : (tensor<4xf32>) -> tensor<16x4xf32>
    %c = "stablehlo.subtract"(%x, %mb1) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    %out = "stablehlo.divide"(%c, %vb) : (tensor<16x4xf32>, tensor<16x4xf32>) -> tensor<16x4xf32>
    %rows = "stablehlo.reduce"(%x, %zero) <{dimensions = array<i64: 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) : (tensor<16x4xf32>, tensor<f32>) -> tensor<16xf32>
    %ob = "stablehlo.broadcast_in_dim"(%other) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %rows_scaled = "stablehlo.divide"(%rows, %ob) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
    return %out, %rows_scaled : tensor<16x4xf32>, tensor<16xf32>
  }

  // Two alike ops that each give their result a layout of its own (an op's
  // sdy.sharding) stay apart: one value cannot hold both layouts.
  func.func public @laid_out(%x: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
    %a = "stablehlo.negate"(%x) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %b = "stablehlo.negate"(%x) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"a"}]>]>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    return %a, %b : tensor<8x8xf32>, tensor<8x8xf32>
  }

  // Bodies that read different results of one multi-result op (`%p#0`
  // against `%p#1`) are different bodies: an ascending and a descending
  // sort, a sum of squares of either operand, all stay apart.
  func.func public @bodies(%x: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) {
    %up = "stablehlo.sort"(%x) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %p:2 = "stablehlo.optimization_barrier"(%a, %b) : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
      %c = "stablehlo.compare"(%p#0, %p#1) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "stablehlo.return"(%c) : (tensor<i1>) -> ()
    }) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %down = "stablehlo.sort"(%x) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %p:2 = "stablehlo.optimization_barrier"(%a, %b) : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
      %c = "stablehlo.compare"(%p#1, %p#0) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "stablehlo.return"(%c) : (tensor<i1>) -> ()
    }) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %first = "stablehlo.reduce"(%x, %zero) <{dimensions = array<i64: 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %p:2 = "stablehlo.optimization_barrier"(%a, %b) : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
      %m = "stablehlo.multiply"(%p#1, %p#1) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      %s = "stablehlo.add"(%a, %m) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %second = "stablehlo.reduce"(%x, %zero) <{dimensions = array<i64: 1>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %p:2 = "stablehlo.optimization_barrier"(%a, %b) : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
      %m = "stablehlo.multiply"(%p#0, %p#0) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      %s = "stablehlo.add"(%a, %m) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
    return %up, %down, %first, %second : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>
  }
}

// CHECK-LABEL: func.func public @grad(
// CHECK-NOT: stablehlo.multiply
// CHECK-NOT: stablehlo.reduce
// CHECK: %[[START:.*]] = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}>
// CHECK-NEXT: "stablehlo.while"(%[[START]])
// CHECK: "stablehlo.compare"
// CHECK: "stablehlo.add"
// CHECK: }) : (tensor<i32>) -> tensor<i32>
// CHECK-NEXT: %[[ONES:.*]] = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<8x32xf32>}>
// CHECK-NEXT: %[[G:.*]] = "stablehlo.dot_general"(%{{.*}}, %[[ONES]])
// CHECK-NEXT: %[[OUT:.*]] = mesh.shard %[[G]] to %{{.*}} annotate_for_users
// CHECK-NEXT: return %[[OUT]]

// CHECK-LABEL: func.func public @norm(
// CHECK: %[[X:.*]] = mesh.shard %arg0
// CHECK-NEXT: %[[ZERO:.*]] = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}>
// CHECK-NEXT: %[[N:.*]] = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}>
// CHECK-NEXT: %[[OTHER:.*]] = "stablehlo.constant"() <{value = dense<4.000000e+00> : tensor<f32>}>
// CHECK-NEXT: %[[SUM:.*]] = "stablehlo.reduce"(%[[X]], %[[ZERO]]) <{dimensions = array<i64: 0>}>
// CHECK: %[[NB:.*]] = "stablehlo.broadcast_in_dim"(%[[N]])
// CHECK-NEXT: %[[MEAN:.*]] = "stablehlo.divide"(%[[SUM]], %[[NB]])
// CHECK-NEXT: %[[MB:.*]] = "stablehlo.broadcast_in_dim"(%[[MEAN]])
// CHECK-NEXT: %[[D:.*]] = "stablehlo.subtract"(%[[X]], %[[MB]])
// CHECK-NEXT: %[[D2:.*]] = "stablehlo.multiply"(%[[D]], %[[D]])
// CHECK-NEXT: %[[SS:.*]] = "stablehlo.reduce"(%[[D2]], %[[ZERO]]) <{dimensions = array<i64: 0>}>
// CHECK: %[[VAR:.*]] = "stablehlo.divide"(%[[SS]], %[[NB]])
// CHECK-NEXT: %[[VB:.*]] = "stablehlo.broadcast_in_dim"(%[[VAR]])
// CHECK-NEXT: %[[OUT:.*]] = "stablehlo.divide"(%[[D]], %[[VB]])
// CHECK-NEXT: %[[ROWS:.*]] = "stablehlo.reduce"(%[[X]], %[[ZERO]]) <{dimensions = array<i64: 1>}>
// CHECK: %[[OB:.*]] = "stablehlo.broadcast_in_dim"(%[[OTHER]])
// CHECK-NEXT: "stablehlo.divide"(%[[ROWS]], %[[OB]])

// CHECK-LABEL: func.func public @laid_out(
// CHECK-COUNT-2: "stablehlo.negate"

// CHECK-LABEL: func.func public @bodies(
// CHECK: "stablehlo.compare"(%{{.*}}#0, %{{.*}}#1)
// CHECK: "stablehlo.compare"(%{{.*}}#1, %{{.*}}#0)
// CHECK: "stablehlo.multiply"(%{{.*}}#1, %{{.*}}#1)
// CHECK: "stablehlo.multiply"(%{{.*}}#0, %{{.*}}#0)

// PART-LABEL: func.func public @grad(
// PART-NOT: mesh.all_reduce
// PART: return
// PART-LABEL: func.func public @norm(
// PART-COUNT-2: mesh.all_reduce
// PART-NOT: mesh.all_reduce
// PART: return
