// On booleans stablehlo's maximum is a logical or and minimum a logical and,
// while the mesh reductions max and min read i1 signed (true is -1, as
// arith.maxsi/minsi do: and, or): a split maximum of i1 must be all-reduced
// as bitwise_or, a minimum as bitwise_and.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s --seed 3 -q | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s --seed 4 -q | FileCheck %s
// CHECK: match
// IR: mesh.all_reduce {{.*}} reduction = <bitwise_or> : tensor<2xi1>
// IR: mesh.all_reduce {{.*}} reduction = <bitwise_and> : tensor<2xi1>

mesh.mesh @mesh(shape = 2)
func.func @main(%arg0: tensor<2x8xi1>) -> (tensor<2xi1>, tensor<2xi1>) {
  %s = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %x = mesh.shard %arg0 to %s : tensor<2x8xi1>
  %f = "stablehlo.constant"() <{value = dense<false> : tensor<i1>}> : () -> tensor<i1>
  %t = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
  %any = "stablehlo.reduce"(%x, %f) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<i1>, %b: tensor<i1>):
    %r = "stablehlo.maximum"(%a, %b) : (tensor<i1>, tensor<i1>) -> tensor<i1>
    "stablehlo.return"(%r) : (tensor<i1>) -> ()
  }) : (tensor<2x8xi1>, tensor<i1>) -> tensor<2xi1>
  %all = "stablehlo.reduce"(%x, %t) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<i1>, %b: tensor<i1>):
    %r = "stablehlo.minimum"(%a, %b) : (tensor<i1>, tensor<i1>) -> tensor<i1>
    "stablehlo.return"(%r) : (tensor<i1>) -> ()
  }) : (tensor<2x8xi1>, tensor<i1>) -> tensor<2xi1>
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %o1 = mesh.shard %any to %whole : tensor<2xi1>
  %o2 = mesh.shard %all to %whole : tensor<2xi1>
  "func.return"(%o1, %o2) : (tensor<2xi1>, tensor<2xi1>) -> ()
}
