// Data movement as JAX exports it (Inputs/export.py): concatenate, a
// stablehlo.slice, pad, transpose, reshape and dynamic_slice, with rows
// over axis 0 of a 2x2 mesh and the result split on both axes. A slice or
// dynamic_slice split along a dimension it takes whole gets the piece's
// size in limit_indices or slice_sizes.
// RUN: mesh-opt --sharding-propagation --mesh-partition %S/Inputs/reshapes-2d.mlir -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %S/Inputs/reshapes-2d.mlir -q | FileCheck %s
// CHECK: match

// IR-LABEL: func.func public @main(
// IR: "stablehlo.concatenate"(%arg0, %arg1) <{dimension = 1 : i64}> : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x32xf32>
// IR: "stablehlo.slice"({{.*}}) <{limit_indices = array<i64: 4, 28>, start_indices = array<i64: 0, 4>, strides = array<i64: 1, 1>}> : (tensor<4x32xf32>) -> tensor<4x24xf32>
// IR: "stablehlo.pad"({{.*}} : (tensor<4x24xf32>, tensor<f32>) -> tensor<4x26xf32>
// IR: "stablehlo.dynamic_slice"({{.*}}) <{slice_sizes = array<i64: 26, 1, 2>}> : (tensor<26x1x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<26x1x2xf32>
