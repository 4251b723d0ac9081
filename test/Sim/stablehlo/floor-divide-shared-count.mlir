// jnp.where(cnt != 0, tot // cnt, 0) over a mask split on both axes, as
// JAX lowers integer floor division (divide, sign, remainder, compare,
// select): the count is read by four ops. Reduced where it is summed, it
// costs one all_reduce, shared by the four; the solver's starting passes
// priced it once per reader, four all_reduces, which tied with gathering
// the i1 mask the count is summed from, and no move of one op at a time
// leaves that plan (reducing in place needs the convert and the reduce to
// change together). A third start shares a value's reshard among its
// readers: the count and the total are summed locally and all_reduced,
// as XLA does, and the mask is never gathered.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f masked_floor_mean --seed 0 -q | FileCheck %s --check-prefix=SAME
// RUN: mesh-run %t.mlir --compare-with %s -f masked_floor_mean --seed 1 -q | FileCheck %s --check-prefix=SAME
// RUN: mesh-run %t.mlir --compare-with %s -f masked_floor_mean --seed 2 -q | FileCheck %s --check-prefix=SAME
// SAME: match

// CHECK-LABEL: func.func @masked_floor_mean(
// CHECK-NOT: mesh.all_gather
// CHECK: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [1] : tensor<4xi32> -> tensor<4xi32>
// CHECK-NOT: mesh.all_gather
// CHECK: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [1] : tensor<4xi32> -> tensor<4xi32>
// CHECK-NOT: mesh.{{all_gather|all_to_all|all_reduce|reduce_scatter}}
// CHECK: return

mesh.mesh @mesh(shape = 2x4)

func.func @masked_floor_mean(%x: tensor<8x32xf32>, %m: tensor<8x32xf32>) -> tensor<8xi32> {
  %split = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %split : tensor<8x32xf32>
  %ms = mesh.shard %m to %split : tensor<8x32xf32>
  %fzero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
  %on = "stablehlo.compare"(%ms, %fzero) <{comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xi1>
  %mi = "stablehlo.convert"(%on) : (tensor<8x32xi1>) -> tensor<8x32xi32>
  %zero = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %cnt = "stablehlo.reduce"(%mi, %zero) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %r = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%r) : (tensor<i32>) -> ()
  }) : (tensor<8x32xi32>, tensor<i32>) -> tensor<8xi32>
  %zeros = "stablehlo.constant"() <{value = dense<0> : tensor<8x32xi32>}> : () -> tensor<8x32xi32>
  %keep = "stablehlo.compare"(%mi, %zeros) <{comparison_direction = #stablehlo<comparison_direction GT>, compare_type = #stablehlo<comparison_type SIGNED>}> : (tensor<8x32xi32>, tensor<8x32xi32>) -> tensor<8x32xi1>
  %hundred = "stablehlo.constant"() <{value = dense<1.000000e+02> : tensor<8x32xf32>}> : () -> tensor<8x32xf32>
  %scaled = "stablehlo.multiply"(%xs, %hundred) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
  %xi = "stablehlo.convert"(%scaled) : (tensor<8x32xf32>) -> tensor<8x32xi32>
  %kept = "stablehlo.select"(%keep, %xi, %zeros) : (tensor<8x32xi1>, tensor<8x32xi32>, tensor<8x32xi32>) -> tensor<8x32xi32>
  %tot = "stablehlo.reduce"(%kept, %zero) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %r = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%r) : (tensor<i32>) -> ()
  }) : (tensor<8x32xi32>, tensor<i32>) -> tensor<8xi32>
  // jnp.where(cnt != 0, tot // cnt, 0), floor division as JAX lowers it
  %z8 = "stablehlo.constant"() <{value = dense<0> : tensor<8xi32>}> : () -> tensor<8xi32>
  %one8 = "stablehlo.constant"() <{value = dense<1> : tensor<8xi32>}> : () -> tensor<8xi32>
  %some = "stablehlo.compare"(%cnt, %z8) <{comparison_direction = #stablehlo<comparison_direction NE>, compare_type = #stablehlo<comparison_type SIGNED>}> : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
  %q = "stablehlo.divide"(%tot, %cnt) : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
  %st = "stablehlo.sign"(%tot) : (tensor<8xi32>) -> tensor<8xi32>
  %sc = "stablehlo.sign"(%cnt) : (tensor<8xi32>) -> tensor<8xi32>
  %differ = "stablehlo.compare"(%st, %sc) <{comparison_direction = #stablehlo<comparison_direction NE>, compare_type = #stablehlo<comparison_type SIGNED>}> : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
  %rem = "stablehlo.remainder"(%tot, %cnt) : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
  %inexact = "stablehlo.compare"(%rem, %z8) <{comparison_direction = #stablehlo<comparison_direction NE>, compare_type = #stablehlo<comparison_type SIGNED>}> : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
  %down = "stablehlo.and"(%differ, %inexact) : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
  %q1 = "stablehlo.subtract"(%q, %one8) : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
  %floor = "stablehlo.select"(%down, %q1, %q) : (tensor<8xi1>, tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
  %res = "stablehlo.select"(%some, %floor, %z8) : (tensor<8xi1>, tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
  %out = mesh.shard %res to %rows : tensor<8xi32>
  return %out : tensor<8xi32>
}
