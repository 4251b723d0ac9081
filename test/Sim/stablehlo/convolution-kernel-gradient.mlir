// stablehlo.convolution whose window is wider than its outputs: a
// kernel's gradient, where the forward pass's output gradient is the
// window and the kernel's offsets are the outputs.  The window's
// positions split as a sum: each device convolves its rows (and a halo)
// with its part of the output gradient, and the partial kernels are
// all_reduced; the outputs stay whole.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f strided -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f rows_and_columns -q --seed 2 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f sequence -q --seed 3 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f uneven_window -q --seed 4 2>/dev/null | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f reversed_rows -q --seed 5 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f outputs_split -q --seed 6 | FileCheck %s --check-prefix=SIM
// SIM: match

mesh.mesh @line(shape = 4)
mesh.mesh @mesh(shape = 2x2)
mesh.mesh @pair(shape = 2)

// A strided convolution's kernel gradient (stride 2, "SAME"), as JAX
// writes it: 16 input rows over 4 devices, the 8 rows of the output
// gradient the window (dilated by 2).  Device p sums window positions 2p
// and 2p+1, which meet input rows 4p .. 4p+4 over the kernel's 3 rows:
// one halo row after its own, then one all_reduce of the kernel.
// CHECK-LABEL: func.func @strided(
// CHECK: mesh.update_halo %arg0 into %{{.*}} on @line split_axes = {{\[\[}}], [0]] destination_halo_sizes = [0, 1] : tensor<2x4x16x4xf32> -> tensor<2x5x16x4xf32>
// CHECK: "stablehlo.convolution"({{.*}}padding = dense<{{\[\[}}0, 0], [0, 1]]> : tensor<2x2xi64>{{.*}} : (tensor<2x5x16x4xf32>, tensor<2x2x8x8xf32>) -> tensor<3x3x4x8xf32>
// CHECK-NEXT: mesh.all_reduce %{{.*}} on @line mesh_axes = [0] : tensor<3x3x4x8xf32> -> tensor<3x3x4x8xf32>
// CHECK-NOT: mesh.all_
func.func @strided(%x: tensor<2x16x16x4xf32>, %dy: tensor<2x8x8x8xf32>) -> tensor<3x3x4x8xf32> {
  %s = mesh.sharding @line split_axes = [[], [0]] : !mesh.sharding
  %r = mesh.sharding @line split_axes = [[]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<2x16x16x4xf32>
  %dy0 = mesh.shard %dy to %s : tensor<2x8x8x8xf32>
  %k = "stablehlo.convolution"(%x0, %dy0) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<[[0, 1], [0, 1]]> : tensor<2x2xi64>, rhs_dilation = array<i64: 2, 2>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}> : (tensor<2x16x16x4xf32>, tensor<2x8x8x8xf32>) -> tensor<3x3x4x8xf32>
  %k0 = mesh.shard %k to %r : tensor<3x3x4x8xf32>
  return %k0 : tensor<3x3x4x8xf32>
}

// Rows over one axis and columns over the other ("SAME" padding of 1):
// a halo row and column on each side, the edges' filled with zeros.
// CHECK-LABEL: func.func @rows_and_columns(
// CHECK: mesh.update_halo %arg0 into %{{.*}} on @mesh split_axes = {{\[\[}}], [0], [1]] destination_halo_sizes = [1, 1, 1, 1] : tensor<2x4x4x3xf32> -> tensor<2x6x6x3xf32>
// CHECK: "stablehlo.convolution"({{.*}}padding = dense<0> : tensor<2x2xi64>{{.*}} : (tensor<2x6x6x3xf32>, tensor<2x4x4x5xf32>) -> tensor<3x3x3x5xf32>
// CHECK-NEXT: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0, 1] : tensor<3x3x3x5xf32> -> tensor<3x3x3x5xf32>
// CHECK-NOT: mesh.all_
func.func @rows_and_columns(%x: tensor<2x8x8x3xf32>, %dy: tensor<2x8x8x5xf32>) -> tensor<3x3x3x5xf32> {
  %s = mesh.sharding @mesh split_axes = [[], [0], [1]] : !mesh.sharding
  %r = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<2x8x8x3xf32>
  %dy0 = mesh.shard %dy to %s : tensor<2x8x8x5xf32>
  %k = "stablehlo.convolution"(%x0, %dy0) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>, rhs_dilation = array<i64: 1, 1>, window_reversal = array<i1: false, false>, window_strides = array<i64: 1, 1>}> : (tensor<2x8x8x3xf32>, tensor<2x8x8x5xf32>) -> tensor<3x3x3x5xf32>
  %k0 = mesh.shard %k to %r : tensor<3x3x3x5xf32>
  return %k0 : tensor<3x3x3x5xf32>
}

