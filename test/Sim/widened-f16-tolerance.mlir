// A result widened from f16 (arith.extf to f32) carries f16's rounding: the
// partitioned program sums the contraction's pieces in another order, in
// f16, and its f32 result may differ from the original's by an f16 ulp.
// mesh-run's default tolerance takes the largest epsilon of the floats the
// functions compute in, not only the result's: f32's alone called this a
// MISMATCH (an f16 ulp of 0.0078 against a tolerance of 8e-5).
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 3 | FileCheck %s
// CHECK: match

#id = affine_map<(i, j) -> (i, j)>
mesh.mesh @mesh(shape = 4)
func.func @widened(%x: tensor<8x32xf16>, %w: tensor<32x16xf16>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f16
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %ws = mesh.shard %w to %rows annotate_for_users : tensor<32x16xf16>
  %e = tensor.empty() : tensor<8x16xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<8x16xf16>) -> tensor<8x16xf16>
  %p = linalg.matmul ins(%x, %ws : tensor<8x32xf16>, tensor<32x16xf16>) outs(%f : tensor<8x16xf16>) -> tensor<8x16xf16>
  %eo = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<8x16xf16>) outs(%eo : tensor<8x16xf32>) {
  ^bb0(%v: f16, %o: f32):
    %wide = arith.extf %v : f16 to f32
    linalg.yield %wide : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
