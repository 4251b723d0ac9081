// select_and_scatter (max pooling's gradient) whose windows tile a
// dimension side by side (window s, stride s, no padding): a piece of the
// source's windows holds the operand's and the result's cells they cover,
// so the three split alike and each device scatters into its own cells.
// Where the windows do not cut into even pieces, the op runs whole (and
// pieces cut by offsets: pooling-gradient-tiles-alone.mlir).  Overlapping
// windows stay whole (pooling.mlir).
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir 2>/dev/null
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f tiles -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f by_three -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f uneven_windows -q --seed 3 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f overlap_free_odd -q --seed 4 | FileCheck %s
// CHECK: match

mesh.mesh @mesh(shape = 2x2)
mesh.mesh @line(shape = 4)

// JAX's 2x2 max pooling of stride 2, its gradient: rows and columns over
// the 2x2 mesh, 4 rows and columns of cells (2 windows) per device, no
// collective.
// IR-LABEL: func.func @tiles(
// IR-NOT: mesh.all_
// IR: }) : (tensor<2x4x4x3xf32>, tensor<2x2x2x3xf32>, tensor<f32>) -> tensor<2x4x4x3xf32>
// IR-NOT: mesh.all_
func.func @tiles(%x: tensor<2x8x8x3xf32>, %g: tensor<2x4x4x3xf32>) -> tensor<2x8x8x3xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [0], [1]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<2x8x8x3xf32>
  %g0 = mesh.shard %g to %s : tensor<2x4x4x3xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %y = "stablehlo.select_and_scatter"(%x0, %g0, %zero) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = "stablehlo.compare"(%a, %b) <{comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%p) : (tensor<f32>) -> ()
  }) : (tensor<2x8x8x3xf32>, tensor<2x4x4x3xf32>, tensor<f32>) -> tensor<2x8x8x3xf32>
  %y0 = mesh.shard %y to %s : tensor<2x8x8x3xf32>
  return %y0 : tensor<2x8x8x3xf32>
}

// Windows of 3 moved by 3: one window of 3 rows per device.
// IR-LABEL: func.func @by_three(
// IR-NOT: mesh.all_
// IR: }) : (tensor<2x3x3xf32>, tensor<2x1x3xf32>, tensor<f32>) -> tensor<2x3x3xf32>
func.func @by_three(%x: tensor<2x12x3xf32>, %g: tensor<2x4x3xf32>) -> tensor<2x12x3xf32> {
  %s = mesh.sharding @line split_axes = [[], [0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<2x12x3xf32>
  %g0 = mesh.shard %g to %s : tensor<2x4x3xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %y = "stablehlo.select_and_scatter"(%x0, %g0, %zero) <{padding = dense<0> : tensor<3x2xi64>, window_dimensions = array<i64: 1, 3, 1>, window_strides = array<i64: 1, 3, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = "stablehlo.compare"(%a, %b) <{comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%p) : (tensor<f32>) -> ()
  }) : (tensor<2x12x3xf32>, tensor<2x4x3xf32>, tensor<f32>) -> tensor<2x12x3xf32>
  %y0 = mesh.shard %y to %s : tensor<2x12x3xf32>
  return %y0 : tensor<2x12x3xf32>
}

// 6 windows over 4 devices would not give each device whole windows of
// even pieces: the op runs whole.
// IR-LABEL: func.func @uneven_windows(
// IR: mesh.all_gather
// IR: }) : (tensor<2x12x3xf32>, tensor<2x6x3xf32>, tensor<f32>) -> tensor<2x12x3xf32>
// IR: mesh.all_slice
func.func @uneven_windows(%x: tensor<2x12x3xf32>, %g: tensor<2x6x3xf32>) -> tensor<2x12x3xf32> {
  %s = mesh.sharding @line split_axes = [[], [0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<2x12x3xf32>
  %g0 = mesh.shard %g to %s : tensor<2x6x3xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %y = "stablehlo.select_and_scatter"(%x0, %g0, %zero) <{padding = dense<0> : tensor<3x2xi64>, window_dimensions = array<i64: 1, 2, 1>, window_strides = array<i64: 1, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = "stablehlo.compare"(%a, %b) <{comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%p) : (tensor<f32>) -> ()
  }) : (tensor<2x12x3xf32>, tensor<2x6x3xf32>, tensor<f32>) -> tensor<2x12x3xf32>
  %y0 = mesh.shard %y to %s : tensor<2x12x3xf32>
  return %y0 : tensor<2x12x3xf32>
}

// Windows of 4 moved by 4, one per device.
// IR-LABEL: func.func @overlap_free_odd(
// IR-NOT: mesh.all_
// IR: }) : (tensor<2x4x3xf32>, tensor<2x1x3xf32>, tensor<f32>) -> tensor<2x4x3xf32>
func.func @overlap_free_odd(%x: tensor<2x16x3xf32>, %g: tensor<2x4x3xf32>) -> tensor<2x16x3xf32> {
  %s = mesh.sharding @line split_axes = [[], [0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<2x16x3xf32>
  %g0 = mesh.shard %g to %s : tensor<2x4x3xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %y = "stablehlo.select_and_scatter"(%x0, %g0, %zero) <{padding = dense<0> : tensor<3x2xi64>, window_dimensions = array<i64: 1, 4, 1>, window_strides = array<i64: 1, 4, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = "stablehlo.compare"(%a, %b) <{comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%p) : (tensor<f32>) -> ()
  }) : (tensor<2x16x3xf32>, tensor<2x4x3xf32>, tensor<f32>) -> tensor<2x16x3xf32>
  %y0 = mesh.shard %y to %s : tensor<2x16x3xf32>
  return %y0 : tensor<2x16x3xf32>
}

