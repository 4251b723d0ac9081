// Regroupings the pass refuses elsewhere are refused in two more places
// (found by a review; each was a silent mismatch):
// - an all_reduce of an all_reduce over other axes is not folded into one
//   over both when that regroups a float product, or a sum of floats
//   narrower than 32 bits: the partial results overflow (1e30 * 1e30 and
//   1e-30 * 1e-30 make inf * 0 = NaN; 60000 + 60000 in f16 is inf) where the
//   terms reduced in one group do not;
// - a generic combining two float sums is not run on each device's terms
//   when its body reads one of them twice ((p + p) + q): each device
//   doubles its own term (2 * 3e38 is inf in f32) where the doubled total
//   is 0.
// The functions are per-device programs: each device reads its own terms
// from a table.
// RUN: mesh-opt --mesh-optimize-collectives %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir -f fold_product_f32 --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f fold_sum_f16 --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f fold_sum_f32 --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f twice --compare-with %s -q --seed 1 | FileCheck %s
// CHECK: match
// CHECK-NOT: MISMATCH
// IR-LABEL: func.func @fold_product_f32(
// IR: mesh.all_reduce %{{.*}} mesh_axes = [0] reduction = <product>
// IR-NEXT: mesh.all_reduce %{{.*}} mesh_axes = [1] reduction = <product>
// IR-LABEL: func.func @fold_sum_f16(
// IR: mesh.all_reduce %{{.*}} mesh_axes = [0] :
// IR-NEXT: mesh.all_reduce %{{.*}} mesh_axes = [1] :
// f32 sums are still folded (they only round differently).
// IR-LABEL: func.func @fold_sum_f32(
// IR: mesh.all_reduce %{{.*}} mesh_axes = [0, 1] :
// IR-NOT: mesh.all_reduce
// IR-LABEL: func.func @twice(
// IR: %[[RA:.*]] = mesh.all_reduce
// IR-NEXT: %[[RB:.*]] = mesh.all_reduce
// IR: linalg.generic {{.*}} ins(%[[RA]], %[[RB]] :

mesh.mesh @mesh(shape = 2x2)
mesh.mesh @pair(shape = 2)

func.func @fold_product_f32(%x: tensor<8xf32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>}) -> (tensor<8xf32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>}) {
  %i = mesh.process_linear_index on @mesh : index
  %t = arith.constant dense<[1.0e30, 1.0e-30, 1.0e30, 1.0e-30]> : tensor<4xf32>
  %v = tensor.extract %t[%i] : tensor<4xf32>
  %a = tensor.splat %v : tensor<8xf32>
  %0 = mesh.all_reduce %a on @mesh mesh_axes = [0] reduction = <product> : tensor<8xf32> -> tensor<8xf32>
  %1 = mesh.all_reduce %0 on @mesh mesh_axes = [1] reduction = <product> : tensor<8xf32> -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

func.func @fold_sum_f16(%x: tensor<8xf16> {mesh.sharding = #mesh.sharding<@mesh, [[]]>}) -> (tensor<8xf16> {mesh.sharding = #mesh.sharding<@mesh, [[]]>}) {
  %i = mesh.process_linear_index on @mesh : index
  %t = arith.constant dense<[60000.0, -60000.0, 60000.0, -60000.0]> : tensor<4xf16>
  %v = tensor.extract %t[%i] : tensor<4xf16>
  %a = tensor.splat %v : tensor<8xf16>
  %0 = mesh.all_reduce %a on @mesh mesh_axes = [0] : tensor<8xf16> -> tensor<8xf16>
  %1 = mesh.all_reduce %0 on @mesh mesh_axes = [1] : tensor<8xf16> -> tensor<8xf16>
  return %1 : tensor<8xf16>
}

func.func @fold_sum_f32(%x: tensor<8xf32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>}) -> (tensor<8xf32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>}) {
  %i = mesh.process_linear_index on @mesh : index
  %t = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %v = tensor.extract %t[%i] : tensor<4xf32>
  %a = tensor.splat %v : tensor<8xf32>
  %0 = mesh.all_reduce %a on @mesh mesh_axes = [0] : tensor<8xf32> -> tensor<8xf32>
  %1 = mesh.all_reduce %0 on @mesh mesh_axes = [1] : tensor<8xf32> -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

func.func @twice(%x: tensor<2xf32> {mesh.sharding = #mesh.sharding<@pair, [[]]>}) -> (tensor<2xf32> {mesh.sharding = #mesh.sharding<@pair, [[]]>}) {
  %i = mesh.process_linear_index on @pair : index
  %ta = arith.constant dense<[[3.0e38, 1.0], [-3.0e38, 2.0]]> : tensor<2x2xf32>
  %tb = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %a = tensor.extract_slice %ta[%i, 0] [1, 2] [1, 1] : tensor<2x2xf32> to tensor<2xf32>
  %b = tensor.extract_slice %tb[%i, 0] [1, 2] [1, 1] : tensor<2x2xf32> to tensor<2xf32>
  %ra = mesh.all_reduce %a on @pair mesh_axes = [0] : tensor<2xf32> -> tensor<2xf32>
  %rb = mesh.all_reduce %b on @pair mesh_axes = [0] : tensor<2xf32> -> tensor<2xf32>
  %e = tensor.empty() : tensor<2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%ra, %rb : tensor<2xf32>, tensor<2xf32>) outs(%e : tensor<2xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %p : f32
    %u = arith.addf %s, %q : f32
    linalg.yield %u : f32
  } -> tensor<2xf32>
  return %r : tensor<2xf32>
}
