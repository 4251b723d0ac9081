// Data movement as JAX exports it (Inputs/export.py): concatenate, a
// stablehlo.slice, pad, transpose, reshape and dynamic_slice, with rows
// over axis 0 of a 2x2 mesh and the result split on both axes. The
// concatenation's columns are cut over axis 1 where they are made (a free
// slice), and the slice and the pad of those columns each cut and pad a
// device's own columns (crops): the transpose, the reshape and the
// dynamic_slice then run on half the rows, moving as many bytes as when
// they ran whole (104 a device). A dynamic_slice split along a dimension
// it takes whole gets the piece's size in slice_sizes.
// RUN: mesh-opt --sharding-propagation --mesh-partition %S/Inputs/reshapes-2d.mlir -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %S/Inputs/reshapes-2d.mlir -q | FileCheck %s
// CHECK: match

// IR-LABEL: func.func public @main(
// IR: "stablehlo.concatenate"(%arg0, %arg1) <{dimension = 1 : i64}> : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x32xf32>
// IR: mesh.all_slice %{{.*}} on @mesh mesh_axes = [1] slice_axis = 1 : tensor<4x32xf32> -> tensor<4x16xf32>
// IR: tensor.extract_slice %{{.*}} [4, 12] [1, 1] : tensor<4x16xf32> to tensor<4x12xf32>
// IR: tensor.pad %{{.*}} low[0, %{{.*}}] high[0, %{{.*}}]
// IR: } : tensor<4x12xf32> to tensor<4x13xf32>
// IR: "stablehlo.transpose"(%{{.*}}) <{permutation = array<i64: 1, 0>}> : (tensor<4x13xf32>) -> tensor<13x4xf32>
// IR: "stablehlo.dynamic_slice"({{.*}}) <{slice_sizes = array<i64: 13, 1, 2>}> : (tensor<13x1x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<13x1x2xf32>
