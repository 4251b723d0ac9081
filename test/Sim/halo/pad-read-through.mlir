// A linalg convolution, pooling or stencil reading a `tensor.pad` of its
// input through windows along every dimension the pad pads (torch-mlir's
// conv2d(padding=1): tensor.pad low 1 high 1 + linalg.conv_2d_nhwc_hwcf)
// reads through the pad: its rule describes the pad's source, each window's
// extent the source's and its offset moved back by the low padding, as an
// op that pads.  The split rows then stay split: propagation writes the
// halos on the pad's operand (the pad gets no option and its result no
// annotation), and partition cuts each device's window out of the source's
// halo'd piece, filling the rows outside the tensor with the pad's value
// (0, or -inf for max pooling) and padding the dimensions it does not split
// as the pad did (the pad, copied onto the window).  One update_halo where
// the dimension was gathered or moved (all_to_all) before.  A pad with a
// second user, or one that also pads a dimension read plainly, is left as
// it was.
// RUN: mesh-opt --sharding-propagation %s | FileCheck %s --check-prefix=PROP
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: mesh-run %t.mlir -f depthwise --compare-with %s --seed 1 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f conv_rows --compare-with %s --seed 2 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f conv_2x2 --compare-with %s --seed 3 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f causal --compare-with %s --seed 4 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f maxpool --compare-with %s --seed 5 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f strided --compare-with %s --seed 6 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f two_users --compare-with %s --seed 7 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f channels --compare-with %s --seed 8 -q 2>/dev/null | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f shifted --compare-with %s --seed 9 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f partial_padded_by_one --compare-with %s --seed 10 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f uneven_rows --compare-with %s --seed 11 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f wide_kernel --compare-with %s --seed 12 -q | FileCheck %s --check-prefix=SIM
// SIM: match

// PROP-LABEL: func.func @depthwise(
// PROP-NEXT: %[[H:.*]] = mesh.sharding @m split_axes = {{\[\[}}0]] halo_sizes = [1, 1] : !mesh.sharding
// PROP-NEXT: %[[OUT:.*]] = mesh.sharding @m split_axes = {{\[\[}}0]] : !mesh.sharding
// PROP-NEXT: %[[S:.*]] = mesh.sharding @m split_axes = {{\[\[}}0]] : !mesh.sharding
// PROP-NEXT: %[[R:.*]] = mesh.sharding @m split_axes = {{\[\[}}]] : !mesh.sharding
// PROP-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// PROP-NEXT: %[[XS:.*]] = mesh.shard %arg0 to %[[S]] annotate_for_users : tensor<16x4xf32>
// PROP-NEXT: %[[WS:.*]] = mesh.shard %arg1 to %[[R]] annotate_for_users : tensor<3x4xf32>
// PROP-NEXT: %[[XH:.*]] = mesh.shard %[[XS]] to %[[H]] annotate_for_users : tensor<16x4xf32>
// PROP-NEXT: %[[P:.*]] = tensor.pad %[[XH]] low[1, 0] high[1, 0] {
// PROP:      } : tensor<16x4xf32> to tensor<18x4xf32>
// PROP-NEXT: %[[E:.*]] = tensor.empty() : tensor<16x4xf32>
// PROP-NEXT: %[[F:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<16x4xf32>) -> tensor<16x4xf32>
// PROP-NEXT: %[[FS:.*]] = mesh.shard %[[F]] to %[[OUT]] annotate_for_users : tensor<16x4xf32>
// PROP-NEXT: %[[Y:.*]] = linalg.generic {{.*}}ins(%[[P]], %[[WS]] : tensor<18x4xf32>, tensor<3x4xf32>) outs(%[[FS]] : tensor<16x4xf32>) attrs = {mesh.sharding_option = #mesh.sharding<@m, {{\[\[}}0]]>} {
// PROP:      } -> tensor<16x4xf32>
// PROP-NEXT: %[[YS:.*]] = mesh.shard %[[Y]] to %[[S]] : tensor<16x4xf32>
// PROP-NEXT: return %[[YS]] : tensor<16x4xf32>

