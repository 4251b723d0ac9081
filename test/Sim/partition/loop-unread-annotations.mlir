// A value carried through two nested loops; the inner body's result is
// annotated as columns and yielded, the inner loop's result is annotated as
// a partial min nothing reads (@result: a result annotation, @for_users: an
// annotation for users), and a matmul whose result leaves as rows reads the
// outer result.  Partition erases an annotation nothing reads, and the loop
// head reads the body's value as the body produces it (the columns
// annotation reshards for its own readers: none).  The solver priced both
// (the partial min at 48 bytes a device, the columns handed back to the
// head), and once its first start priced values handed back to a loop head
// it had fixed, it kept the loops whole: an all_gather of 48 bytes, where
// the plan before moved 12 (one all_to_all).  Priced as partition runs
// them, the rows the matmul wants are carried through both loops and
// nothing moves.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir -f result --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f for_users --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=SIM
// RUN: mesh-opt --mesh-analysis %t.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BYTES
// SIM: match
// BYTES: @result on @mesh
// BYTES: max     -                       0
// BYTES: @for_users on @mesh
// BYTES: max     -                       0
// CHECK-LABEL: func.func @result(%arg0: tensor<1x4xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>}, %arg1: tensor<4x4xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}]]>}) -> (tensor<1x4xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>}) {
// CHECK-NOT: mesh.
// CHECK: %[[R:.*]] = scf.for %{{.*}} = %c0 to %c1 step %c1 iter_args(%[[A:.*]] = %arg0) -> (tensor<1x4xf32>) {
// CHECK-NEXT: %[[R2:.*]] = scf.for %{{.*}} = %c0 to %c1 step %c1 iter_args(%[[B:.*]] = %[[A]]) -> (tensor<1x4xf32>) {
// CHECK-NEXT: %[[Y:.*]] = arith.addf %[[B]], %[[B]] : tensor<1x4xf32>
// CHECK-NEXT: scf.yield %[[Y]] : tensor<1x4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield %[[R2]] : tensor<1x4xf32>
// CHECK-NEXT: }
// CHECK-NOT: mesh.
// CHECK: %[[M:.*]] = linalg.matmul ins(%[[R]], %arg1 : tensor<1x4xf32>, tensor<4x4xf32>) outs(%{{.*}} : tensor<1x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT: return %[[M]] : tensor<1x4xf32>
// CHECK-LABEL: func.func @for_users(%arg0: tensor<1x4xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>}, %arg1: tensor<4x4xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}]]>}) -> (tensor<1x4xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>}) {
// CHECK-NOT: mesh.
// CHECK: return

mesh.mesh @mesh(shape = 4)

func.func @result(%arg0: tensor<4x4xf32>, %arg1: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cols = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %min = mesh.sharding @mesh split_axes = [] partial = min [0] : !mesh.sharding
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%acc = %arg0) -> (tensor<4x4xf32>) {
    %r2 = scf.for %j = %c0 to %c1 step %c1 iter_args(%acc2 = %acc) -> (tensor<4x4xf32>) {
      %y = arith.addf %acc2, %acc2 : tensor<4x4xf32>
      %y0 = mesh.shard %y to %cols : tensor<4x4xf32>
      scf.yield %y0 : tensor<4x4xf32>
    }
    %unread = mesh.shard %r2 to %min : tensor<4x4xf32>
    scf.yield %r2 : tensor<4x4xf32>
  }
  %e = tensor.empty() : tensor<4x4xf32>
  %zero = arith.constant 0.0 : f32
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.matmul ins(%r, %arg1 : tensor<4x4xf32>, tensor<4x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m0 = mesh.shard %m to %rows annotate_for_users : tensor<4x4xf32>
  return %m0 : tensor<4x4xf32>
}

func.func @for_users(%arg0: tensor<4x4xf32>, %arg1: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cols = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %min = mesh.sharding @mesh split_axes = [] partial = min [0] : !mesh.sharding
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%acc = %arg0) -> (tensor<4x4xf32>) {
    %r2 = scf.for %j = %c0 to %c1 step %c1 iter_args(%acc2 = %acc) -> (tensor<4x4xf32>) {
      %y = arith.addf %acc2, %acc2 : tensor<4x4xf32>
      %y0 = mesh.shard %y to %cols : tensor<4x4xf32>
      scf.yield %y0 : tensor<4x4xf32>
    }
    %unread = mesh.shard %r2 to %min annotate_for_users : tensor<4x4xf32>
    scf.yield %r2 : tensor<4x4xf32>
  }
  %e = tensor.empty() : tensor<4x4xf32>
  %zero = arith.constant 0.0 : f32
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.matmul ins(%r, %arg1 : tensor<4x4xf32>, tensor<4x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m0 = mesh.shard %m to %rows annotate_for_users : tensor<4x4xf32>
  return %m0 : tensor<4x4xf32>
}
