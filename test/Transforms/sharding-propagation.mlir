// Upstream's op-by-op search (solver=sweep); the default cost solver has
// its own tests in sharding-propagation-cost.mlir.
// RUN: mesh-opt --split-input-file --pass-pipeline='builtin.module(sharding-propagation{solver=sweep})' %s | FileCheck %s
// RUN: mesh-opt --split-input-file --pass-pipeline='builtin.module(sharding-propagation{solver=sweep traversal=forward})' %s | FileCheck %s
// RUN: mesh-opt --split-input-file --pass-pipeline='builtin.module(sharding-propagation{solver=sweep traversal=backward})' %s | FileCheck %s
// RUN: mesh-opt --split-input-file --pass-pipeline='builtin.module(sharding-propagation{solver=sweep traversal=forward-backward})' %s | FileCheck %s
// With one sweep and no fixed point, information moves against the sweep
// by one op only:
// RUN: mesh-opt --split-input-file --pass-pipeline='builtin.module(sharding-propagation{solver=sweep traversal=backward fixed-point=false})' %s | FileCheck %s --check-prefix=ONESWEEP
// Running the pass on its own output changes nothing:
// RUN: mesh-opt --split-input-file --pass-pipeline='builtin.module(sharding-propagation{solver=sweep})' %s -o %t.once.mlir
// RUN: mesh-opt --split-input-file --pass-pipeline='builtin.module(sharding-propagation{solver=sweep})' %t.once.mlir -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir

mesh.mesh @mesh(shape = 2x2)

// CHECK-LABEL: func.func @chain
// CHECK-DAG: %[[S:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}0], [1]] : !mesh.sharding
// CHECK: %[[A:.*]] = mesh.shard %arg0 to
// CHECK-NEXT: %[[X:.*]] = tosa.sigmoid %[[A]] {mesh.sharding_option = #mesh.sharding<@mesh, {{\[\[}}0], [1]]>}
// CHECK-NEXT: %[[XA:.*]] = mesh.shard %[[X]] to %[[S]] : tensor<4x8xf32>
// CHECK-NEXT: %[[Y:.*]] = tosa.tanh %[[XA]] {mesh.sharding_option = #mesh.sharding<@mesh, {{\[\[}}0], [1]]>}
// CHECK-NEXT: %[[YA:.*]] = mesh.shard %[[Y]] to %[[S]] : tensor<4x8xf32>
// CHECK-NEXT: return %[[YA]]
// ONESWEEP-LABEL: func.func @chain
// ONESWEEP: tosa.sigmoid {{.*}} {mesh.sharding_option = #mesh.sharding<@mesh, {{\[\[}}0], [1]]>}
// ONESWEEP: %[[Y:.*]] = tosa.tanh %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// ONESWEEP-NEXT: return %[[Y]]
func.func @chain(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %0 = mesh.shard %a to %s : tensor<4x8xf32>
  %1 = tosa.sigmoid %0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = tosa.tanh %1 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// -----

mesh.mesh @mesh(shape = 2x2)

// An annotated result reaches the operands: rows of A over axis 0, columns
// of B over axis 1; the init follows the result.
// CHECK-LABEL: func.func @matmul_result
// CHECK-DAG: %[[ROWS:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}0]] : !mesh.sharding
// CHECK-DAG: %[[COLS:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}], [1]] : !mesh.sharding
// CHECK-DAG: %[[BOTH:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}0], [1]] : !mesh.sharding
// CHECK: %[[E:.*]] = tensor.empty() {mesh.sharding_option = #mesh.sharding<@mesh, {{\[\[}}0], [1]]>}
// CHECK-NEXT: %[[EA:.*]] = mesh.shard %[[E]] to %[[BOTH]]
// CHECK: %[[F:.*]] = linalg.fill {mesh.sharding_option = #mesh.sharding<@mesh, {{\[\[}}0], [1]]>} ins(%{{.*}} : f32) outs(%[[EA]] : tensor<4x8xf32>)
// CHECK-NEXT: %[[FA:.*]] = mesh.shard %[[F]] to %[[BOTH]]
// CHECK-DAG: %[[A:.*]] = mesh.shard %arg0 to %[[ROWS]] annotate_for_users : tensor<4x6xf32>
// CHECK-DAG: %[[B:.*]] = mesh.shard %arg1 to %[[COLS]] annotate_for_users : tensor<6x8xf32>
// CHECK: linalg.matmul {mesh.sharding_option = #mesh.sharding<@mesh, {{\[\[}}0], [1]]>} ins(%[[A]], %[[B]] : {{.*}}) outs(%[[FA]] : tensor<4x8xf32>)
func.func @matmul_result(%a: tensor<4x6xf32>, %b: tensor<6x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %c0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x6xf32>, tensor<6x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %r = mesh.shard %m to %s : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

mesh.mesh @mesh(shape = 4)

// Operands split along the contracted dimension make a partial sum, which
// stays partial up to the return (no consumer needs it whole). The init
// holds only the result's parallel splits: none.
// CHECK-LABEL: func.func @matmul_partial
// CHECK-DAG: %[[P:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}]] partial = sum [0] : !mesh.sharding
// CHECK-DAG: %[[K:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}0]] : !mesh.sharding
// CHECK-DAG: %[[R:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}]] : !mesh.sharding
// CHECK: %[[B:.*]] = mesh.shard %arg1 to %[[K]] annotate_for_users
// CHECK-NEXT: %[[C:.*]] = mesh.shard %arg2 to %[[R]] annotate_for_users
// CHECK-NEXT: %[[M:.*]] = linalg.matmul {mesh.sharding_option = #mesh.sharding<@mesh, {{\[\[}}], [], [0]]>} ins(%{{.*}}, %[[B]] : {{.*}}) outs(%[[C]] : tensor<4x2xf32>)
// CHECK-NEXT: %[[MA:.*]] = mesh.shard %[[M]] to %[[P]] : tensor<4x2xf32>
// CHECK-NEXT: return %[[MA]]
func.func @matmul_partial(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %c: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %a0 = mesh.shard %a to %s : tensor<4x8xf32>
  %m = linalg.matmul ins(%a0, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%c : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %m : tensor<4x2xf32>
}

// -----

mesh.mesh @mesh(shape = 2x2)

// A partial sum that feeds an op needing it whole is all-reduced for that
// use only: the annotation for users drops the partial axis.
// CHECK-LABEL: func.func @partial_then_relu
// CHECK-DAG: %[[P:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}0]] partial = sum [1] : !mesh.sharding
// CHECK-DAG: %[[W:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}0]] : !mesh.sharding
// CHECK: %[[M:.*]] = linalg.matmul {mesh.sharding_option = #mesh.sharding<@mesh, {{\[\[}}0], [], [1]]>}
// CHECK-NEXT: %[[MA:.*]] = mesh.shard %[[M]] to %[[P]]
// CHECK-NEXT: %[[U:.*]] = mesh.shard %[[MA]] to %[[W]] annotate_for_users
// CHECK-NEXT: tosa.clamp %[[U]] {{.*}}mesh.sharding_option = #mesh.sharding<@mesh, {{\[\[}}0]]>
func.func @partial_then_relu(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %c: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %s = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %a0 = mesh.shard %a to %s : tensor<4x8xf32>
  %m = linalg.matmul ins(%a0, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%c : tensor<4x2xf32>) -> tensor<4x2xf32>
  %r = tosa.clamp %m {max_val = 3.0e38 : f32, min_val = 0.0 : f32} : (tensor<4x2xf32>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}