// The local stencils read their windows from the first row (@shifted's
// constant dropped): no map adds a constant.
// CHECK: #map = affine_map<(d0, d1, d2) -> (d0 + d2, d1)>
// CHECK-NOT: + 1
// CHECK-LABEL: func.func @depthwise(%arg0: tensor<4x4xf32> {{.*}}, %arg1: tensor<3x4xf32> {{.*}}) -> (tensor<4x4xf32> {{.*}}) {
// CHECK-NEXT:  %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:  %[[E:.*]] = tensor.empty() : tensor<6x4xf32>
// CHECK-NEXT:  %[[X:.*]] = mesh.update_halo %arg0 into %[[E]] on @m split_axes = {{\[\[}}0]] destination_halo_sizes = [1, 1] : tensor<4x4xf32> -> tensor<6x4xf32>
// CHECK:       %[[ROWS:.*]] = tensor.extract_slice %[[X]][%{{.*}}, 0] [%{{.*}}, 4] [1, 1] : tensor<6x4xf32> to tensor<?x4xf32>
// CHECK-NEXT:  %[[E2:.*]] = tensor.empty() : tensor<6x4xf32>
// CHECK-NEXT:  %[[F:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E2]] : tensor<6x4xf32>) -> tensor<6x4xf32>
// CHECK-NEXT:  %[[WIN:.*]] = tensor.insert_slice %[[ROWS]] into %[[F]][%{{.*}}, 0] [%{{.*}}, 4] [1, 1] : tensor<?x4xf32> into tensor<6x4xf32>
// CHECK-NEXT:  linalg.generic {{.*}} ins(%[[WIN]], %arg1 : tensor<6x4xf32>, tensor<3x4xf32>) outs(%{{.*}} : tensor<4x4xf32>)
// CHECK-NOT:   tensor.pad
// CHECK:       return

// PROP-LABEL: func.func @conv_rows(
// PROP: mesh.sharding @m split_axes = {{\[\[}}], [0]] halo_sizes = [1, 1]
// CHECK-LABEL: func.func @conv_rows(
// CHECK:      mesh.update_halo %arg0 into %{{.*}} split_axes = {{\[\[}}], [0]] destination_halo_sizes = [1, 1] : tensor<1x4x8x3xf32> -> tensor<1x6x8x3xf32>
// CHECK:      %[[WIN:.*]] = tensor.insert_slice %{{.*}} into %{{.*}} : tensor<1x?x8x3xf32> into tensor<1x6x8x3xf32>
// CHECK-NEXT: %[[P:.*]] = tensor.pad %[[WIN]] low[0, 0, 1, 0] high[0, 0, 1, 0] {
// CHECK:      } : tensor<1x6x8x3xf32> to tensor<1x6x10x3xf32>
// CHECK-NEXT: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[P]], %arg1 : tensor<1x6x10x3xf32>, tensor<3x3x3x4xf32>) {{.*}} -> tensor<1x4x8x4xf32>

// PROP-LABEL: func.func @conv_2x2(
// PROP: mesh.sharding @m22 split_axes = {{\[\[}}], [0], [1]] halo_sizes = [1, 1, 1, 1]
// CHECK-LABEL: func.func @conv_2x2(
// CHECK:      mesh.update_halo %arg0 into %{{.*}} destination_halo_sizes = [1, 1, 1, 1] : tensor<1x4x4x3xf32> -> tensor<1x6x6x3xf32>
// CHECK:      %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: tensor.empty() : tensor<1x6x6x3xf32>
// CHECK-NEXT: %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%{{.*}} : tensor<1x6x6x3xf32>)
// CHECK-NEXT: %[[WIN:.*]] = tensor.insert_slice %{{.*}} into %[[F]]
// CHECK-NEXT: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[WIN]], %arg1 : tensor<1x6x6x3xf32>, tensor<3x3x3x4xf32>) {{.*}} -> tensor<1x4x4x4xf32>

// PROP-LABEL: func.func @causal(
// PROP: mesh.sharding @m split_axes = {{\[\[}}], [0]] halo_sizes = [2, 0]
// CHECK-LABEL: func.func @causal(
// CHECK:      mesh.update_halo %arg0 into %{{.*}} destination_halo_sizes = [2, 0] : tensor<1x4x4xf32> -> tensor<1x6x4xf32>
// CHECK:      linalg.conv_1d_nwc_wcf {{.*}} ins(%{{.*}}, %arg1 : tensor<1x6x4xf32>, tensor<3x4x4xf32>) {{.*}} -> tensor<1x4x4xf32>

