// On booleans stablehlo's add is a logical or (and multiply a logical and),
// while a partial sum of i1 wraps like an exclusive or: a split "any"
// reduction must be all-reduced as bitwise_or, an "all" as bitwise_and.
// Each reduces its own input: one input read by both would be gathered once
// (as many bytes as the two all_reduces, in one collective).
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s --seed 4 -q | FileCheck %s
// RUN: mesh-opt --mesh-optimize-collectives %t.mlir | FileCheck %s --check-prefix=OPT
// CHECK: match
// IR: mesh.all_reduce {{.*}} reduction = <bitwise_or> : tensor<2xi1>
// IR: mesh.all_reduce {{.*}} reduction = <bitwise_and> : tensor<2xi1>
// OPT-NOT: reduction = <sum>

mesh.mesh @mesh(shape = 4)
func.func @main(%arg0: tensor<2x8xi1>, %arg1: tensor<2x8xi1>) -> (tensor<2xi1>, tensor<2xi1>) {
  %s = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %x = mesh.shard %arg0 to %s : tensor<2x8xi1>
  %y = mesh.shard %arg1 to %s : tensor<2x8xi1>
  %f = "stablehlo.constant"() <{value = dense<false> : tensor<i1>}> : () -> tensor<i1>
  %t = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
  %any = "stablehlo.reduce"(%x, %f) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<i1>, %b: tensor<i1>):
    %r = "stablehlo.add"(%a, %b) : (tensor<i1>, tensor<i1>) -> tensor<i1>
    "stablehlo.return"(%r) : (tensor<i1>) -> ()
  }) : (tensor<2x8xi1>, tensor<i1>) -> tensor<2xi1>
  %all = "stablehlo.reduce"(%y, %t) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<i1>, %b: tensor<i1>):
    %r = "stablehlo.multiply"(%a, %b) : (tensor<i1>, tensor<i1>) -> tensor<i1>
    "stablehlo.return"(%r) : (tensor<i1>) -> ()
  }) : (tensor<2x8xi1>, tensor<i1>) -> tensor<2xi1>
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %o1 = mesh.shard %any to %whole : tensor<2xi1>
  %o2 = mesh.shard %all to %whole : tensor<2xi1>
  "func.return"(%o1, %o2) : (tensor<2xi1>, tensor<2xi1>) -> ()
}
