// One sweep of upstream-style sharding-propagation (solver=sweep,
// fixed-point=false), in every traversal
// order, then partition: loop-carried values keep one layout, and an op the
// sweep reached before its operands were annotated has its operands
// resharded to its result (a remark says so) instead of being refused.
// RUN: mesh-opt --pass-pipeline='builtin.module(sharding-propagation{solver=sweep traversal=forward fixed-point=false},mesh-partition)' %s -o %t.f.mlir 2>&1 | FileCheck %s --check-prefix=REMARK-MULF
// RUN: mesh-run %t.f.mlir --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-opt --pass-pipeline='builtin.module(sharding-propagation{solver=sweep traversal=backward fixed-point=false},mesh-partition)' %s -o %t.b.mlir 2>&1 | FileCheck %s --check-prefix=REMARK-ADDF
// RUN: mesh-run %t.b.mlir --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-opt --pass-pipeline='builtin.module(sharding-propagation{solver=sweep traversal=forward-backward fixed-point=false},mesh-partition)' %s -o %t.fb.mlir 2>&1 | FileCheck %s --check-prefix=REMARK-MULF
// RUN: mesh-run %t.fb.mlir --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-opt --pass-pipeline='builtin.module(sharding-propagation{solver=sweep traversal=backward-forward fixed-point=false},mesh-partition)' %s -o %t.bf.mlir 2>&1 | FileCheck %s --check-prefix=REMARK-MULF
// RUN: mesh-run %t.bf.mlir --compare-with %s -q --seed 1 | FileCheck %s
// Propagation alone, one sweep: the init, block argument, yield and result
// of the loop all carry the layout the body gives its yielded value.
// RUN: mesh-opt --pass-pipeline='builtin.module(sharding-propagation{solver=sweep traversal=forward fixed-point=false})' %s | FileCheck %s --check-prefix=PROP
// CHECK: match
// REMARK-MULF: remark: the operands of 'arith.mulf' do not fit the layouts of its results: operand 0 from split_axes = {{\[\[}}0]] to split_axes = {{\[\[}}]], operand 1 from split_axes = {{\[\[}}0]] to split_axes = {{\[\[}}]] resharded
// REMARK-ADDF: remark: the operands of 'arith.addf' do not fit the layouts of its results
// PROP: %[[S:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}0]] : !mesh.sharding
// PROP: %[[INIT:.*]] = mesh.shard %arg2 to %[[S]] annotate_for_users : tensor<4x4xf32>
// PROP: %[[R:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]])
// PROP-NEXT: mesh.shard %[[ACC]] to %[[S]] : tensor<4x4xf32>
// PROP: arith.addf
// PROP-NEXT: %[[Y:.*]] = mesh.shard %{{.*}} to %[[S]] : tensor<4x4xf32>
// PROP-NEXT: scf.yield %[[Y]]
// PROP: mesh.shard %[[R]] to %[[S]] : tensor<4x4xf32>

mesh.mesh @mesh(shape = 2)
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %acc0: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %sa = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a1 = mesh.shard %a to %sa : tensor<4x8xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %acc0) -> (tensor<4x4xf32>) {
    %m = linalg.matmul ins(%a1, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%acc : tensor<4x4xf32>) -> tensor<4x4xf32>
    %e = arith.addf %m, %m : tensor<4x4xf32>
    scf.yield %e : tensor<4x4xf32>
  }
  %q = arith.mulf %r, %r : tensor<4x4xf32>
  return %q : tensor<4x4xf32>
}
