// stablehlo.reduce_window (JAX's max and average pooling) and
// select_and_scatter (max pooling's gradient): a dimension with
// a one-cell window (batch, channels) splits as is, and a spatial one reads
// through its window, so it splits with halos whose cells past the edges
// hold the init value (-inf for max pooling).  Inputs/conv-pool-2d.mlir is a
// CNN stem exported by JAX (convolution, relu, 3x3 max pooling with stride
// 2, 2x2 average pooling) with its batch and rows split: two update_halo,
// nothing gathered.  A dimension the input is dilated along stays whole.
// RUN: mesh-opt --sharding-propagation --mesh-partition %S/Inputs/conv-pool-2d.mlir -o %t.stem.mlir
// RUN: FileCheck %s --check-prefix=STEM < %t.stem.mlir
// RUN: mesh-run %t.stem.mlir --compare-with %S/Inputs/conv-pool-2d.mlir -q --seed 1 | FileCheck %s
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir 2>/dev/null
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f max_pool -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f dilated -q --seed 3 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f offset_init -q --seed 4 | FileCheck %s
// RUN: mesh-opt --sharding-propagation --mesh-partition %S/Inputs/maxpool-grad-2d.mlir -o %t.grad.mlir
// RUN: FileCheck %s --check-prefix=GRAD < %t.grad.mlir
// RUN: mesh-run %t.grad.mlir --compare-with %S/Inputs/maxpool-grad-2d.mlir -q --seed 5 | FileCheck %s
// RUN: mesh-opt --mesh-analysis %S/Inputs/conv-pool-2d.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=ANALYSIS
// CHECK: match

// mesh-analysis counts a reduce_window as pooling, 1 flop per window cell
// and output: each device does 2 x (2x4x8x4) x 27 for the convolution, 256
// for relu, (2x2x4x4) x 9 for max pooling, (2x1x2x4) x 4 for the sum and 16
// for the division.
// ANALYSIS: [0, 0] update_halo 2 448 3,844 14,736 0

// STEM-LABEL: func.func public @main(
// STEM-NOT: mesh.all_
// STEM: mesh.update_halo %arg0 into %{{.*}} destination_halo_sizes = [0, 0, 1, 1] : tensor<2x4x8x3xf32> -> tensor<2x6x8x3xf32>
// STEM: "stablehlo.convolution"
// STEM: mesh.update_halo %{{.*}} destination_halo_sizes = [0, 0, 0, 1] : tensor<2x4x8x4xf32> -> tensor<2x5x8x4xf32>
// STEM: "stablehlo.reduce_window"({{.*}}padding = dense<[{{\[}}0, 0], [0, 0], [0, 1], [0, 0]]>
// STEM: "stablehlo.reduce_window"
// STEM-NOT: mesh.all_

// Max pooling's gradient (select_and_scatter) split over batch and channels,
// whose windows are one cell wide: each device scatters its own images'
// gradients, with no collective.  Its rows and columns, read through
// windows that overlap, stay whole (a window by a piece's edge would
// scatter into the neighbour's cells).
// GRAD-LABEL: func.func public @main(
// GRAD-NOT: mesh.all_
// GRAD: "stablehlo.select_and_scatter"
// GRAD: }) : (tensor<2x9x9x2xf32>, tensor<2x4x4x2xf32>, tensor<f32>) -> tensor<2x9x9x2xf32>
// GRAD-NOT: mesh.all_

mesh.mesh @mesh(shape = 2x2)

// IR-LABEL: func.func @max_pool(
// IR: mesh.update_halo %arg0 into %{{.*}} destination_halo_sizes = [0, 1, 0, 1] : tensor<2x4x4x3xf32> -> tensor<2x5x5x3xf32>
// IR: %[[LOWEST:.*]] = tensor.extract %{{.*}}[] : tensor<f32>
// IR: linalg.fill ins(%[[LOWEST]] : f32)
// IR: "stablehlo.reduce_window"({{.*}}padding = dense<0> : tensor<4x2xi64>
// IR-NOT: mesh.all_
func.func @max_pool(%x: tensor<2x8x8x3xf32>) -> tensor<2x4x4x3xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [0], [1]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<2x8x8x3xf32>
  %init = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
  %y = "stablehlo.reduce_window"(%x0, %init) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<[[0, 0], [0, 1], [0, 1], [0, 0]]> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%m) : (tensor<f32>) -> ()
  }) : (tensor<2x8x8x3xf32>, tensor<f32>) -> tensor<2x4x4x3xf32>
  %y0 = mesh.shard %y to %s : tensor<2x4x4x3xf32>
  return %y0 : tensor<2x4x4x3xf32>
}

// Rows dilated by 2 (base_dilations): gathered and pooled whole; the
// columns, read through a dilated window, keep their split with halos.
// IR-LABEL: func.func @dilated(
// IR: mesh.all_gather %arg0 on @mesh mesh_axes = [0] gather_axis = 0
// IR: mesh.update_halo
// IR: "stablehlo.reduce_window"
func.func @dilated(%x: tensor<8x8xi32>) -> tensor<15x8xi32> {
  %s = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<8x8xi32>
  %init = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %y = "stablehlo.reduce_window"(%x0, %init) <{base_dilations = array<i64: 2, 1>, padding = dense<[[0, 0], [2, 2]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 2>, window_dimensions = array<i64: 1, 3>, window_strides = array<i64: 1, 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %m = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%m) : (tensor<i32>) -> ()
  }) : (tensor<8x8xi32>, tensor<i32>) -> tensor<15x8xi32>
  %t = mesh.sharding @mesh split_axes = [[], [1]] : !mesh.sharding
  %y0 = mesh.shard %y to %t : tensor<15x8xi32>
  return %y0 : tensor<15x8xi32>
}

// An init that is not the body's identity (a sum from 5): the specification
// folds it in once more for every padding cell a window covers, where XLA
// skips those cells, so halo cells filled with it would not mean the same
// to both.  The padded rows stay whole; the columns, unpadded, keep their
// split.
// IR-LABEL: func.func @offset_init(
// IR: mesh.all_gather %arg0 on @mesh mesh_axes = [0] gather_axis = 0 : tensor<4x4xi32> -> tensor<8x4xi32>
// IR-NOT: mesh.update_halo
// IR: "stablehlo.reduce_window"({{.*}}padding = dense<{{\[}}[1, 1], [0, 0]]>
// IR: : (tensor<8x4xi32>, tensor<i32>) -> tensor<8x4xi32>
// IR: mesh.all_slice %{{.*}} on @mesh mesh_axes = [0] slice_axis = 0 : tensor<8x4xi32> -> tensor<4x4xi32>
func.func @offset_init(%x: tensor<8x8xi32>) -> tensor<8x8xi32> {
  %s = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<8x8xi32>
  %init = "stablehlo.constant"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
  %y = "stablehlo.reduce_window"(%x0, %init) <{padding = dense<[[1, 1], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 1>, window_strides = array<i64: 1, 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %m = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%m) : (tensor<i32>) -> ()
  }) : (tensor<8x8xi32>, tensor<i32>) -> tensor<8x8xi32>
  %y0 = mesh.shard %y to %s : tensor<8x8xi32>
  return %y0 : tensor<8x8xi32>
}
