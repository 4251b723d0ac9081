// jax.checkpoint (remat) as JAX exports it (Inputs/export.py): the weights'
// gradient of two Megatron layers, whose recomputed forward pass sits
// behind stablehlo.optimization_barrier.  Each result of a barrier is its
// operand: it takes its operand's layout, as a loop that never runs hands
// on its init, so the barrier stays one op over the devices' pieces.
// Two chained layers compound f32 rounding past the default tolerance, which
// models one reordered sum (1.3e-4 seen against 1.2e-4 on one BLAS): the
// runs take --atol 1e-3, far below any wrong element's error.
// RUN: mesh-opt --sharding-propagation --mesh-partition %S/Inputs/remat-2d.mlir -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %S/Inputs/remat-2d.mlir -q --seed 1 --atol 1e-3 | FileCheck %s --check-prefix=SAME
// RUN: mesh-run %t.mlir --compare-with %S/Inputs/remat-2d.mlir -q --seed 2 --atol 1e-3 | FileCheck %s --check-prefix=SAME
// SAME: match

// CHECK-LABEL: func.func public @main(
// CHECK: "stablehlo.optimization_barrier"(%{{.*}}, %arg1, %arg2, %{{.*}}) : (tensor<4x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<4x16xf32>)
// CHECK: "stablehlo.optimization_barrier"(%arg0, %arg1, %arg2, %{{.*}}) : (tensor<4x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<4x16xf32>)
