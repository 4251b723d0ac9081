// Two accumulators where the second adds the first's running value (a sum
// of prefix sums) are no reduction of the input: pieces of them do not add
// up, so the reduced loop stays whole (one all_to_all moves its input's
// split from the reduced columns to the rows, which the result keeps).  Two
// independent accumulators (the sums of the input and of its squares)
// still split it and return partial sums.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --function prefix_sums --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir --function prefix_sums --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir --function sums --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir --function prefix_sums_uneven --compare-with %s -q --seed 3 | FileCheck %s
// RUN: mesh-run %t.mlir --function prefix_sums_uneven --compare-with %s -q --seed 4 | FileCheck %s
// CHECK: match

#in = affine_map<(i, k) -> (i, k)>
#out = affine_map<(i, k) -> (i)>
mesh.mesh @m(shape = 2)

// IR-LABEL: func.func @prefix_sums
// IR-SAME: -> (tensor<2xf32> {mesh.sharding = #mesh.sharding<@m, {{\[\[}}0]]>})
// IR: mesh.all_to_all %arg0 on @m mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<4x4xf32> -> tensor<2x8xf32>
// IR-NOT: partial
// IR: return
func.func @prefix_sums(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r:2 = linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["parallel", "reduction"]}
      ins(%xs : tensor<4x8xf32>) outs(%z, %z : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%a: f32, %run: f32, %tot: f32):
    %next = arith.addf %run, %a : f32
    %total = arith.addf %tot, %next : f32
    linalg.yield %next, %total : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  return %r#1 : tensor<4xf32>
}

// IR-LABEL: func.func @sums
// IR-SAME: -> (tensor<4xf32> {mesh.sharding = #mesh.sharding<@m, {{\[\[\]\]}}, partial = sum [0]>}, tensor<4xf32> {mesh.sharding = #mesh.sharding<@m, {{\[\[\]\]}}, partial = sum [0]>})
// IR-NOT: mesh.all_gather
// IR: return
func.func @sums(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r:2 = linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["parallel", "reduction"]}
      ins(%xs : tensor<4x8xf32>) outs(%z, %z : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32, %acc2: f32):
    %sum = arith.addf %acc, %a : f32
    %sq = arith.mulf %a, %a : f32
    %sum2 = arith.addf %acc2, %sq : f32
    linalg.yield %sum, %sum2 : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// 5 rows on 2 devices, the result returned whole: the rows split unevenly
// (2 and 3, linalg runs on any pieces), padded to 3 for the all_to_all, and
// only the small result is gathered.
// IR-LABEL: func.func @prefix_sums_uneven
// IR: mesh.all_to_all %{{.*}} on @m mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<6x4xf32> -> tensor<3x8xf32>
// IR: linalg.generic {{.*}} ins(%{{.*}} : tensor<?x8xf32>) outs(%{{.*}}, %{{.*}} : tensor<?xf32>, tensor<?xf32>)
// IR-NOT: partial
// IR: mesh.all_gather %{{.*}} on @m mesh_axes = [0] gather_axis = 0 : tensor<3xf32> -> tensor<6xf32>
// IR: return
func.func @prefix_sums_uneven(%x: tensor<5x8xf32>) -> tensor<5xf32> {
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<5x8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
  %r:2 = linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["parallel", "reduction"]}
      ins(%xs : tensor<5x8xf32>) outs(%z, %z : tensor<5xf32>, tensor<5xf32>) {
  ^bb0(%a: f32, %run: f32, %tot: f32):
    %next = arith.addf %run, %a : f32
    %total = arith.addf %tot, %next : f32
    linalg.yield %next, %total : f32, f32
  } -> (tensor<5xf32>, tensor<5xf32>)
  %w = mesh.sharding @m split_axes = [[]] : !mesh.sharding
  %rs = mesh.shard %r#1 to %w : tensor<5xf32>
  return %rs : tensor<5xf32>
}
