// Gradient accumulation over 4 micro-batches: each trip's contraction-split
// matmul folds its partial terms into the loop's accumulator, its init.  The
// accumulator stays a partial sum through the loop (each device adds its own
// terms to its own), and the sum is reduced once, after it: 384 bytes a
// device, where reducing the product on every trip and keeping the total on
// one device for the next moved 1,536.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir -f accumulate --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f accumulate --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f invariant --compare-with %s -q --seed 3 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f chain --compare-with %s -q --seed 4 | FileCheck %s --check-prefix=SIM
// RUN: mesh-opt --mesh-analysis %t.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BYTES
// SIM: match
// BYTES-LABEL: @accumulate
// BYTES: max     all_reduce 1           384
// BYTES-LABEL: @invariant
// BYTES: max     all_reduce 1           384
// BYTES-LABEL: @chain
// BYTES: max     all_reduce 1           48

// CHECK-LABEL: func.func @accumulate
// CHECK-SAME: -> (tensor<8x8xf32> {mesh.sharding = #mesh.sharding<@m, {{\[\[\]\]}}>})
// CHECK: %[[R:.*]] = scf.for
// CHECK-NOT: mesh.
// CHECK: linalg.matmul ins(%{{.*}}, %arg1 : tensor<8x4xf32>, tensor<4x8xf32>) outs(%arg3 : tensor<8x8xf32>)
// CHECK-NOT: mesh.
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[T:.*]] = mesh.all_reduce %[[R]] on @m mesh_axes = [0] : tensor<8x8xf32> -> tensor<8x8xf32>
// CHECK-NEXT: return %[[T]]
// CHECK-LABEL: func.func @invariant
// CHECK: scf.for
// CHECK-NOT: mesh.
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: mesh.all_reduce
// CHECK-NOT: mesh.
// CHECK-LABEL: func.func @chain
// CHECK: scf.for
// CHECK-NOT: mesh.
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: mesh.all_reduce %{{.*}} on @m mesh_axes = [0] : tensor<8xf32> -> tensor<8xf32>
// CHECK-NOT: mesh.

mesh.mesh @m(shape = 4)
func.func @accumulate(%x: tensor<4x8x16xf32>, %w: tensor<16x8xf32>) -> tensor<8x8xf32> {
  %k = mesh.sharding @m split_axes = [[], [], [0]] : !mesh.sharding
  %rows = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %whole = mesh.sharding @m split_axes = [[]] : !mesh.sharding
  %xs = mesh.shard %x to %k : tensor<4x8x16xf32>
  %ws = mesh.shard %w to %rows : tensor<16x8xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (tensor<8x8xf32>) {
    %xi = tensor.extract_slice %xs[%i, 0, 0] [1, 8, 16] [1, 1, 1] : tensor<4x8x16xf32> to tensor<8x16xf32>
    %m = linalg.matmul ins(%xi, %ws : tensor<8x16xf32>, tensor<16x8xf32>) outs(%acc : tensor<8x8xf32>) -> tensor<8x8xf32>
    scf.yield %m : tensor<8x8xf32>
  }
  %out = mesh.shard %r to %whole : tensor<8x8xf32>
  return %out : tensor<8x8xf32>
}

// The same product on every trip: the split operands are still read where
// they lie, not gathered in front of the loop.
func.func @invariant(%x: tensor<8x16xf32>, %w: tensor<16x8xf32>) -> tensor<8x8xf32> {
  %k = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %rows = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %whole = mesh.sharding @m split_axes = [[]] : !mesh.sharding
  %xs = mesh.shard %x to %k : tensor<8x16xf32>
  %ws = mesh.shard %w to %rows : tensor<16x8xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %init) -> (tensor<8x8xf32>) {
    %m = linalg.matmul ins(%xs, %ws : tensor<8x16xf32>, tensor<16x8xf32>) outs(%acc : tensor<8x8xf32>) -> tensor<8x8xf32>
    scf.yield %m : tensor<8x8xf32>
  }
  %out = mesh.shard %r to %whole : tensor<8x8xf32>
  return %out : tensor<8x8xf32>
}

// Two reductions in a chain through the accumulator (a sum of squares, then
// a sum): moving the loop's head and the yield alone does not pay, until the
// op between them follows; the loop then carries partial sums as well.
#rows_k = affine_map<(i, k) -> (i, k)>
#rows = affine_map<(i, k) -> (i)>
func.func @chain(%x: tensor<4x8x16xf32>) -> tensor<8xf32> {
  %k = mesh.sharding @m split_axes = [[], [], [0]] : !mesh.sharding
  %whole = mesh.sharding @m split_axes = [[]] : !mesh.sharding
  %xs = mesh.shard %x to %k : tensor<4x8x16xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (tensor<8xf32>) {
    %xi = tensor.extract_slice %xs[%i, 0, 0] [1, 8, 16] [1, 1, 1] : tensor<4x8x16xf32> to tensor<8x16xf32>
    %sq = linalg.generic {indexing_maps = [#rows_k, #rows], iterator_types = ["parallel", "reduction"]} ins(%xi : tensor<8x16xf32>) outs(%acc : tensor<8xf32>) {
    ^bb0(%a: f32, %b: f32):
      %t = arith.mulf %a, %a : f32
      %u = arith.addf %t, %b : f32
      linalg.yield %u : f32
    } -> tensor<8xf32>
    %s = linalg.generic {indexing_maps = [#rows_k, #rows], iterator_types = ["parallel", "reduction"]} ins(%xi : tensor<8x16xf32>) outs(%sq : tensor<8xf32>) {
    ^bb0(%a: f32, %b: f32):
      %u = arith.addf %a, %b : f32
      linalg.yield %u : f32
    } -> tensor<8xf32>
    scf.yield %s : tensor<8xf32>
  }
  %out = mesh.shard %r to %whole : tensor<8xf32>
  return %out : tensor<8xf32>
}
