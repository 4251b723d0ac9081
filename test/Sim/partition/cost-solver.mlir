// The cost-driven solver (sharding-propagation's default) on programs
// annotated only at their arguments and results, as a JAX user states
// in_shardings and out_shardings. The plan is the one that moves the fewest
// bytes, and it is the same whatever the traversal option says, whether
// results are annotated with or without annotate_for_users, and whether cse
// or canonicalize ran first. Each plan simulates equal to the original.
// RUN: mesh-opt --pass-pipeline='builtin.module(sharding-propagation,mesh-partition)' %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-opt --pass-pipeline='builtin.module(sharding-propagation{traversal=forward fixed-point=false},mesh-partition)' %s | FileCheck %s
// RUN: mesh-opt --pass-pipeline='builtin.module(cse,sharding-propagation,mesh-partition)' %s -o %t.cse.mlir
// RUN: FileCheck %s < %t.cse.mlir
// RUN: mesh-opt --pass-pipeline='builtin.module(canonicalize,cse,sharding-propagation,mesh-partition)' %s | FileCheck %s
// RUN: sed -e 's/\(mesh.shard %[a-z0-9]* to %[a-z]*\) : /\1 annotate_for_users : /' %s | mesh-opt --pass-pipeline='builtin.module(sharding-propagation,mesh-partition)' | FileCheck %s
// RUN: mesh-run %t.mlir --function megatron --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --function contraction_split --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --function vocab_row_max --compare-with %s -q --seed 3 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --function shared_init --compare-with %s -q --seed 4 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.cse.mlir --function megatron --compare-with %s -q --seed 5 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.cse.mlir --function shared_init --compare-with %s -q --seed 6 | FileCheck %s --check-prefix=SIM
// SIM: match

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
mesh.mesh @mesh(shape = 4)

// Megatron MLP: one all_reduce of the partial output per layer, as upstream
// and XLA do; neither the activations nor W2 are gathered.
// CHECK-LABEL: func.func @megatron(
// CHECK-SAME: %arg1: tensor<64x32xf32>
// CHECK-NOT: mesh.all_gather
// CHECK: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0] : tensor<8x64xf32> -> tensor<8x64xf32>
// CHECK-NOT: = mesh.
// CHECK: return
func.func @megatron(%x: tensor<8x64xf32>, %w1: tensor<64x128xf32>, %w2: tensor<128x64xf32>) -> tensor<8x64xf32> {
  %rep = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %col = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %row = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %zero = arith.constant 0.0 : f32
  %xa = mesh.shard %x to %rep annotate_for_users : tensor<8x64xf32>
  %w1a = mesh.shard %w1 to %col annotate_for_users : tensor<64x128xf32>
  %w2a = mesh.shard %w2 to %row annotate_for_users : tensor<128x64xf32>
  %e = tensor.empty() : tensor<8x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x128xf32>) -> tensor<8x128xf32>
  %h = linalg.matmul ins(%xa, %w1a : tensor<8x64xf32>, tensor<64x128xf32>) outs(%f : tensor<8x128xf32>) -> tensor<8x128xf32>
  %r = linalg.max ins(%h, %f : tensor<8x128xf32>, tensor<8x128xf32>) outs(%e : tensor<8x128xf32>) -> tensor<8x128xf32>
  %e2 = tensor.empty() : tensor<8x64xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %y = linalg.matmul ins(%r, %w2a : tensor<8x128xf32>, tensor<128x64xf32>) outs(%f2 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %ya = mesh.shard %y to %rep : tensor<8x64xf32>
  return %ya : tensor<8x64xf32>
}

// Both operands split along the contraction, the result wanted split on its
// rows: a local partial product and one reduce_scatter (XLA: all_reduce).
// CHECK-LABEL: func.func @contraction_split(
// CHECK-NOT: = mesh.
// CHECK: mesh.reduce_scatter %{{.*}} on @mesh mesh_axes = [0] scatter_axis = 0 : tensor<8x16xf32> -> tensor<2x16xf32>
// CHECK-NOT: = mesh.
// CHECK: return
func.func @contraction_split(%x: tensor<8x64xf32>, %w: tensor<64x16xf32>) -> tensor<8x16xf32> {
  %cols = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %x1 = mesh.shard %x to %cols annotate_for_users : tensor<8x64xf32>
  %w1 = mesh.shard %w to %rows annotate_for_users : tensor<64x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %c0 = arith.constant 0.0 : f32
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = linalg.matmul ins(%x1, %w1 : tensor<8x64xf32>, tensor<64x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  %y1 = mesh.shard %y to %rows : tensor<8x16xf32>
  return %y1 : tensor<8x16xf32>
}

// A row max over a vocabulary split: one all_reduce max of 8 floats, not a
// gather of the logits.
// CHECK-LABEL: func.func @vocab_row_max(
// CHECK-NOT: = mesh.
// CHECK: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0] reduction = <max> : tensor<8xf32> -> tensor<8xf32>
// CHECK-NOT: = mesh.
// CHECK: return
func.func @vocab_row_max(%x: tensor<8x64xf32>, %w: tensor<64x192xf32>) -> tensor<8xf32> {
  %rep = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %cols = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %w1 = mesh.shard %w to %cols annotate_for_users : tensor<64x192xf32>
  %c0 = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<8x192xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<8x192xf32>) -> tensor<8x192xf32>
  %l = linalg.matmul ins(%x, %w1 : tensor<8x64xf32>, tensor<64x192xf32>) outs(%z : tensor<8x192xf32>) -> tensor<8x192xf32>
  %e2 = tensor.empty() : tensor<8xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<8xf32>) -> tensor<8xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%l : tensor<8x192xf32>) outs(%m0 : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %v = arith.maximumf %a, %acc : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  %ma = mesh.shard %m to %rep : tensor<8xf32>
  return %ma : tensor<8xf32>
}

// torch-mlir style: one zero fill is the init of both matmuls and of the
// relu. It costs nothing wherever it goes, so the rows stay split throughout.
// CHECK-LABEL: func.func @shared_init(
// CHECK-SAME: %arg0: tensor<4x64xf32>
// CHECK-NOT: = mesh.
// CHECK: return %{{.*}} : tensor<4x64xf32>
func.func @shared_init(%x: tensor<16x64xf32>, %w1: tensor<64x64xf32>, %w2: tensor<64x64xf32>) -> tensor<16x64xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %rep = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %xa = mesh.shard %x to %rows annotate_for_users : tensor<16x64xf32>
  %w1a = mesh.shard %w1 to %rep annotate_for_users : tensor<64x64xf32>
  %w2a = mesh.shard %w2 to %rep annotate_for_users : tensor<64x64xf32>
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %h = linalg.matmul ins(%xa, %w1a : tensor<16x64xf32>, tensor<64x64xf32>) outs(%z : tensor<16x64xf32>) -> tensor<16x64xf32>
  %r = linalg.max ins(%h, %z : tensor<16x64xf32>, tensor<16x64xf32>) outs(%z : tensor<16x64xf32>) -> tensor<16x64xf32>
  %y = linalg.matmul ins(%r, %w2a : tensor<16x64xf32>, tensor<64x64xf32>) outs(%z : tensor<16x64xf32>) -> tensor<16x64xf32>
  %ya = mesh.shard %y to %rows : tensor<16x64xf32>
  return %ya : tensor<16x64xf32>
}