// PROP-LABEL: func.func @maxpool(
// PROP: mesh.sharding @m split_axes = {{\[\[}}], [0]] halo_sizes = [1, 1]
// CHECK-LABEL: func.func @maxpool(
// CHECK:      %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK:      mesh.update_halo %arg0 into %{{.*}} destination_halo_sizes = [1, 1] : tensor<1x4x8x3xf32> -> tensor<1x6x8x3xf32>
// CHECK:      linalg.fill ins(%[[NINF]] : f32) outs(%{{.*}} : tensor<1x6x8x3xf32>)
// CHECK:      tensor.pad %{{.*}} low[0, 0, 1, 0] high[0, 0, 1, 0] {
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tensor.yield %[[NINF]] : f32
// CHECK:      linalg.pooling_nhwc_max {{.*}} -> tensor<1x4x8x3xf32>

// PROP-LABEL: func.func @strided(
// PROP: mesh.sharding @m split_axes = {{\[\[}}], [0]] halo_sizes = [1, 0]
// CHECK-LABEL: func.func @strided(
// CHECK:      mesh.update_halo %arg0 into %{{.*}} destination_halo_sizes = [1, 0] : tensor<1x4x8x3xf32> -> tensor<1x5x8x3xf32>
// CHECK:      linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.*}}, %arg1 : tensor<1x5x10x3xf32>, tensor<3x3x3x4xf32>) {{.*}} -> tensor<1x2x4x4xf32>

// Not read through (as before): the pad has an option and a result
// annotation of its own, and no halos anywhere.
// PROP-LABEL: func.func @two_users(
// PROP-NOT: halo_sizes
// PROP: tensor.pad
// PROP: } {mesh.sharding_option = #mesh.sharding<@m, {{\[\[}}], [0]]>} : tensor<16x4xf32> to tensor<18x4xf32>
// PROP-NEXT: mesh.shard %padded
// CHECK-LABEL: func.func @two_users(
// CHECK-NOT: update_halo
// CHECK: mesh.all_to_all
// CHECK: tensor.pad
// PROP-LABEL: func.func @channels(
// PROP-NOT: halo_sizes
// PROP: tensor.pad
// PROP: } {mesh.sharding_option = #mesh.sharding<@m, []>} : tensor<16x4xf32> to tensor<18x6xf32>
// PROP-NEXT: mesh.shard %padded
// PROP-NOT: halo_sizes
// CHECK-LABEL: func.func @channels(
// CHECK-NOT: update_halo
// CHECK: mesh.all_gather
// CHECK: tensor.pad %{{.*}} low[1, 1] high[1, 1]

mesh.mesh @m(shape = 4)
mesh.mesh @m22(shape = 2x2)

#x1 = affine_map<(i, c, k) -> (i + k, c)>
#w1 = affine_map<(i, c, k) -> (k, c)>
#o1 = affine_map<(i, c, k) -> (i, c)>

// 1-D depthwise convolution, kernel 3, "same" padding (torch-mlir's Conv1d(groups=C, padding=1))
func.func @depthwise(%x: tensor<16x4xf32>, %w: tensor<3x4xf32>) -> tensor<16x4xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %r = mesh.sharding @m split_axes = [[]] : !mesh.sharding
  %zero = arith.constant 0.0 : f32
  %xs = mesh.shard %x to %s annotate_for_users : tensor<16x4xf32>
  %ws = mesh.shard %w to %r annotate_for_users : tensor<3x4xf32>
  %p = tensor.pad %xs low[1, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<16x4xf32> to tensor<18x4xf32>
  %e = tensor.empty() : tensor<16x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x4xf32>) -> tensor<16x4xf32>
  %y = linalg.generic {indexing_maps = [#x1, #w1, #o1], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %ws : tensor<18x4xf32>, tensor<3x4xf32>) outs(%f : tensor<16x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s2 = arith.addf %m, %acc : f32
    linalg.yield %s2 : f32
  } -> tensor<16x4xf32>
  %ys = mesh.shard %y to %s : tensor<16x4xf32>
  return %ys : tensor<16x4xf32>
}

// 2-D convolution 3x3, "same" padding, rows over 4 devices
func.func @conv_rows(%x: tensor<1x16x8x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<1x16x8x4xf32> {
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %zero = arith.constant 0.0 : f32
  %xs = mesh.shard %x to %s annotate_for_users : tensor<1x16x8x3xf32>
  %p = tensor.pad %xs low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%n: index, %i: index, %j: index, %c: index):
    tensor.yield %zero : f32
  } : tensor<1x16x8x3xf32> to tensor<1x18x10x3xf32>
  %e = tensor.empty() : tensor<1x16x8x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x8x4xf32>) -> tensor<1x16x8x4xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x18x10x3xf32>, tensor<3x3x3x4xf32>) outs(%f : tensor<1x16x8x4xf32>) -> tensor<1x16x8x4xf32>
  %ys = mesh.shard %y to %s : tensor<1x16x8x4xf32>
  return %ys : tensor<1x16x8x4xf32>
}

