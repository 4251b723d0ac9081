// What upstream passes leave for mesh-partition: ops rebuilt without their
// mesh.sharding_option, a stale option kept on an op whose loops changed, an
// annotation lost, a multi-result op (as fusion makes) whose results were
// annotated apart. Partition re-derives each op's loop sharding from the
// annotations around it (transforms/partition/rederive.py), reshards what
// disagrees and never asks for sharding-propagation again; each function
// still computes the original's results.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --function stale_option --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --function lost_result_annotation --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --function results_that_disagree --compare-with %s -q --seed 3 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --function partial_from_the_option --compare-with %s -q --seed 4 | FileCheck %s --check-prefix=SIM
// SIM: match

#mk = affine_map<(d0, d1, d2) -> (d0, d2)>
#kn = affine_map<(d0, d1, d2) -> (d2, d1)>
#mn = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
mesh.mesh @mesh(shape = 2)

// An option naming more loops than the op has is stale: the loop sharding
// comes from the annotations (columns split), and the fresh init is made in
// that layout without a word.
// REMARK: remark: the mesh.sharding_option of 'linalg.generic' is stale (sharding option names 4 loops but the op has 3): its loop sharding is re-derived from the annotations around it as {{\[\[}}], [0], []]
// REMARK-NOT: operand 2
// CHECK-LABEL: func.func @stale_option(
// CHECK-SAME: %arg1: tensor<16x4xf32>
// CHECK-NOT: = mesh.
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<8x4xf32>)
// CHECK-NOT: = mesh.
// CHECK: return
func.func @stale_option(%x: tensor<8x16xf32>, %w: tensor<16x8xf32>) -> tensor<8x8xf32> {
  %rep = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %col = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %x0 = mesh.shard %x to %rep annotate_for_users : tensor<8x16xf32>
  %w0 = mesh.shard %w to %col annotate_for_users : tensor<16x8xf32>
  %e = tensor.empty() : tensor<8x8xf32>
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %y = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], mesh.sharding_option = #mesh.sharding<@mesh, [[], [], [], [0]]>} ins(%x0, %w0 : tensor<8x16xf32>, tensor<16x8xf32>) outs(%f : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  %y0 = mesh.shard %y to %col : tensor<8x8xf32>
  return %y0 : tensor<8x8xf32>
}

// The result's annotation is lost but the option says how the op runs: the
// result is produced split by rows, as propagation planned, and returned so.
// CHECK-LABEL: func.func @lost_result_annotation(
// CHECK-SAME: -> (tensor<4x8xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>})
// CHECK-NOT: = mesh.
// CHECK: return
func.func @lost_result_annotation(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %row = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %x0 = mesh.shard %x to %row annotate_for_users : tensor<8x8xf32>
  %e = tensor.empty() : tensor<8x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"], mesh.sharding_option = #mesh.sharding<@mesh, [[0]]>} ins(%x0 : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %c: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}

// No loop sharding gives both results their annotations: the first wins, the
// second is resharded after the op.
// REMARK: remark: the operands of 'linalg.generic' do not fit the layouts of its results: operand 0 from split_axes = {{\[\[}}]] to split_axes = {{\[\[}}0]] resharded
// REMARK: remark: 'linalg.generic' runs with its loops split as {{\[\[}}0], []] (re-derived from the annotations around it), which cannot produce result 1 as split_axes = {{\[\[}}], [0]]: resharded after it
// CHECK-LABEL: func.func @results_that_disagree(
// CHECK: %[[R:.*]]:2 = linalg.generic
// CHECK-NEXT: ^bb0
// CHECK: %[[T:.*]] = mesh.all_to_all %[[R]]#1 on @mesh mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<4x8xf32> -> tensor<8x4xf32>
// CHECK-NEXT: return %[[R]]#0, %[[T]]
func.func @results_that_disagree(%x: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %row = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %col = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %e = tensor.empty() : tensor<8x8xf32>
  %r:2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x8xf32>) outs(%e, %e : tensor<8x8xf32>, tensor<8x8xf32>) {
  ^bb0(%a: f32, %c: f32, %d: f32):
    %n = arith.negf %a : f32
    %m = arith.mulf %a, %a : f32
    linalg.yield %n, %m : f32, f32
  } -> (tensor<8x8xf32>, tensor<8x8xf32>)
  %r0 = mesh.shard %r#0 to %row : tensor<8x8xf32>
  %r1 = mesh.shard %r#1 to %col : tensor<8x8xf32>
  return %r0, %r1 : tensor<8x8xf32>, tensor<8x8xf32>
}

// A contraction whose option splits its reduction loop, with its generalized
// fill of zero as init (what linalg-generalize-named-ops makes of linalg.fill):
// the option fits the partial result, the init is the reduction's neutral
// value on every device, and the result is all-reduced for its whole user.
// REMARK-NOT: remark
// CHECK-LABEL: func.func @partial_from_the_option(
// CHECK-NOT: scf.if
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8x8xf32>, tensor<8x8xf32>)
// CHECK: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0] : tensor<8x8xf32> -> tensor<8x8xf32>
// CHECK: return
func.func @partial_from_the_option(%x: tensor<8x16xf32>, %w: tensor<16x8xf32>) -> tensor<8x8xf32> {
  %k1 = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %k0 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %p = mesh.sharding @mesh split_axes = [[]] partial = sum [0] : !mesh.sharding
  %rep = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %x0 = mesh.shard %x to %k1 annotate_for_users : tensor<8x16xf32>
  %w0 = mesh.shard %w to %k0 annotate_for_users : tensor<16x8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %f = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<8x8xf32>) {
  ^bb0(%o: f32):
    linalg.yield %zero : f32
  } -> tensor<8x8xf32>
  %y = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"], mesh.sharding_option = #mesh.sharding<@mesh, [[], [], [0]]>} ins(%x0, %w0 : tensor<8x16xf32>, tensor<16x8xf32>) outs(%f : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %q = arith.mulf %a, %b : f32
    %s = arith.addf %c, %q : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  %y0 = mesh.shard %y to %p : tensor<8x8xf32>
  %y1 = mesh.shard %y0 to %rep annotate_for_users : tensor<8x8xf32>
  return %y1 : tensor<8x8xf32>
}
