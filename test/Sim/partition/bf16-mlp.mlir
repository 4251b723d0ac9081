// A Megatron MLP layer in bf16, the way JAX programs carry it.  The
// simulator holds bf16 in f32 and rounds every bf16 result, so the
// partitioned program's partial sums are rounded before the all_reduce
// adds them, as on a device; the comparison uses bf16's epsilon.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 2 | FileCheck %s
// CHECK: result 0: max error {{[0-9.e-]+}}
// CHECK-NEXT: match
// IR: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x32xbf16>, tensor<32x16xbf16>) outs(%{{.*}} : tensor<8x16xbf16>)
// IR: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x16xbf16>, tensor<16x32xbf16>) outs(%{{.*}} : tensor<8x32xbf16>)
// IR: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0] : tensor<8x32xbf16> -> tensor<8x32xbf16>
// A program that is wrong by more than bf16's rounding is still caught:
// RUN: sed -e 's/arith.maximumf/arith.minimumf/' %t.mlir > %t.wrong.mlir
// RUN: not mesh-run %t.wrong.mlir --compare-with %s -q | FileCheck %s --check-prefix=WRONG
// WRONG: MISMATCH

mesh.mesh @mesh(shape = 4)

func.func @mlp(%x: tensor<8x32xbf16>, %w1: tensor<32x64xbf16>, %w2: tensor<64x32xbf16>) -> tensor<8x32xbf16> {
  %cols = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [] : !mesh.sharding
  %x0 = mesh.shard %x to %whole : tensor<8x32xbf16>
  %w1s = mesh.shard %w1 to %cols : tensor<32x64xbf16>
  %w2s = mesh.shard %w2 to %rows : tensor<64x32xbf16>
  %zero = arith.constant 0.0 : bf16
  %e1 = tensor.empty() : tensor<8x64xbf16>
  %f1 = linalg.fill ins(%zero : bf16) outs(%e1 : tensor<8x64xbf16>) -> tensor<8x64xbf16>
  %h = linalg.matmul ins(%x0, %w1s : tensor<8x32xbf16>, tensor<32x64xbf16>) outs(%f1 : tensor<8x64xbf16>) -> tensor<8x64xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%h : tensor<8x64xbf16>) outs(%e1 : tensor<8x64xbf16>) {
  ^bb0(%a: bf16, %b: bf16):
    %m = arith.maximumf %a, %zero : bf16
    linalg.yield %m : bf16
  } -> tensor<8x64xbf16>
  %e2 = tensor.empty() : tensor<8x32xbf16>
  %f2 = linalg.fill ins(%zero : bf16) outs(%e2 : tensor<8x32xbf16>) -> tensor<8x32xbf16>
  %y = linalg.matmul ins(%r, %w2s : tensor<8x64xbf16>, tensor<64x32xbf16>) outs(%f2 : tensor<8x32xbf16>) -> tensor<8x32xbf16>
  %y0 = mesh.shard %y to %whole : tensor<8x32xbf16>
  return %y0 : tensor<8x32xbf16>
}
