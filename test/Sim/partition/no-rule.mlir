// Ops without a sharding rule run on whole values: partition gathers their
// sharded operands (with a remark) and slices their results where an
// annotation asks.  scf.while carries its inits into the condition in one
// layout (whole here: nothing annotates them) and what the condition hands
// the body in another (split, as the body's block argument is annotated).
// scf.execute_region carries its result like scf.if.  A value annotated
// twice with different layouts (as cse makes of two annotated constants) is
// resharded from the first layout to the second.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f reverse -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f loop -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f region -q --seed 3 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f twice -q --seed 4 | FileCheck %s
// CHECK: match

// REMARK: :[[#@LINE+34]]:8: remark: no sharding rule for 'tosa.reverse': operand 0 (split_axes = {{\[\[}}0]]) gathered whole on every device
// REMARK-NOT: no sharding rule for 'scf.

// IR-LABEL: func.func @reverse(
// IR: %[[A:.*]] = mesh.all_gather %arg0 on @mesh mesh_axes = [0] gather_axis = 0
// IR-NEXT: %[[C:.*]] = tosa.reverse %[[A]] {axis = 0 : i32} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// The add reads the reversed rows whole: the annotation sliced them out of
// that whole value, so the way back is the value itself (no gather), and the
// slice nobody reads any more is gone.
// IR-NEXT: arith.addf %[[C]], %[[C]] : tensor<4x8xf32>
// IR-LABEL: func.func @loop(
// IR: mesh.all_gather %arg0 on @mesh mesh_axes = [0] gather_axis = 0 : tensor<2x8xf32> -> tensor<4x8xf32>
// IR: scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (tensor<4x8xf32>, index) -> (tensor<2x8xf32>, index)
// IR: %[[X:.*]] = mesh.all_slice %{{.*}} on @mesh mesh_axes = [0] slice_axis = 0 : tensor<4x8xf32> -> tensor<2x8xf32>
// IR-NEXT: scf.condition(%{{.*}}) %[[X]], %{{.*}} : tensor<2x8xf32>, index
// IR: ^bb0(%[[Y:.*]]: tensor<2x8xf32>, %{{.*}}: index):
// IR-NEXT: arith.addf %[[Y]], %[[Y]] : tensor<2x8xf32>
// IR: mesh.all_gather {{.*}} -> tensor<4x8xf32>
// IR-NEXT: scf.yield
// IR-LABEL: func.func @region(
// IR-SAME: -> (tensor<4x8xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}]]>})
// IR-NEXT: scf.execute_region -> tensor<4x8xf32>
// IR-NEXT: arith.mulf %arg0, %arg0 : tensor<2x8xf32>
// IR-NEXT: mesh.all_gather
// The second layout of a splat constant is a splat of its own local shape:
// IR-LABEL: func.func @twice(
// IR-NEXT: arith.constant dense<2.000000e+00> : tensor<2x8xf32>
// IR-NEXT: arith.constant dense<2.000000e+00> : tensor<4x4xf32>
// IR-NOT: mesh.all_to_all

mesh.mesh @mesh(shape = 2)
func.func @reverse(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a0 = mesh.shard %a to %s : tensor<4x8xf32>
  %c = tosa.reverse %a0 {axis = 0 : i32} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %c0 = mesh.shard %c to %s : tensor<4x8xf32>
  %d = arith.addf %c0, %c0 : tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}
func.func @loop(%a: tensor<4x8xf32>, %n: index) -> tensor<4x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a0 = mesh.shard %a to %s : tensor<4x8xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.while (%x = %a0, %i = %c0) : (tensor<4x8xf32>, index) -> (tensor<4x8xf32>, index) {
    %go = arith.cmpi slt, %i, %n : index
    scf.condition(%go) %x, %i : tensor<4x8xf32>, index
  } do {
  ^bb0(%y: tensor<4x8xf32>, %j: index):
    %y0 = mesh.shard %y to %s : tensor<4x8xf32>
    %z = arith.addf %y0, %y0 : tensor<4x8xf32>
    %z0 = mesh.shard %z to %s : tensor<4x8xf32>
    %j1 = arith.addi %j, %c1 : index
    scf.yield %z0, %j1 : tensor<4x8xf32>, index
  }
  %out = mesh.shard %r#0 to %s : tensor<4x8xf32>
  return %out : tensor<4x8xf32>
}
func.func @region(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a0 = mesh.shard %a to %s : tensor<4x8xf32>
  %r = scf.execute_region -> tensor<4x8xf32> {
    %z = arith.mulf %a0, %a0 : tensor<4x8xf32>
    %z0 = mesh.shard %z to %s : tensor<4x8xf32>
    scf.yield %z0 : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}
func.func @twice(%a: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %t = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %c = arith.constant dense<2.0> : tensor<4x8xf32>
  %c0 = mesh.shard %c to %s : tensor<4x8xf32>
  %c1 = mesh.shard %c to %t : tensor<4x8xf32>
  %x = arith.mulf %c0, %a : tensor<4x8xf32>
  %y = arith.addf %c1, %a : tensor<4x8xf32>
  %x0 = mesh.shard %x to %s : tensor<4x8xf32>
  %y0 = mesh.shard %y to %t : tensor<4x8xf32>
  return %x0, %y0 : tensor<4x8xf32>, tensor<4x8xf32>
}
