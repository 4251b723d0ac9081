// An LM head's softmax over a vocabulary split by its column-parallel
// weight.  As linalg.softmax it needs the vocabulary whole, so the split
// moves to the tokens and back (two all_to_alls); decomposed first
// (decompose-softmax), each device takes the maximum and the sum of its own
// columns and two all_reduces of one number per token complete them.
// Both are simulated against the program as written.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.op.mlir
// RUN: FileCheck %s --check-prefix=OP < %t.op.mlir
// RUN: mesh-opt --mesh-analysis %t.op.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=OP-BYTES
// RUN: mesh-run %t.op.mlir -f lm_head --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-opt --decompose-softmax --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=SPLIT < %t.mlir
// RUN: mesh-opt --mesh-analysis %t.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPLIT-BYTES
// RUN: mesh-run %t.mlir -f lm_head --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f lm_head --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f lm_head --compare-with %s -q --seed 3 | FileCheck %s
// CHECK: match

// OP-LABEL: func.func @lm_head
// OP: linalg.matmul
// OP: mesh.all_to_all %{{.*}} split_axis = 0 concat_axis = 1 : tensor<8x8xf32> -> tensor<2x32xf32>
// OP: linalg.softmax dimension(1) ins(%{{.*}} : tensor<2x32xf32>)
// OP: mesh.all_to_all %{{.*}} split_axis = 1 concat_axis = 0 : tensor<2x32xf32> -> tensor<8x8xf32>
// OP-BYTES: max all_to_all 2 384

// SPLIT-LABEL: func.func @lm_head
// SPLIT: linalg.matmul {{.*}} -> tensor<8x8xf32>
// SPLIT: arith.maximumf
// SPLIT: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0] reduction = <max> : tensor<8xf32> -> tensor<8xf32>
// SPLIT: math.exp
// SPLIT: arith.addf
// SPLIT: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0] : tensor<8xf32> -> tensor<8xf32>
// SPLIT: arith.divf
// SPLIT-NOT: mesh.all
// SPLIT: return
// SPLIT-BYTES: max all_reduce 2 96
mesh.mesh @mesh(shape = 4)
func.func @lm_head(%h: tensor<8x16xf32>, %w: tensor<16x32xf32>) -> tensor<8x32xf32> {
  %cols = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %ws = mesh.shard %w to %cols : tensor<16x32xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %logits = linalg.matmul ins(%h, %ws : tensor<8x16xf32>, tensor<16x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
  %p = linalg.softmax dimension(1) ins(%logits : tensor<8x32xf32>) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %ps = mesh.shard %p to %cols : tensor<8x32xf32>
  return %ps : tensor<8x32xf32>
}
