// PyTorch's causal and grouped convolutions as torch-mlir writes them,
// their sequence split over 4 devices.  prepare-windows makes each one's
// convolution read its pad directly and compute only the rows the program
// keeps, so propagation keeps the sequence split and partition exchanges
// one halo: 192, 128 and 128 bytes a device, where the program as written
// moves 384 (two all_to_alls through the channels), 768 and 768 (the input
// gathered).  Each partitioned program runs equal to the original.
// RUN: mesh-opt --prepare-windows --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: mesh-run %t.mlir -f mamba --compare-with %s --seed 1 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f wavenet --compare-with %s --seed 2 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f grouped --compare-with %s --seed 3 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-opt --mesh-analysis %t.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BYTES
// RUN: mesh-opt --sharding-propagation --mesh-analysis %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BEFORE
// SIM: match

// BYTES-LABEL: @mamba on @mesh
// BYTES:       max     update_halo 1           192
// BYTES-LABEL: @wavenet on @mesh
// BYTES:       max     update_halo 1           128
// BYTES-LABEL: @grouped on @mesh
// BYTES:       max     update_halo 1           128
// BEFORE-LABEL: @mamba on @mesh
// BEFORE:       max     all_to_all 2           384
// BEFORE-LABEL: @wavenet on @mesh
// BEFORE:       max     all_gather 1, all_slice 1           768
// BEFORE-LABEL: @grouped on @mesh
// BEFORE:       max     all_gather 1, all_slice 1           768

mesh.mesh @mesh(shape = 4)

