// mesh-optimize-collectives reassociates op(R(a), R(b)) into R(op(a, b))
// only where partition would combine the terms itself: not in floats
// narrower than 32 bits, whose terms on one device overflow where the
// totals do not, and not when one float term is read twice (each device
// doubles it).  Here device 0 holds the terms +40000 and +30000 and device
// 1 their negations: every total is 0, but 40000 + 30000 is past f16's
// 65504, so the rewritten f16 programs gave NaN.  The f32 doubling's terms
// are +-2e38 (twice that is past f32's 3.4e38).  A max of f16 terms and a
// sum of distinct f32 terms are still rewritten.  The functions are per-device
// programs (their signatures carry layouts): each reads its device's terms.
// RUN: mesh-opt --mesh-optimize-collectives %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir -f add_f16 --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f add_f16 --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f chain_f16 --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f chain_f16 --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f fused_f16 --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f fused_f16 --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f twice_f32 --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f twice_f32 --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f max_f16 --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f max_f16 --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f add_f32 --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f add_f32 --compare-with %s -q --seed 2 | FileCheck %s
// CHECK: match

mesh.mesh @pair(shape = 2)

// IR-LABEL: func.func @add_f16
// IR: mesh.all_reduce
// IR: mesh.all_reduce
// IR: arith.addf
func.func @add_f16(%x: tensor<2xf16> {mesh.sharding = #mesh.sharding<@pair, [[]]>}) -> (tensor<2xf16> {mesh.sharding = #mesh.sharding<@pair, [[]]>}) {
  %i = mesh.process_linear_index on @pair : index
  %ta = arith.constant dense<[[4.0e4, 4.0e4], [-4.0e4, -4.0e4]]> : tensor<2x2xf16>
  %tb = arith.constant dense<[[3.0e4, 3.0e4], [-3.0e4, -3.0e4]]> : tensor<2x2xf16>
  %a = tensor.extract_slice %ta[%i, 0] [1, 2] [1, 1] : tensor<2x2xf16> to tensor<2xf16>
  %b = tensor.extract_slice %tb[%i, 0] [1, 2] [1, 1] : tensor<2x2xf16> to tensor<2xf16>
  %ra = mesh.all_reduce %a on @pair mesh_axes = [0] : tensor<2xf16> -> tensor<2xf16>
  %rb = mesh.all_reduce %b on @pair mesh_axes = [0] : tensor<2xf16> -> tensor<2xf16>
  %s = arith.addf %ra, %rb : tensor<2xf16>
  %r = arith.addf %s, %x : tensor<2xf16>
  return %r : tensor<2xf16>
}

// IR-LABEL: func.func @chain_f16
// IR: mesh.all_reduce
// IR: arith.addf
// IR: mesh.all_reduce
// IR: arith.addf
func.func @chain_f16(%x: tensor<2xf16> {mesh.sharding = #mesh.sharding<@pair, [[]]>}) -> (tensor<2xf16> {mesh.sharding = #mesh.sharding<@pair, [[]]>}) {
  %i = mesh.process_linear_index on @pair : index
  %ta = arith.constant dense<[[4.0e4, 4.0e4], [-4.0e4, -4.0e4]]> : tensor<2x2xf16>
  %tb = arith.constant dense<[[3.0e4, 3.0e4], [-3.0e4, -3.0e4]]> : tensor<2x2xf16>
  %a = tensor.extract_slice %ta[%i, 0] [1, 2] [1, 1] : tensor<2x2xf16> to tensor<2xf16>
  %b = tensor.extract_slice %tb[%i, 0] [1, 2] [1, 1] : tensor<2x2xf16> to tensor<2xf16>
  %ra = mesh.all_reduce %a on @pair mesh_axes = [0] : tensor<2xf16> -> tensor<2xf16>
  %s = arith.addf %x, %ra : tensor<2xf16>
  %rb = mesh.all_reduce %b on @pair mesh_axes = [0] : tensor<2xf16> -> tensor<2xf16>
  %r = arith.addf %s, %rb : tensor<2xf16>
  return %r : tensor<2xf16>
}

// IR-LABEL: func.func @fused_f16
// IR: mesh.all_reduce
// IR: mesh.all_reduce
// IR: linalg.generic
func.func @fused_f16(%x: tensor<2xf16> {mesh.sharding = #mesh.sharding<@pair, [[]]>}) -> (tensor<2xf16> {mesh.sharding = #mesh.sharding<@pair, [[]]>}) {
  %i = mesh.process_linear_index on @pair : index
  %ta = arith.constant dense<[[4.0e4, 4.0e4], [-4.0e4, -4.0e4]]> : tensor<2x2xf16>
  %tb = arith.constant dense<[[3.0e4, 3.0e4], [-3.0e4, -3.0e4]]> : tensor<2x2xf16>
  %a = tensor.extract_slice %ta[%i, 0] [1, 2] [1, 1] : tensor<2x2xf16> to tensor<2xf16>
  %b = tensor.extract_slice %tb[%i, 0] [1, 2] [1, 1] : tensor<2x2xf16> to tensor<2xf16>
  %ra = mesh.all_reduce %a on @pair mesh_axes = [0] : tensor<2xf16> -> tensor<2xf16>
  %rb = mesh.all_reduce %b on @pair mesh_axes = [0] : tensor<2xf16> -> tensor<2xf16>
  %e = tensor.empty() : tensor<2xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> (k)>], iterator_types = ["parallel"]}
      ins(%x, %ra, %rb : tensor<2xf16>, tensor<2xf16>, tensor<2xf16>) outs(%e : tensor<2xf16>) {
  ^bb0(%u: f16, %v: f16, %w: f16, %o: f16):
    %uv = arith.addf %u, %v : f16
    %uvw = arith.addf %uv, %w : f16
    linalg.yield %uvw : f16
  } -> tensor<2xf16>
  return %r : tensor<2xf16>
}

// Two reductions of one value (merged into one first): its terms doubled.
// IR-LABEL: func.func @twice_f32
// IR: %[[R:.*]] = mesh.all_reduce
// IR: arith.addf %[[R]], %[[R]]
func.func @twice_f32(%x: tensor<2xf32> {mesh.sharding = #mesh.sharding<@pair, [[]]>}) -> (tensor<2xf32> {mesh.sharding = #mesh.sharding<@pair, [[]]>}) {
  %i = mesh.process_linear_index on @pair : index
  %ta = arith.constant dense<[[2.0e38, 2.0e38], [-2.0e38, -2.0e38]]> : tensor<2x2xf32>
  %a = tensor.extract_slice %ta[%i, 0] [1, 2] [1, 1] : tensor<2x2xf32> to tensor<2xf32>
  %r1 = mesh.all_reduce %a on @pair mesh_axes = [0] : tensor<2xf32> -> tensor<2xf32>
  %r2 = mesh.all_reduce %a on @pair mesh_axes = [0] : tensor<2xf32> -> tensor<2xf32>
  %s = arith.addf %r1, %r2 : tensor<2xf32>
  %r = arith.addf %s, %x : tensor<2xf32>
  return %r : tensor<2xf32>
}

// IR-LABEL: func.func @max_f16
// IR: %[[M:.*]] = arith.maximumf
// IR-NEXT: mesh.all_reduce %[[M]] on @pair mesh_axes = [0] reduction = <max>
// IR-NOT: mesh.all_reduce
// IR: return
func.func @max_f16(%x: tensor<2xf16> {mesh.sharding = #mesh.sharding<@pair, [[]]>}) -> (tensor<2xf16> {mesh.sharding = #mesh.sharding<@pair, [[]]>}) {
  %i = mesh.process_linear_index on @pair : index
  %ta = arith.constant dense<[[4.0e4, 4.0e4], [-4.0e4, -4.0e4]]> : tensor<2x2xf16>
  %tb = arith.constant dense<[[3.0e4, 3.0e4], [-3.0e4, -3.0e4]]> : tensor<2x2xf16>
  %a = tensor.extract_slice %ta[%i, 0] [1, 2] [1, 1] : tensor<2x2xf16> to tensor<2xf16>
  %b = tensor.extract_slice %tb[%i, 0] [1, 2] [1, 1] : tensor<2x2xf16> to tensor<2xf16>
  %ra = mesh.all_reduce %a on @pair mesh_axes = [0] reduction = <max> : tensor<2xf16> -> tensor<2xf16>
  %rb = mesh.all_reduce %b on @pair mesh_axes = [0] reduction = <max> : tensor<2xf16> -> tensor<2xf16>
  %m = arith.maximumf %ra, %rb : tensor<2xf16>
  %r = arith.addf %m, %x : tensor<2xf16>
  return %r : tensor<2xf16>
}

// IR-LABEL: func.func @add_f32
// IR: %[[S:.*]] = arith.addf
// IR-NEXT: mesh.all_reduce %[[S]] on @pair mesh_axes = [0]
// IR-NOT: mesh.all_reduce
// IR: return
func.func @add_f32(%x: tensor<2xf32> {mesh.sharding = #mesh.sharding<@pair, [[]]>}) -> (tensor<2xf32> {mesh.sharding = #mesh.sharding<@pair, [[]]>}) {
  %i = mesh.process_linear_index on @pair : index
  %ta = arith.constant dense<[[4.0e4, 4.0e4], [-4.0e4, -4.0e4]]> : tensor<2x2xf32>
  %tb = arith.constant dense<[[3.0e4, 3.0e4], [-3.0e4, -3.0e4]]> : tensor<2x2xf32>
  %a = tensor.extract_slice %ta[%i, 0] [1, 2] [1, 1] : tensor<2x2xf32> to tensor<2xf32>
  %b = tensor.extract_slice %tb[%i, 0] [1, 2] [1, 1] : tensor<2x2xf32> to tensor<2xf32>
  %ra = mesh.all_reduce %a on @pair mesh_axes = [0] : tensor<2xf32> -> tensor<2xf32>
  %rb = mesh.all_reduce %b on @pair mesh_axes = [0] : tensor<2xf32> -> tensor<2xf32>
  %s = arith.addf %ra, %rb : tensor<2xf32>
  %r = arith.addf %s, %x : tensor<2xf32>
  return %r : tensor<2xf32>
}