// the same over rows and columns of a 2x2 mesh (the pad's value made in its body)
func.func @conv_2x2(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32> {
  %s = mesh.sharding @m22 split_axes = [[], [0], [1]] : !mesh.sharding
  %zero = arith.constant 0.0 : f32
  %xs = mesh.shard %x to %s annotate_for_users : tensor<1x8x8x3xf32>
  %p = tensor.pad %xs low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%n: index, %i: index, %j: index, %c: index):
    %z = arith.constant 0.0 : f32
    tensor.yield %z : f32
  } : tensor<1x8x8x3xf32> to tensor<1x10x10x3xf32>
  %e = tensor.empty() : tensor<1x8x8x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x10x10x3xf32>, tensor<3x3x3x4xf32>) outs(%f : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %ys = mesh.shard %y to %s : tensor<1x8x8x4xf32>
  return %ys : tensor<1x8x8x4xf32>
}

// causal convolution: kernel 3 padded 2 rows before and none after
func.func @causal(%x: tensor<1x16x4xf32>, %w: tensor<3x4x4xf32>) -> tensor<1x16x4xf32> {
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %zero = arith.constant 0.0 : f32
  %xs = mesh.shard %x to %s annotate_for_users : tensor<1x16x4xf32>
  %p = tensor.pad %xs low[0, 2, 0] high[0, 0, 0] {
  ^bb0(%n: index, %i: index, %c: index):
    tensor.yield %zero : f32
  } : tensor<1x16x4xf32> to tensor<1x18x4xf32>
  %e = tensor.empty() : tensor<1x16x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x4xf32>) -> tensor<1x16x4xf32>
  %y = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
      ins(%p, %w : tensor<1x18x4xf32>, tensor<3x4x4xf32>) outs(%f : tensor<1x16x4xf32>) -> tensor<1x16x4xf32>
  %ys = mesh.shard %y to %s : tensor<1x16x4xf32>
  return %ys : tensor<1x16x4xf32>
}

// max pooling 3x3, stride 1, padded with -inf (torch's MaxPool2d(3, 1, padding=1))
func.func @maxpool(%x: tensor<1x16x8x3xf32>) -> tensor<1x16x8x3xf32> {
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %ninf = arith.constant 0xFF800000 : f32
  %xs = mesh.shard %x to %s annotate_for_users : tensor<1x16x8x3xf32>
  %p = tensor.pad %xs low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%n: index, %i: index, %j: index, %c: index):
    tensor.yield %ninf : f32
  } : tensor<1x16x8x3xf32> to tensor<1x18x10x3xf32>
  %k = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<1x16x8x3xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x16x8x3xf32>) -> tensor<1x16x8x3xf32>
  %y = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %k : tensor<1x18x10x3xf32>, tensor<3x3xf32>) outs(%f : tensor<1x16x8x3xf32>) -> tensor<1x16x8x3xf32>
  %ys = mesh.shard %y to %s : tensor<1x16x8x3xf32>
  return %ys : tensor<1x16x8x3xf32>
}

// stride 2, kernel 3, padding 1: 16 rows to 8
func.func @strided(%x: tensor<1x16x8x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<1x8x4x4xf32> {
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %zero = arith.constant 0.0 : f32
  %xs = mesh.shard %x to %s annotate_for_users : tensor<1x16x8x3xf32>
  %p = tensor.pad %xs low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%n: index, %i: index, %j: index, %c: index):
    tensor.yield %zero : f32
  } : tensor<1x16x8x3xf32> to tensor<1x18x10x3xf32>
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %w : tensor<1x18x10x3xf32>, tensor<3x3x3x4xf32>) outs(%f : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %ys = mesh.shard %y to %s : tensor<1x8x4x4xf32>
  return %ys : tensor<1x8x4x4xf32>
}