// Mamba: a depthwise Conv1d(kernel 4, padding 3)[..., :16], lifted to 2-D.
// CHECK-LABEL: func.func @mamba(
// CHECK-NOT:   mesh.all
// CHECK:       mesh.update_halo %{{.*}} on @mesh split_axes = {{\[\[}}], [], [0]] destination_halo_sizes = [3, 0] : tensor<2x8x4x1xf32> -> tensor<2x8x7x1xf32>
// CHECK-NOT:   mesh.all
// CHECK:       linalg.depthwise_conv_2d_nchw_chw {{.*}} -> tensor<2x8x4x1xf32>
// CHECK-NOT:   mesh.all
// CHECK:       return {{.*}} : tensor<2x8x4xf32>
func.func @mamba(%x: tensor<2x8x16xf32>, %w: tensor<8x4x1xf32>, %b: tensor<8xf32>) -> tensor<2x8x16xf32> {
  %seq = mesh.sharding @mesh split_axes = [[], [], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %seq annotate_for_users : tensor<2x8x16xf32>
  %zero = arith.constant 0.0 : f32
  %x4 = tensor.expand_shape %xs [[0], [1], [2, 3]] output_shape [2, 8, 16, 1] : tensor<2x8x16xf32> into tensor<2x8x16x1xf32>
  %p = tensor.pad %x4 low[0, 0, 3, 0] high[0, 0, 3, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<2x8x16x1xf32> to tensor<2x8x22x1xf32>
  %e = tensor.empty() : tensor<2x8x19x1xf32>
  %bias = linalg.broadcast ins(%b : tensor<8xf32>) outs(%e : tensor<2x8x19x1xf32>) dimensions = [0, 2, 3]
  %c = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<2x8x22x1xf32>, tensor<8x4x1xf32>) outs(%bias : tensor<2x8x19x1xf32>) -> tensor<2x8x19x1xf32>
  %c3 = tensor.collapse_shape %c [[0], [1], [2, 3]] : tensor<2x8x19x1xf32> into tensor<2x8x19xf32>
  %r = tensor.extract_slice %c3[0, 0, 0] [2, 8, 16] [1, 1, 1] : tensor<2x8x19xf32> to tensor<2x8x16xf32>
  %rs = mesh.shard %r to %seq : tensor<2x8x16xf32>
  return %rs : tensor<2x8x16xf32>
}

// WaveNet: Conv1d(kernel 2, dilation 2, padding 2)[..., :16].
// CHECK-LABEL: func.func @wavenet(
// CHECK-NOT:   mesh.all
// CHECK:       mesh.update_halo %arg0 into %{{.*}} on @mesh split_axes = {{\[\[}}], [], [0]] destination_halo_sizes = [2, 0] : tensor<2x8x4xf32> -> tensor<2x8x6xf32>
// CHECK-NOT:   mesh.all
// CHECK:       return {{.*}} : tensor<2x8x4xf32>
func.func @wavenet(%x: tensor<2x8x16xf32>, %w: tensor<8x8x2xf32>) -> tensor<2x8x16xf32> {
  %seq = mesh.sharding @mesh split_axes = [[], [], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %seq annotate_for_users : tensor<2x8x16xf32>
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %xs low[0, 0, 2] high[0, 0, 2] {
  ^bb0(%i: index, %j: index, %k: index):
    tensor.yield %zero : f32
  } : tensor<2x8x16xf32> to tensor<2x8x20xf32>
  %e = tensor.empty() : tensor<2x8x18xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x18xf32>) -> tensor<2x8x18xf32>
  %c = linalg.conv_1d_ncw_fcw {dilations = dense<2> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%p, %w : tensor<2x8x20xf32>, tensor<8x8x2xf32>) outs(%z : tensor<2x8x18xf32>) -> tensor<2x8x18xf32>
  %r = tensor.extract_slice %c[0, 0, 0] [2, 8, 16] [1, 1, 1] : tensor<2x8x18xf32> to tensor<2x8x16xf32>
  %rs = mesh.shard %r to %seq : tensor<2x8x16xf32>
  return %rs : tensor<2x8x16xf32>
}

// Conv1d(groups=2, padding=1): the pad goes after the expand_shape that
// makes the groups, and the convolution reads through it.
// CHECK-LABEL: func.func @grouped(
// CHECK-NOT:   mesh.all
// CHECK:       mesh.update_halo %{{.*}} on @mesh split_axes = {{\[\[}}], [], [], [0]] destination_halo_sizes = [1, 1] : tensor<2x2x4x4x1xf32> -> tensor<2x2x4x6x1xf32>
// CHECK-NOT:   mesh.all
// CHECK:       return {{.*}} : tensor<2x8x4xf32>
func.func @grouped(%x: tensor<2x8x16xf32>, %w: tensor<2x4x4x3x1xf32>) -> tensor<2x8x16xf32> {
  %seq = mesh.sharding @mesh split_axes = [[], [], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %seq annotate_for_users : tensor<2x8x16xf32>
  %zero = arith.constant 0.0 : f32
  %x4 = tensor.expand_shape %xs [[0], [1], [2, 3]] output_shape [2, 8, 16, 1] : tensor<2x8x16xf32> into tensor<2x8x16x1xf32>
  %p = tensor.pad %x4 low[0, 0, 1, 0] high[0, 0, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<2x8x16x1xf32> to tensor<2x8x18x1xf32>
  %g = tensor.expand_shape %p [[0], [1, 2], [3], [4]] output_shape [2, 2, 4, 18, 1] : tensor<2x8x18x1xf32> into tensor<2x2x4x18x1xf32>
  %e = tensor.empty() : tensor<2x2x4x16x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2x4x16x1xf32>) -> tensor<2x2x4x16x1xf32>
  %c = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%g, %w : tensor<2x2x4x18x1xf32>, tensor<2x4x4x3x1xf32>) outs(%z : tensor<2x2x4x16x1xf32>) -> tensor<2x2x4x16x1xf32>
  %r = tensor.collapse_shape %c [[0], [1, 2], [3, 4]] : tensor<2x2x4x16x1xf32> into tensor<2x8x16xf32>
  %rs = mesh.shard %r to %seq : tensor<2x8x16xf32>
  return %rs : tensor<2x8x16xf32>
}
