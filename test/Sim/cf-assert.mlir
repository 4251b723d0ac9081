// The simulator runs `cf.assert`, which torch-mlir writes into the body of
// every gather it lowers to a `linalg.generic` (an embedding, nll_loss: the
// index must lie in the table): a run whose check holds goes on, and one
// whose check fails stops at the assert with its message, as the compiled
// program would abort.  Both partitioned and not.
// RUN: mesh-run %s -f checked -q --seed 1
// RUN: not mesh-run %s -f failing -q 2>&1 | FileCheck %s
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: mesh-run %t.mlir -f checked --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=MATCH
// RUN: not mesh-run %t.mlir -f failing -q 2>&1 | FileCheck %s --check-prefix=PART
// CHECK: cf-assert.mlir:[[@LINE+30]]:5: error: 'cf.assert' assertion failed: every value must exceed 100
// PART: {{.*}}: error: 'cf.assert' assertion failed: every value must exceed 100
// MATCH: match

#id = affine_map<(i) -> (i)>
mesh.mesh @mesh(shape = 2)

func.func @checked(%x: tensor<8xf32>) -> tensor<8xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows annotate_for_users : tensor<8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%xs : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %sq = arith.mulf %v, %v : f32
    %ok = arith.cmpf oge, %sq, %zero : f32
    cf.assert %ok, "a square must not be negative"
    linalg.yield %sq : f32
  } -> tensor<8xf32>
  return %y : tensor<8xf32>
}

func.func @failing(%x: tensor<8xf32>) -> tensor<8xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows annotate_for_users : tensor<8xf32>
  %big = arith.constant 100.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%xs : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %ok = arith.cmpf ogt, %v, %big : f32
    cf.assert %ok, "every value must exceed 100"
    linalg.yield %v : f32
  } -> tensor<8xf32>
  return %y : tensor<8xf32>
}