// A 1-D sequence: 2 window positions and 4 rows (2 and a halo row on
// each side) per device.
// CHECK-LABEL: func.func @sequence(
// CHECK: mesh.update_halo %arg0 into %{{.*}} on @line split_axes = {{\[\[}}], [0]] destination_halo_sizes = [1, 1] : tensor<2x2x3xf32> -> tensor<2x4x3xf32>
// CHECK: "stablehlo.convolution"({{.*}} : (tensor<2x4x3xf32>, tensor<2x2x5xf32>) -> tensor<3x3x5xf32>
// CHECK-NEXT: mesh.all_reduce %{{.*}} on @line mesh_axes = [0] : tensor<3x3x5xf32> -> tensor<3x3x5xf32>
func.func @sequence(%x: tensor<2x8x3xf32>, %dy: tensor<2x8x5xf32>) -> tensor<3x3x5xf32> {
  %s = mesh.sharding @line split_axes = [[], [0]] : !mesh.sharding
  %r = mesh.sharding @line split_axes = [[]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<2x8x3xf32>
  %dy0 = mesh.shard %dy to %s : tensor<2x8x5xf32>
  %k = "stablehlo.convolution"(%x0, %dy0) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[f, 0, b]x[i, 0, o]->[0, b, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1>, padding = dense<[[1, 1]]> : tensor<1x2xi64>, rhs_dilation = array<i64: 1>, window_reversal = array<i1: false>, window_strides = array<i64: 1>}> : (tensor<2x8x3xf32>, tensor<2x8x5xf32>) -> tensor<3x3x5xf32>
  %k0 = mesh.shard %k to %r : tensor<3x3x5xf32>
  return %k0 : tensor<3x3x5xf32>
}

// 7 window positions do not split over 4 devices: the input is gathered.
// CHECK-LABEL: func.func @uneven_window(
// CHECK: mesh.all_gather
// CHECK: "stablehlo.convolution"({{.*}} : (tensor<2x14x3xf32>, tensor<2x7x5xf32>) -> tensor<2x3x5xf32>
// CHECK-NOT: mesh.all_reduce
func.func @uneven_window(%x: tensor<2x14x3xf32>, %dy: tensor<2x7x5xf32>) -> tensor<2x3x5xf32> {
  %s = mesh.sharding @line split_axes = [[], [0]] : !mesh.sharding
  %r = mesh.sharding @line split_axes = [[]] : !mesh.sharding
  %dy0 = mesh.shard %dy to %r : tensor<2x7x5xf32>
  %x0 = mesh.shard %x to %s : tensor<2x14x3xf32>
  %k = "stablehlo.convolution"(%x0, %dy0) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[f, 0, b]x[i, 0, o]->[0, b, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1>, padding = dense<[[0, 0]]> : tensor<1x2xi64>, rhs_dilation = array<i64: 2>, window_reversal = array<i1: false>, window_strides = array<i64: 1>}> : (tensor<2x14x3xf32>, tensor<2x7x5xf32>) -> tensor<2x3x5xf32>
  %k0 = mesh.shard %k to %r : tensor<2x3x5xf32>
  return %k0 : tensor<2x3x5xf32>
}

// `strided` with its window's rows read backwards (`window_reversal`):
// device p's window positions would meet other rows, so that loop stays
// whole, and the rows' split moves to the input's channels.
// CHECK-LABEL: func.func @reversed_rows(
// CHECK-NOT: mesh.update_halo
// CHECK: mesh.all_to_all %arg0 on @line mesh_axes = [0] split_axis = 3 concat_axis = 1 : tensor<2x4x16x4xf32> -> tensor<2x16x16x1xf32>
// CHECK: mesh.all_gather %arg1 on @line mesh_axes = [0] gather_axis = 1 : tensor<2x2x8x8xf32> -> tensor<2x8x8x8xf32>
// CHECK-NOT: mesh.all_reduce
func.func @reversed_rows(%x: tensor<2x16x16x4xf32>, %dy: tensor<2x8x8x8xf32>) -> tensor<3x3x4x8xf32> {
  %s = mesh.sharding @line split_axes = [[], [0]] : !mesh.sharding
  %r = mesh.sharding @line split_axes = [[]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<2x16x16x4xf32>
  %dy0 = mesh.shard %dy to %s : tensor<2x8x8x8xf32>
  %k = "stablehlo.convolution"(%x0, %dy0) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<[[0, 1], [0, 1]]> : tensor<2x2xi64>, rhs_dilation = array<i64: 2, 2>, window_reversal = array<i1: true, false>, window_strides = array<i64: 1, 1>}> : (tensor<2x16x16x4xf32>, tensor<2x8x8x8xf32>) -> tensor<3x3x4x8xf32>
  %k0 = mesh.shard %k to %r : tensor<3x3x4x8xf32>
  return %k0 : tensor<3x3x4x8xf32>
}

// 5 window positions beside 4 outputs (stride 3, feature groups of 1): the
// window splits evenly over no mesh the outputs do not, so the outputs
// split (over 2, with halos) and the window stays whole.
// CHECK-LABEL: func.func @outputs_split(
// CHECK: mesh.update_halo %arg0 into %{{.*}} on @pair split_axes = {{\[\[}}], [0]] destination_halo_sizes = [2, 2] : tensor<6x5x1xf32> -> tensor<6x9x1xf32>
// CHECK: "stablehlo.convolution"({{.*}} : (tensor<6x8x1xf32>, tensor<2x5x3xf32>) -> tensor<2x1x3xf32>
// CHECK-NOT: mesh.all_reduce
func.func @outputs_split(%x: tensor<6x10x1xf32>, %dy: tensor<2x5x3xf32>) -> tensor<4x1x3xf32> {
  %sx = mesh.sharding @pair split_axes = [[], [0]] : !mesh.sharding
  %sk = mesh.sharding @pair split_axes = [[], [0]] : !mesh.sharding
  %x0 = mesh.shard %x to %sx : tensor<6x10x1xf32>
  %dy0 = mesh.shard %dy to %sk : tensor<2x5x3xf32>
  %k = "stablehlo.convolution"(%x0, %dy0) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[f, 0, b]x[i, 0, o]->[0, b, f]>, feature_group_count = 3 : i64, lhs_dilation = array<i64: 1>, padding = dense<[[2, 3]]> : tensor<1x2xi64>, rhs_dilation = array<i64: 1>, window_reversal = array<i1: false>, window_strides = array<i64: 3>}> : (tensor<6x10x1xf32>, tensor<2x5x3xf32>) -> tensor<4x1x3xf32>
  %r = mesh.sharding @pair split_axes = [[0]] : !mesh.sharding
  %k0 = mesh.shard %k to %r : tensor<4x1x3xf32>
  return %k0 : tensor<4x1x3xf32>
}
