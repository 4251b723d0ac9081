// --mesh-spmd-pipeline stands for the passes that take an annotated program
// to one per device, in order; its options go to the first of them that
// has one of that name.  A softmax over the vocabulary a column-parallel
// weight splits stays split (decompose-softmax runs first): one all_reduce
// of the rows' maximum and one of their sums, where propagation and
// partition alone move the logits there and back with two all_to_alls.
// RUN: mesh-opt --mesh-spmd-pipeline %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 3 | FileCheck %s --check-prefix=SIM
// RUN: mesh-opt --pass-pipeline='builtin.module(mesh-spmd-pipeline{solver=sweep traversal=forward})' %s | FileCheck %s
// RUN: mesh-opt --sharding-propagation --mesh-partition %s | FileCheck %s --check-prefix=ALONE
// RUN: mesh-opt --mesh-spmd-pipeline='solver=sweep explain=1' --dump-pass-pipeline %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=DUMP
// RUN: not mesh-opt --mesh-spmd-pipeline='colour=red' %s 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not mesh-opt --pass-pipeline='builtin.module(mesh-spmd-pipeline(cse))' %s 2>&1 | FileCheck %s --check-prefix=NESTED
// RUN: not mesh-opt --pass-pipeline='builtin.module(func.func(cse, mesh-spmd-pipeline))' %s 2>&1 | FileCheck %s --check-prefix=INSIDE
// RUN: not mesh-opt --mesh-spmd-pipeline='solver="cost' %s 2>&1 | FileCheck %s --check-prefix=QUOTE

// CHECK-LABEL: func.func @probs
// CHECK-SAME:    %arg1: tensor<8x4xf32> {mesh.sharding = #mesh.sharding<@m, {{\[\[}}], [0]]>}
// CHECK-SAME:    -> (tensor<4x4xf32> {mesh.sharding = #mesh.sharding<@m, {{\[\[}}], [0]]>})
// CHECK-NOT:     mesh.all_to_all
// CHECK:         mesh.all_reduce %{{.*}} on @m mesh_axes = [0] reduction = <max> : tensor<4xf32> -> tensor<4xf32>
// CHECK-NOT:     mesh.all_to_all
// CHECK:         mesh.all_reduce %{{.*}} on @m mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
// CHECK-NOT:     mesh.all_
// CHECK:         return
// SIM: match
// ALONE-COUNT-2: mesh.all_to_all
// ALONE-NOT:     mesh.all_reduce
// DUMP:      Pass Manager with 6 passes:
// DUMP-NEXT: builtin.module(
// DUMP-NEXT:   prepare-windows{
// DUMP-NEXT:   decompose-softmax,
// DUMP-NEXT:   sharding-propagation{solver=sweep traversal=backward-forward fixed-point=true explain=true skip-unknown=false},
// DUMP-NEXT:   mesh-partition{
// DUMP-NEXT:   mesh-optimize-collectives{fold-one-device=true {{.*}} explain=false},
// DUMP-NEXT:   mesh-canonicalize{
// DUMP-NEXT: )
// OPTION: mesh-opt: pipeline 'mesh-spmd-pipeline' has no option 'colour' (options: cse, dce, {{.*}}, unroll-limit)
// NESTED: mesh-opt: pipeline 'mesh-spmd-pipeline' takes options in braces, not a nested pipeline
// INSIDE: mesh-opt: pipeline 'mesh-spmd-pipeline' runs on builtin.module only; list it at the top level of the pipeline
// QUOTE: mesh-opt: cannot read the options of pipeline 'mesh-spmd-pipeline': unexpected '"' at column 8 of 'solver="cost'

mesh.mesh @m(shape = 4)
func.func @probs(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %cols = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %ws = mesh.shard %w to %cols annotate_for_users : tensor<8x16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %l = linalg.matmul ins(%x, %ws : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %o = tensor.empty() : tensor<4x16xf32>
  %p = linalg.softmax dimension(1) ins(%l : tensor<4x16xf32>) outs(%o : tensor<4x16xf32>) -> tensor<4x16xf32>
  %ps = mesh.shard %p to %cols : tensor<4x16xf32>
  return %ps : tensor<4x16xf32>
}