// not read through: the pad has a second user
func.func @two_users(%x: tensor<16x4xf32>, %w: tensor<3x4xf32>) -> (tensor<16x4xf32>, tensor<18x4xf32>) {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %zero = arith.constant 0.0 : f32
  %xs = mesh.shard %x to %s annotate_for_users : tensor<16x4xf32>
  %p = tensor.pad %xs low[1, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<16x4xf32> to tensor<18x4xf32>
  %e = tensor.empty() : tensor<16x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x4xf32>) -> tensor<16x4xf32>
  %y = linalg.generic {indexing_maps = [#x1, #w1, #o1], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %w : tensor<18x4xf32>, tensor<3x4xf32>) outs(%f : tensor<16x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s2 = arith.addf %m, %acc : f32
    linalg.yield %s2 : f32
  } -> tensor<16x4xf32>
  %ys = mesh.shard %y to %s : tensor<16x4xf32>
  return %ys, %p : tensor<16x4xf32>, tensor<18x4xf32>
}

// not read through: the pad also pads the channels, which the op reads plainly
func.func @channels(%x: tensor<16x4xf32>, %w: tensor<3x6xf32>) -> tensor<16x6xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %zero = arith.constant 0.0 : f32
  %xs = mesh.shard %x to %s annotate_for_users : tensor<16x4xf32>
  %p = tensor.pad %xs low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<16x4xf32> to tensor<18x6xf32>
  %e = tensor.empty() : tensor<16x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x6xf32>) -> tensor<16x6xf32>
  %y = linalg.generic {indexing_maps = [#x1, #w1, #o1], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %w : tensor<18x6xf32>, tensor<3x6xf32>) outs(%f : tensor<16x6xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s2 = arith.addf %m, %acc : f32
    linalg.yield %s2 : f32
  } -> tensor<16x6xf32>
  %ys = mesh.shard %y to %s : tensor<16x6xf32>
  return %ys : tensor<16x6xf32>
}

// a stencil whose map adds a constant (rows i + k + 1 of a pad of 2 each
// side): the local map drops it, reading from the window's first row
// PROP-LABEL: func.func @shifted(
// PROP: mesh.sharding @m split_axes = {{\[\[}}0]] halo_sizes = [1, 1]
// CHECK-LABEL: func.func @shifted(
// CHECK: mesh.update_halo %arg0 into %{{.*}} destination_halo_sizes = [1, 1] : tensor<4x4xf32> -> tensor<6x4xf32>
// CHECK: linalg.generic {indexing_maps = [#[[M:.*]], #{{.*}}, #{{.*}}]{{.*}} ins(%{{.*}}, %arg1 : tensor<6x4xf32>, tensor<3x4xf32>)
#xs = affine_map<(i, c, k) -> (i + k + 1, c)>
func.func @shifted(%x: tensor<16x4xf32>, %w: tensor<3x4xf32>) -> tensor<16x4xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %zero = arith.constant 0.0 : f32
  %xs = mesh.shard %x to %s annotate_for_users : tensor<16x4xf32>
  %p = tensor.pad %xs low[2, 0] high[2, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<16x4xf32> to tensor<20x4xf32>
  %e = tensor.empty() : tensor<16x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x4xf32>) -> tensor<16x4xf32>
  %y = linalg.generic {indexing_maps = [#xs, #w1, #o1], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %w : tensor<20x4xf32>, tensor<3x4xf32>) outs(%f : tensor<16x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s2 = arith.addf %m, %acc : f32
    linalg.yield %s2 : f32
  } -> tensor<16x4xf32>
  %ys = mesh.shard %y to %s : tensor<16x4xf32>
  return %ys : tensor<16x4xf32>
}

