// Unreduced i1: Shardy's pending all-reduce is StableHLO's `add` (`maximum`,
// `minimum` for unreduced=max, min), which on booleans is a logical or (or,
// and). This dialect's sum of i1 wraps (an exclusive or) and its max and
// min of i1 are signed (and, or), so i1 gets bitwise_or and bitwise_and.
// RUN: mesh-opt --split-input-file --allow-unregistered-dialect --import-shardings %s | FileCheck %s
// RUN: mesh-opt --split-input-file --allow-unregistered-dialect --pass-pipeline="builtin.module(import-shardings, sharding-propagation{skip-unknown=true}, mesh-partition)" %s 2>/dev/null | FileCheck %s --check-prefix=SPMD

"sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=2]>, sym_name = "m"}> : () -> ()
func.func @sum(%a: tensor<8xi1> {sdy.sharding = #sdy.sharding<@m, [{"x"}], unreduced={"y"}>}) -> (tensor<8xi1> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) {
  return %a : tensor<8xi1>
}
func.func @max(%a: tensor<8xi1> {sdy.sharding = #sdy.sharding<@m, [{}], unreduced=max{"y"}>}) -> tensor<8xi1> {
  return %a : tensor<8xi1>
}
func.func @min(%a: tensor<8xi1> {sdy.sharding = #sdy.sharding<@m, [{}], unreduced=min{"y"}>}) -> tensor<8xi1> {
  return %a : tensor<8xi1>
}
// Other element types keep Shardy's kind.
func.func @i8(%a: tensor<8xi8> {sdy.sharding = #sdy.sharding<@m, [{}], unreduced=max{"y"}>}, %b: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{}], unreduced={"x"}>}) -> tensor<8xi8> {
  return %a : tensor<8xi8>
}
// A scalar, and a result sharding.
func.func @scalar(%a: tensor<i1>) -> (tensor<i1> {sdy.sharding = #sdy.sharding<@m, [], unreduced={"x", "y"}>}) {
  return %a : tensor<i1>
}
// CHECK-LABEL: func.func @sum
// CHECK:         mesh.sharding @m split_axes = {{\[\[}}0]] partial = bitwise_or [1]
// CHECK-LABEL: func.func @max
// CHECK:         mesh.sharding @m split_axes = {{\[\[}}]] partial = bitwise_or [1]
// CHECK-LABEL: func.func @min
// CHECK:         mesh.sharding @m split_axes = {{\[\[}}]] partial = bitwise_and [1]
// CHECK-LABEL: func.func @i8
// CHECK:         mesh.sharding @m split_axes = {{\[\[}}]] partial = max [1]
// CHECK:         mesh.sharding @m split_axes = {{\[\[}}]] partial = sum [0]
// CHECK-LABEL: func.func @scalar
// CHECK:         mesh.sharding @m split_axes = {{\[\[}}]] partial = bitwise_or [0, 1]
// The pending reduction is an or over the unreduced axis.
// SPMD-LABEL: func.func @sum
// SPMD:         mesh.all_reduce %arg0 on @m mesh_axes = [1] reduction = <bitwise_or> : tensor<4xi1> -> tensor<4xi1>

// -----

// GSPMD's unreduced subgroups are the same pending sum.
func.func @gspmd(%a: tensor<8xi1> {mhlo.sharding = "{devices=[2,2]<=[4] last_tile_dims={unreduced}}"}, %b: tensor<8xf32> {mhlo.sharding = "{devices=[2,2]<=[4] last_tile_dims={unreduced}}"}) -> tensor<8xi1> {
  return %a : tensor<8xi1>
}
// CHECK-LABEL: func.func @gspmd
// CHECK:         mesh.sharding @mesh split_axes = {{\[\[}}0]] partial = bitwise_or [1]
// CHECK:         mesh.sharding @mesh split_axes = {{\[\[}}0]] partial = sum [1]
