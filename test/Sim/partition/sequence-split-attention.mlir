// Attention whose q, k, v and output are split along the sequence (context
// parallelism), annotated only at its arguments and result. The scores
// hqd,khd->hqk want mesh axis 0 on two loops (q's sequence and k's): the
// solver is also offered the axis on the heads, which both index
// (`rules.clash_moves`), and runs the whole attention split by heads: q, k
// and v each reach it by one all_to_all, and the output goes back by one
// (DeepSpeed-Ulysses' plan, 3/4 of a piece moved where gathering k and v,
// what it did before and what XLA does, moves 3/2).
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=SIM
// SIM: match
// SIM-NOT: MISMATCH
// CHECK-LABEL: func.func @sequence_split_attention(
// CHECK-NOT: mesh.all_gather
// CHECK: mesh.all_to_all %arg0 on @mesh mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<2x4x4xf32> -> tensor<8x1x4xf32>
// CHECK-NEXT: mesh.all_to_all %arg1 on @mesh mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<2x4x4xf32> -> tensor<8x1x4xf32>
// CHECK-NOT: mesh.all_gather
// CHECK: mesh.all_to_all %arg2 on @mesh mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<2x4x4xf32> -> tensor<8x1x4xf32>
// CHECK-NOT: mesh.all_gather
// CHECK: %[[OUT:.*]] = mesh.all_to_all %{{.*}} on @mesh mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<8x1x4xf32> -> tensor<2x4x4xf32>
// CHECK-NEXT: return %[[OUT]] : tensor<2x4x4xf32>

mesh.mesh @mesh(shape = 4)
func.func @sequence_split_attention(%q: tensor<8x4x4xf32>, %k: tensor<8x4x4xf32>, %v: tensor<8x4x4xf32>) -> (tensor<8x4x4xf32>) {
  %s0 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %v1 = mesh.shard %q to %s0 annotate_for_users : tensor<8x4x4xf32>
  %v2 = mesh.shard %k to %s0 annotate_for_users : tensor<8x4x4xf32>
  %v3 = mesh.shard %v to %s0 annotate_for_users : tensor<8x4x4xf32>
  %v4 = tensor.empty() : tensor<4x8x8xf32>
  %v5 = linalg.fill ins(%zero : f32) outs(%v4 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %v6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%v1, %v2 : tensor<8x4x4xf32>, tensor<8x4x4xf32>) outs(%v5 : tensor<4x8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %p = arith.mulf %a0, %a1 : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x8x8xf32>
  %v7 = tensor.empty() : tensor<4x8xf32>
  %v8 = linalg.fill ins(%ninf : f32) outs(%v7 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %v9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%v6 : tensor<4x8x8xf32>) outs(%v8 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.maximumf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %v10 = tensor.empty() : tensor<4x8x8xf32>
  %v11 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%v6, %v9 : tensor<4x8x8xf32>, tensor<4x8xf32>) outs(%v10 : tensor<4x8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %d = arith.subf %a0, %a1 : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<4x8x8xf32>
  %v12 = tensor.empty() : tensor<4x8xf32>
  %v13 = linalg.fill ins(%zero : f32) outs(%v12 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %v14 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%v11 : tensor<4x8x8xf32>) outs(%v13 : tensor<4x8xf32>) {
  ^bb0(%a0: f32, %acc: f32):
    %r = arith.addf %a0, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %v15 = tensor.empty() : tensor<4x8x8xf32>
  %v16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%v11, %v14 : tensor<4x8x8xf32>, tensor<4x8xf32>) outs(%v15 : tensor<4x8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<4x8x8xf32>
  %v17 = tensor.empty() : tensor<8x4x4xf32>
  %v18 = linalg.fill ins(%zero : f32) outs(%v17 : tensor<8x4x4xf32>) -> tensor<8x4x4xf32>
  %v19 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%v16, %v3 : tensor<4x8x8xf32>, tensor<8x4x4xf32>) outs(%v18 : tensor<8x4x4xf32>) {
  ^bb0(%a0: f32, %a1: f32, %acc: f32):
    %p = arith.mulf %a0, %a1 : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8x4x4xf32>
  %v20 = mesh.shard %v19 to %s0 : tensor<8x4x4xf32>
  return %v20 : tensor<8x4x4xf32>
}