// A partial sum padded with 1 and summed over windows: the stencil's body
// is linear, but a pad read through is never read as terms (each device
// would pad its terms with 1, and the total would hold 4 where the pad has
// 1): the sum is reduced and scattered first, then its halos exchanged.
// PROP-LABEL: func.func @partial_padded_by_one(
// PROP: linalg.generic {{.*}} attrs = {mesh.sharding_option = #mesh.sharding<@m, {{\[\[}}0]]>}
// CHECK-LABEL: func.func @partial_padded_by_one(
// CHECK: mesh.reduce_scatter %{{.*}} on @m mesh_axes = [0] scatter_axis = 0 : tensor<16x4xf32> -> tensor<4x4xf32>
// CHECK: mesh.update_halo %{{.*}} split_axes = {{\[\[}}0]] destination_halo_sizes = [1, 1] : tensor<4x4xf32> -> tensor<6x4xf32>
// CHECK-NOT: mesh.all_reduce
// CHECK: return
func.func @partial_padded_by_one(%a: tensor<16x8xf32>, %b: tensor<8x4xf32>, %w: tensor<3x4xf32>) -> tensor<16x4xf32> {
  %cols = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %rows = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %sum = mesh.sharding @m split_axes = [[]] partial = sum [0] : !mesh.sharding
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %as = mesh.shard %a to %cols annotate_for_users : tensor<16x8xf32>
  %e0 = tensor.empty() : tensor<16x4xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<16x4xf32>) -> tensor<16x4xf32>
  %x = linalg.matmul ins(%as, %b : tensor<16x8xf32>, tensor<8x4xf32>) outs(%f0 : tensor<16x4xf32>) -> tensor<16x4xf32>
  %xp = mesh.shard %x to %sum : tensor<16x4xf32>
  %p = tensor.pad %xp low[1, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %one : f32
  } : tensor<16x4xf32> to tensor<18x4xf32>
  %e = tensor.empty() : tensor<16x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x4xf32>) -> tensor<16x4xf32>
  %y = linalg.generic {indexing_maps = [#x1, #w1, #o1], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %w : tensor<18x4xf32>, tensor<3x4xf32>) outs(%f : tensor<16x4xf32>) {
  ^bb0(%in: f32, %unused: f32, %acc: f32):
    %s2 = arith.addf %in, %acc : f32
    linalg.yield %s2 : f32
  } -> tensor<16x4xf32>
  %ys = mesh.shard %y to %rows : tensor<16x4xf32>
  return %ys : tensor<16x4xf32>
}

// Where halos cannot serve (rows the mesh does not divide) or cost more
// than moving the split (a 13-wide kernel, halos of 6 rows on pieces of 4),
// the options that move the rows' axis to the columns, which the pad
// offered when it was an op of its own, are still weighed: two all_to_alls
// (384 bytes), where a gather (768) or the wide halos (512) would be chosen
// without them.
// PROP-LABEL: func.func @uneven_rows(
// PROP: linalg.generic {{.*}} attrs = {mesh.sharding_option = #mesh.sharding<@m, {{\[\[}}], [0]]>}
// CHECK-LABEL: func.func @uneven_rows(
// CHECK-NOT: mesh.all_gather
// CHECK-NOT: mesh.update_halo
// CHECK: mesh.all_to_all
// CHECK: mesh.all_to_all
// CHECK: return
func.func @uneven_rows(%x: tensor<15x4xf32>, %w: tensor<3x4xf32>) -> tensor<15x4xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %zero = arith.constant 0.0 : f32
  %v = arith.constant 1.5 : f32
  %xs = mesh.shard %x to %s annotate_for_users : tensor<15x4xf32>
  %p = tensor.pad %xs low[1, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<15x4xf32> to tensor<17x4xf32>
  %e = tensor.empty() : tensor<15x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<15x4xf32>) -> tensor<15x4xf32>
  %y = linalg.generic {indexing_maps = [#x1, #w1, #o1], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %w : tensor<17x4xf32>, tensor<3x4xf32>) outs(%f : tensor<15x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s2 = arith.addf %m, %acc : f32
    linalg.yield %s2 : f32
  } -> tensor<15x4xf32>
  %ys = mesh.shard %y to %s : tensor<15x4xf32>
  return %ys : tensor<15x4xf32>
}

// PROP-LABEL: func.func @wide_kernel(
// PROP: linalg.generic {{.*}} attrs = {mesh.sharding_option = #mesh.sharding<@m, {{\[\[}}], [0]]>}
// CHECK-LABEL: func.func @wide_kernel(
// CHECK-NOT: mesh.update_halo
// CHECK: mesh.all_to_all
// CHECK: mesh.all_to_all
// CHECK: return
#x13 = affine_map<(i, c, k) -> (i + k, c)>
func.func @wide_kernel(%x: tensor<16x4xf32>, %w: tensor<13x4xf32>) -> tensor<16x4xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %zero = arith.constant 0.0 : f32
  %v = arith.constant 0.5 : f32
  %xs = mesh.shard %x to %s annotate_for_users : tensor<16x4xf32>
  %p = tensor.pad %xs low[6, 0] high[6, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<16x4xf32> to tensor<28x4xf32>
  %e = tensor.empty() : tensor<16x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x4xf32>) -> tensor<16x4xf32>
  %y = linalg.generic {indexing_maps = [#x13, #w1, #o1], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %w : tensor<28x4xf32>, tensor<13x4xf32>) outs(%f : tensor<16x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s2 = arith.addf %m, %acc : f32
    linalg.yield %s2 : f32
  } -> tensor<16x4xf32>
  %ys = mesh.shard %y to %s : tensor<16x4xf32>
  return %ys : tensor<16x4xf32>
}
