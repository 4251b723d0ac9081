// A stablehlo.reduce whose init is not the neutral value, split along the
// dimension it sums: every device would fold the init in, so partition
// keeps it on the first device of the group and gives the others zero (a
// max keeps its init everywhere: folding it twice changes nothing).
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s --seed 4 -q | FileCheck %s
// CHECK: result 0: max error
// CHECK-NEXT: result 1: max error
// CHECK-NEXT: match

// IR-LABEL: func.func @main(%arg0: tensor<4x4xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}], [0]]>})
// IR: %[[INIT:.*]] = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}>
// IR: %[[FIRST:.*]] = scf.if
// IR-NEXT: scf.yield %[[INIT]] : tensor<f32>
// IR: linalg.fill
// IR: "stablehlo.reduce"(%arg0, %[[FIRST]])
// IR: %[[LOW:.*]] = "stablehlo.constant"() <{value = dense<-1.000000e+01> : tensor<f32>}>
// IR-NOT: scf.if
// IR: "stablehlo.reduce"(%arg0, %[[LOW]])
// IR-DAG: mesh.all_reduce {{.*}} mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
// IR-DAG: mesh.all_reduce {{.*}} mesh_axes = [0] reduction = <max> : tensor<4xf32> -> tensor<4xf32>

mesh.mesh @mesh(shape = 4)
func.func @main(%arg0: tensor<4x16xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %s = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %x = mesh.shard %arg0 to %s : tensor<4x16xf32>
  %one = "stablehlo.constant"() <{value = dense<1.0> : tensor<f32>}> : () -> tensor<f32>
  %sum = "stablehlo.reduce"(%x, %one) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%r) : (tensor<f32>) -> ()
  }) : (tensor<4x16xf32>, tensor<f32>) -> tensor<4xf32>
  %low = "stablehlo.constant"() <{value = dense<-10.0> : tensor<f32>}> : () -> tensor<f32>
  %max = "stablehlo.reduce"(%x, %low) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%r) : (tensor<f32>) -> ()
  }) : (tensor<4x16xf32>, tensor<f32>) -> tensor<4xf32>
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %sum1 = mesh.shard %sum to %whole : tensor<4xf32>
  %max1 = mesh.shard %max to %whole : tensor<4xf32>
  "func.return"(%sum1, %max1) : (tensor<4xf32>, tensor<4xf32>) -> ()
}
