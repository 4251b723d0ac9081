// The 1-D weight-stationary MLP of the sharding design, in linalg: the
// input arrives split on its features, the output leaves split the same way.
// Propagation completes the annotations; partition must give the collectives
// the design shows (one all_gather in, one reduce_scatter out) and a program
// whose assembled result equals the original's.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.spmd.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.spmd.mlir
// RUN: mesh-run %t.spmd.mlir --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.spmd.mlir --compare-with %s --seed 3 -q | FileCheck %s
// Arguments that arrive whole are sliced on entry, without communication:
// RUN: mesh-opt --pass-pipeline='builtin.module(sharding-propagation,mesh-partition{full-arguments=true})' %s -o %t.full.mlir
// RUN: FileCheck %s --check-prefix=FULL < %t.full.mlir
// RUN: mesh-run %t.full.mlir --compare-with %s -q | FileCheck %s
// CHECK: result 0: max error {{[0-9.e-]+}}
// CHECK-NEXT: match

// IR-LABEL: func.func @mlp(
// IR-SAME: %arg0: tensor<2x4x4xf32> {mesh.sharding = #mesh.sharding<@mesh0, {{\[\[}}], [], [0]]>}
// IR-SAME: %arg1: tensor<8x16xf32> {mesh.sharding = #mesh.sharding<@mesh0, {{\[\[}}], [0]]>}
// IR-SAME: %arg2: tensor<16x8xf32> {mesh.sharding = #mesh.sharding<@mesh0, {{\[\[}}0]]>}
// IR-SAME: -> (tensor<2x4x4xf32> {mesh.sharding = #mesh.sharding<@mesh0, {{\[\[}}], [], [0]]>})
// IR-NOT: mesh.shard
// IR: %[[X:.*]] = mesh.all_gather %arg0 on @mesh0 mesh_axes = [0] gather_axis = 2 : tensor<2x4x4xf32> -> tensor<2x4x8xf32>
// IR: linalg.generic {{.*}} ins(%[[X]], %arg1 : tensor<2x4x8xf32>, tensor<8x16xf32>) outs(%{{.*}} : tensor<2x4x16xf32>)
// IR: %[[Y:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %arg2 : tensor<2x4x16xf32>, tensor<16x8xf32>) outs(%{{.*}} : tensor<2x4x8xf32>)
// IR: %[[R:.*]] = mesh.reduce_scatter %[[Y]] on @mesh0 mesh_axes = [0] scatter_axis = 2 : tensor<2x4x8xf32> -> tensor<2x4x4xf32>
// IR-NEXT: return %[[R]]
// IR-NOT: mesh.all_

// FULL-LABEL: func.func @mlp(%arg0: tensor<2x4x8xf32>, %arg1: tensor<8x32xf32>, %arg2: tensor<32x8xf32>)
// FULL-NOT: mesh.all_gather
// FULL-DAG: mesh.all_slice %arg1 on @mesh0 mesh_axes = [0] slice_axis = 1 : tensor<8x32xf32> -> tensor<8x16xf32>
// FULL-DAG: mesh.all_slice %arg2 on @mesh0 mesh_axes = [0] slice_axis = 0 : tensor<32x8xf32> -> tensor<16x8xf32>
// FULL: mesh.reduce_scatter

#lhs = affine_map<(b, l, f, e) -> (b, l, e)>
#rhs = affine_map<(b, l, f, e) -> (e, f)>
#out = affine_map<(b, l, f, e) -> (b, l, f)>
#id = affine_map<(b, l, f) -> (b, l, f)>

mesh.mesh @mesh0(shape = 2)

func.func @mlp(%x: tensor<2x4x8xf32>, %w1: tensor<8x32xf32>, %w2: tensor<32x8xf32>) -> tensor<2x4x8xf32> {
  %s0 = mesh.sharding @mesh0 split_axes = [[], [], [0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s0 : tensor<2x4x8xf32>
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<2x4x32xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x4x32xf32>) -> tensor<2x4x32xf32>
  %h = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x0, %w1 : tensor<2x4x8xf32>, tensor<8x32xf32>) outs(%z1 : tensor<2x4x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x4x32xf32>
  %e2 = tensor.empty() : tensor<2x4x32xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%h : tensor<2x4x32xf32>) outs(%e2 : tensor<2x4x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x4x32xf32>
  %e3 = tensor.empty() : tensor<2x4x8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %y = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%r, %w2 : tensor<2x4x32xf32>, tensor<32x8xf32>) outs(%z3 : tensor<2x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x4x8xf32>
  %s1 = mesh.sharding @mesh0 split_axes = [[], [], []] partial = sum [0] : !mesh.sharding
  %y0 = mesh.shard %y to %s1 : tensor<2x4x8xf32>
  %y1 = mesh.shard %y0 to %s0 annotate_for_users : tensor<2x4x8xf32>
  return %y1 : tensor<2x4x8xf32>
}
