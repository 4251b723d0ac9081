// prepare-windows: a convolution or pooling read only through a slice
// computes only the kept outputs (narrow-slices), and a pad read only by an
// expand_shape that keeps each padded dimension whole pads after it
// (pads-past-reshapes).  The programs are torch-mlir's spellings of PyTorch
// convolutions; test/Sim/halo/prepare-windows.mlir runs them split.
// RUN: mesh-opt --split-input-file --prepare-windows %s | FileCheck %s
// RUN: mesh-opt --split-input-file --pass-pipeline='builtin.module(prepare-windows{narrow-slices=false pads-past-reshapes=false})' %s | FileCheck %s --check-prefix=OFF
// RUN: mesh-opt --split-input-file --prepare-windows %s -o %t.mlir
// RUN: mesh-run %t.mlir -f causal_lifted --compare-with %s --seed 1 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f causal_dilated --compare-with %s --seed 2 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f inside_source --compare-with %s --seed 3 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f argument_init --compare-with %s --seed 4 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f max_pool --compare-with %s --seed 5 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f pad_read_twice --compare-with %s --seed 6 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f pad_outside_loop --compare-with %s --seed 7 -q | FileCheck %s --check-prefix=SIM
// SIM: match

// Mamba's depthwise Conv1d(padding=3)[..., :8], lifted to 2-D: the op makes
// the 8 kept rows from an input padded before only, its bias broadcast
// into an init of the kept size.
// CHECK-LABEL: func.func @causal_lifted
// CHECK:      %[[X4:.*]] = tensor.expand_shape %arg0
// CHECK:      %[[P:.*]] = tensor.pad %[[X4]] low[0, 0, 3, 0] high[0, 0, 0, 0]
// CHECK:      } : tensor<1x2x8x1xf32> to tensor<1x2x11x1xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<1x2x8x1xf32>
// CHECK-NEXT: %[[B:.*]] = linalg.broadcast ins(%arg2 : tensor<2xf32>) outs(%[[E]] : tensor<1x2x8x1xf32>)
// CHECK-NEXT: %[[C:.*]] = linalg.depthwise_conv_2d_nchw_chw {{.*}} ins(%[[P]], %arg1 : tensor<1x2x11x1xf32>, tensor<2x4x1xf32>) outs(%[[B]] : tensor<1x2x8x1xf32>) -> tensor<1x2x8x1xf32>
// CHECK-NEXT: %[[R:.*]] = tensor.collapse_shape %[[C]] {{\[\[}}0], [1], [2, 3]] : tensor<1x2x8x1xf32> into tensor<1x2x8xf32>
// CHECK-NEXT: return %[[R]]
// OFF-LABEL: func.func @causal_lifted
// OFF: tensor.extract_slice
func.func @causal_lifted(%x: tensor<1x2x8xf32>, %w: tensor<2x4x1xf32>, %b: tensor<2xf32>) -> tensor<1x2x8xf32> {
  %zero = arith.constant 0.0 : f32
  %x4 = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape [1, 2, 8, 1] : tensor<1x2x8xf32> into tensor<1x2x8x1xf32>
  %p = tensor.pad %x4 low[0, 0, 3, 0] high[0, 0, 3, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x2x8x1xf32> to tensor<1x2x14x1xf32>
  %e = tensor.empty() : tensor<1x2x11x1xf32>
  %bias = linalg.broadcast ins(%b : tensor<2xf32>) outs(%e : tensor<1x2x11x1xf32>) dimensions = [0, 2, 3]
  %c = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x2x14x1xf32>, tensor<2x4x1xf32>) outs(%bias : tensor<1x2x11x1xf32>) -> tensor<1x2x11x1xf32>
  %c3 = tensor.collapse_shape %c [[0], [1], [2, 3]] : tensor<1x2x11x1xf32> into tensor<1x2x11xf32>
  %r = tensor.extract_slice %c3[0, 0, 0] [1, 2, 8] [1, 1, 1] : tensor<1x2x11xf32> to tensor<1x2x8xf32>
  return %r : tensor<1x2x8xf32>
}

// -----

// WaveNet's dilated causal Conv1d(kernel 2, dilation 2, padding 2)[..., :8]:
// the fill of zeros is made again at the kept size.
// CHECK-LABEL: func.func @causal_dilated
// CHECK:      %[[P:.*]] = tensor.pad %arg0 low[0, 0, 2] high[0, 0, 0]
// CHECK:      } : tensor<1x2x8xf32> to tensor<1x2x10xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<1x3x8xf32>
// CHECK-NEXT: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<1x3x8xf32>)
// CHECK-NEXT: %[[C:.*]] = linalg.conv_1d_ncw_fcw {dilations = dense<2> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%[[P]], %arg1 : tensor<1x2x10xf32>, tensor<3x2x2xf32>) outs(%[[F]] : tensor<1x3x8xf32>) -> tensor<1x3x8xf32>
// CHECK-NEXT: return %[[C]]
func.func @causal_dilated(%x: tensor<1x2x8xf32>, %w: tensor<3x2x2xf32>) -> tensor<1x3x8xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 2] high[0, 0, 2] {
  ^bb0(%i: index, %j: index, %k: index):
    tensor.yield %zero : f32
  } : tensor<1x2x8xf32> to tensor<1x2x12xf32>
  %e = tensor.empty() : tensor<1x3x10xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x10xf32>) -> tensor<1x3x10xf32>
  %c = linalg.conv_1d_ncw_fcw {dilations = dense<2> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%p, %w : tensor<1x2x12xf32>, tensor<3x2x2xf32>) outs(%z : tensor<1x3x10xf32>) -> tensor<1x3x10xf32>
  %r = tensor.extract_slice %c[0, 0, 0] [1, 3, 8] [1, 1, 1] : tensor<1x3x10xf32> to tensor<1x3x8xf32>
  return %r : tensor<1x3x8xf32>
}

// -----

// Left alone where narrowing would cut the data itself, which may split
// worse than the op did: outputs 2 to 5 of a "same" convolution read rows 1
// to 6 of its input (not the whole source), outputs of a convolution that
// reads no pad, an init the pass cannot make again (an argument), and a pad
// read twice.
// CHECK-LABEL: func.func @inside_source
// CHECK:       linalg.depthwise_conv_1d_ncw_cw {{.*}} -> tensor<1x2x8xf32>
// CHECK-NEXT:  tensor.extract_slice
func.func @inside_source(%x: tensor<1x2x8xf32>, %w: tensor<2x3xf32>) -> tensor<1x2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1] high[0, 0, 1] {
  ^bb0(%i: index, %j: index, %k: index):
    tensor.yield %zero : f32
  } : tensor<1x2x8xf32> to tensor<1x2x10xf32>
  %e = tensor.empty() : tensor<1x2x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
  %c = linalg.depthwise_conv_1d_ncw_cw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%p, %w : tensor<1x2x10xf32>, tensor<2x3xf32>) outs(%z : tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
  %r = tensor.extract_slice %c[0, 0, 2] [1, 2, 4] [1, 1, 1] : tensor<1x2x8xf32> to tensor<1x2x4xf32>
  return %r : tensor<1x2x4xf32>
}

// CHECK-LABEL: func.func @argument_init
// CHECK:       linalg.conv_1d_ncw_fcw {{.*}} -> tensor<1x4x4xf32>
// CHECK-NEXT:  tensor.extract_slice
// CHECK:       linalg.conv_1d_ncw_fcw {{.*}} -> tensor<1x4x12xf32>
// CHECK-NEXT:  tensor.extract_slice
func.func @argument_init(%x: tensor<1x2x10xf32>, %w: tensor<4x2x3xf32>, %i: tensor<1x4x4xf32>, %i2: tensor<1x4x12xf32>) -> (tensor<1x3x3xf32>, tensor<1x4x10xf32>) {
  %c = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<2> : vector<1xi64>} ins(%x, %w : tensor<1x2x10xf32>, tensor<4x2x3xf32>) outs(%i : tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %r = tensor.extract_slice %c[0, 1, 1] [1, 3, 3] [1, 1, 1] : tensor<1x4x4xf32> to tensor<1x3x3xf32>
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 2] high[0, 0, 2] {
  ^bb0(%a: index, %b: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x2x10xf32> to tensor<1x2x14xf32>
  %c2 = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%p, %w : tensor<1x2x14xf32>, tensor<4x2x3xf32>) outs(%i2 : tensor<1x4x12xf32>) -> tensor<1x4x12xf32>
  %r2 = tensor.extract_slice %c2[0, 0, 0] [1, 4, 10] [1, 1, 1] : tensor<1x4x12xf32> to tensor<1x4x10xf32>
  return %r, %r2 : tensor<1x3x3xf32>, tensor<1x4x10xf32>
}

// Max pooling padded with -inf, its first 6 outputs kept.
// CHECK-LABEL: func.func @max_pool
// CHECK:      tensor.pad %arg0 low[0, 0, 1] high[0, 0, 0]
// CHECK:      } : tensor<1x2x6xf32> to tensor<1x2x7xf32>
// CHECK:      linalg.pooling_ncw_max {{.*}} outs(%{{.*}} : tensor<1x2x6xf32>) -> tensor<1x2x6xf32>
func.func @max_pool(%x: tensor<1x2x6xf32>, %k: tensor<2xf32>) -> tensor<1x2x6xf32> {
  %lowest = arith.constant 0xFF800000 : f32
  %p = tensor.pad %x low[0, 0, 1] high[0, 0, 1] {
  ^bb0(%i: index, %j: index, %l: index):
    tensor.yield %lowest : f32
  } : tensor<1x2x6xf32> to tensor<1x2x8xf32>
  %e = tensor.empty() : tensor<1x2x7xf32>
  %z = linalg.fill ins(%lowest : f32) outs(%e : tensor<1x2x7xf32>) -> tensor<1x2x7xf32>
  %c = linalg.pooling_ncw_max {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%p, %k : tensor<1x2x8xf32>, tensor<2xf32>) outs(%z : tensor<1x2x7xf32>) -> tensor<1x2x7xf32>
  %r = tensor.extract_slice %c[0, 0, 0] [1, 2, 6] [1, 1, 1] : tensor<1x2x7xf32> to tensor<1x2x6xf32>
  return %r : tensor<1x2x6xf32>
}

// -----

// CHECK-LABEL: func.func @pad_read_twice
// CHECK:      %[[P:.*]] = tensor.pad %arg0 low[0, 0, 2] high[0, 0, 2]
// CHECK:      linalg.depthwise_conv_1d_ncw_cw {{.*}} ins(%[[P]], %arg1 : tensor<1x2x10xf32>, tensor<2x3xf32>) {{.*}} -> tensor<1x2x8xf32>
// CHECK-NEXT: tensor.extract_slice
// CHECK:      return {{.*}}, %[[P]]
func.func @pad_read_twice(%x: tensor<1x2x6xf32>, %w: tensor<2x3xf32>) -> (tensor<1x2x6xf32>, tensor<1x2x10xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 2] high[0, 0, 2] {
  ^bb0(%i: index, %j: index, %k: index):
    tensor.yield %zero : f32
  } : tensor<1x2x6xf32> to tensor<1x2x10xf32>
  %e = tensor.empty() : tensor<1x2x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
  %c = linalg.depthwise_conv_1d_ncw_cw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%p, %w : tensor<1x2x10xf32>, tensor<2x3xf32>) outs(%z : tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
  %r = tensor.extract_slice %c[0, 0, 0] [1, 2, 6] [1, 1, 1] : tensor<1x2x8xf32> to tensor<1x2x6xf32>
  return %r, %p : tensor<1x2x6xf32>, tensor<1x2x10xf32>
}

// -----

// Left as they are: a result read by more than the slice, a slice with a
// stride, a rank-reducing slice, a collapse merging two sliced-over
// dimensions of more than one element, an empty slice, and an op reading
// no element (no input channel: MLIR refuses a slice of such a tensor).
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-3: linalg.depthwise_conv_1d_ncw_cw {{.*}} -> tensor<1x2x6xf32>
// CHECK-NEXT:    tensor.extract_slice
// CHECK-NEXT:    linalg.depthwise_conv_1d_ncw_cw {{.*}} -> tensor<1x2x6xf32>
// CHECK-NEXT:    tensor.collapse_shape
// CHECK-NEXT:    tensor.extract_slice {{.*}} : tensor<1x12xf32> to tensor<1x8xf32>
// CHECK-NEXT:    linalg.depthwise_conv_1d_ncw_cw {{.*}} -> tensor<1x2x6xf32>
// CHECK-NEXT:    tensor.extract_slice {{.*}} : tensor<1x2x6xf32> to tensor<1x2x0xf32>
// CHECK-NEXT:    linalg.conv_1d_ncw_fcw {{.*}} -> tensor<1x3x6xf32>
// CHECK-NEXT:    tensor.extract_slice {{.*}} : tensor<1x3x6xf32> to tensor<1x3x4xf32>
func.func @left_alone(%x: tensor<1x2x8xf32>, %w: tensor<2x3xf32>, %o: tensor<1x2x6xf32>, %x0: tensor<1x0x8xf32>, %w0: tensor<3x0x3xf32>, %o0: tensor<1x3x6xf32>)
    -> (tensor<1x2x4xf32>, tensor<1x2x6xf32>, tensor<1x2x3xf32>, tensor<2x4xf32>, tensor<1x8xf32>, tensor<1x2x0xf32>, tensor<1x3x4xf32>) {
  %a = linalg.depthwise_conv_1d_ncw_cw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%x, %w : tensor<1x2x8xf32>, tensor<2x3xf32>) outs(%o : tensor<1x2x6xf32>) -> tensor<1x2x6xf32>
  %ra = tensor.extract_slice %a[0, 0, 0] [1, 2, 4] [1, 1, 1] : tensor<1x2x6xf32> to tensor<1x2x4xf32>
  %b = linalg.depthwise_conv_1d_ncw_cw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%x, %w : tensor<1x2x8xf32>, tensor<2x3xf32>) outs(%o : tensor<1x2x6xf32>) -> tensor<1x2x6xf32>
  %rb = tensor.extract_slice %b[0, 0, 0] [1, 2, 3] [1, 1, 2] : tensor<1x2x6xf32> to tensor<1x2x3xf32>
  %c = linalg.depthwise_conv_1d_ncw_cw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%x, %w : tensor<1x2x8xf32>, tensor<2x3xf32>) outs(%o : tensor<1x2x6xf32>) -> tensor<1x2x6xf32>
  %rc = tensor.extract_slice %c[0, 0, 0] [1, 2, 4] [1, 1, 1] : tensor<1x2x6xf32> to tensor<2x4xf32>
  %d = linalg.depthwise_conv_1d_ncw_cw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%x, %w : tensor<1x2x8xf32>, tensor<2x3xf32>) outs(%o : tensor<1x2x6xf32>) -> tensor<1x2x6xf32>
  %d2 = tensor.collapse_shape %d [[0], [1, 2]] : tensor<1x2x6xf32> into tensor<1x12xf32>
  %rd = tensor.extract_slice %d2[0, 0] [1, 8] [1, 1] : tensor<1x12xf32> to tensor<1x8xf32>
  %e = linalg.depthwise_conv_1d_ncw_cw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%x, %w : tensor<1x2x8xf32>, tensor<2x3xf32>) outs(%o : tensor<1x2x6xf32>) -> tensor<1x2x6xf32>
  %re = tensor.extract_slice %e[0, 0, 2] [1, 2, 0] [1, 1, 1] : tensor<1x2x6xf32> to tensor<1x2x0xf32>
  %f = linalg.conv_1d_ncw_fcw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%x0, %w0 : tensor<1x0x8xf32>, tensor<3x0x3xf32>) outs(%o0 : tensor<1x3x6xf32>) -> tensor<1x3x6xf32>
  %rf = tensor.extract_slice %f[0, 0, 0] [1, 3, 4] [1, 1, 1] : tensor<1x3x6xf32> to tensor<1x3x4xf32>
  return %ra, %a, %rb, %rc, %rd, %re, %rf : tensor<1x2x4xf32>, tensor<1x2x6xf32>, tensor<1x2x3xf32>, tensor<2x4xf32>, tensor<1x8xf32>, tensor<1x2x0xf32>, tensor<1x3x4xf32>
}

// -----

// torch-mlir's grouped Conv1d(groups=2, padding=1): the pad before the
// expand_shape that splits the channels into groups goes after it, where
// the convolution reads it.  A pad along a dimension the expand splits stays.
// CHECK-LABEL: func.func @grouped
// CHECK:      %[[G:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 2, 2, 8, 1] : tensor<1x4x8x1xf32> into tensor<1x2x2x8x1xf32>
// CHECK-NEXT: %[[P:.*]] = tensor.pad %[[G]] low[0, 0, 0, 1, 0] high[0, 0, 0, 1, 0]
// CHECK-NEXT: ^bb0(%{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index):
// CHECK-NEXT:   tensor.yield %{{.*}} : f32
// CHECK-NEXT: } : tensor<1x2x2x8x1xf32> to tensor<1x2x2x10x1xf32>
// CHECK:      linalg.conv_2d_ngchw_gfchw {{.*}} ins(%[[P]], %arg1 :
// OFF-LABEL: func.func @grouped
// OFF:       tensor.pad
// OFF-NEXT:  ^bb0(%{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index):
func.func @grouped(%x: tensor<1x4x8xf32>, %w: tensor<2x2x2x3x1xf32>) -> tensor<1x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %x4 = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape [1, 4, 8, 1] : tensor<1x4x8xf32> into tensor<1x4x8x1xf32>
  %p = tensor.pad %x4 low[0, 0, 1, 0] high[0, 0, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x4x8x1xf32> to tensor<1x4x10x1xf32>
  %g = tensor.expand_shape %p [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 10, 1] : tensor<1x4x10x1xf32> into tensor<1x2x2x10x1xf32>
  %e = tensor.empty() : tensor<1x2x2x8x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x2x8x1xf32>) -> tensor<1x2x2x8x1xf32>
  %c = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%g, %w : tensor<1x2x2x10x1xf32>, tensor<2x2x2x3x1xf32>) outs(%z : tensor<1x2x2x8x1xf32>) -> tensor<1x2x2x8x1xf32>
  %r = tensor.collapse_shape %c [[0], [1, 2], [3, 4]] : tensor<1x2x2x8x1xf32> into tensor<1x4x8xf32>
  return %r : tensor<1x4x8xf32>
}

// -----

// CHECK-LABEL: func.func @split_padded_dim
// CHECK:      tensor.pad %arg0 low[2] high[2]
// CHECK:      tensor.expand_shape
func.func @split_padded_dim(%x: tensor<4xf32>) -> tensor<2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[2] high[2] {
  ^bb0(%i: index):
    tensor.yield %zero : f32
  } : tensor<4xf32> to tensor<8xf32>
  %g = tensor.expand_shape %p [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  return %g : tensor<2x4xf32>
}

// -----

// Kept outputs that do not line up with the padded input (9 outputs of a
// source of 8) are left alone: narrowed, the op would split no better.
// CHECK-LABEL: func.func @not_lined_up
// CHECK:       tensor.pad %arg0 low[0, 0, 2] high[0, 0, 2]
// CHECK:       linalg.depthwise_conv_1d_ncw_cw {{.*}} -> tensor<1x2x10xf32>
// CHECK-NEXT:  tensor.extract_slice
func.func @not_lined_up(%x: tensor<1x2x8xf32>, %w: tensor<2x3xf32>) -> tensor<1x2x9xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 2] high[0, 0, 2] {
  ^bb0(%i: index, %j: index, %k: index):
    tensor.yield %zero : f32
  } : tensor<1x2x8xf32> to tensor<1x2x12xf32>
  %e = tensor.empty() : tensor<1x2x10xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x10xf32>) -> tensor<1x2x10xf32>
  %c = linalg.depthwise_conv_1d_ncw_cw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%p, %w : tensor<1x2x12xf32>, tensor<2x3xf32>) outs(%z : tensor<1x2x10xf32>) -> tensor<1x2x10xf32>
  %r = tensor.extract_slice %c[0, 0, 0] [1, 2, 9] [1, 1, 1] : tensor<1x2x10xf32> to tensor<1x2x9xf32>
  return %r : tensor<1x2x9xf32>
}

// -----

// The pad and the init are made again where they were: a pad in front of a
// loop whose body reads it stays in front of the loop.
// CHECK-LABEL: func.func @pad_outside_loop
// CHECK:       tensor.pad %arg0 low[0, 0, 2] high[0, 0, 0]
// CHECK:       scf.for
// CHECK:         linalg.fill {{.*}} -> tensor<1x2x8xf32>
// CHECK-NEXT:    linalg.depthwise_conv_1d_ncw_cw {{.*}} -> tensor<1x2x8xf32>
// CHECK-NEXT:    scf.yield
func.func @pad_outside_loop(%x: tensor<1x2x8xf32>, %w: tensor<2x3xf32>, %acc: tensor<1x2x8xf32>) -> tensor<1x2x8xf32> {
  %zero = arith.constant 0.0 : f32
  %lo = arith.constant 0 : index
  %hi = arith.constant 3 : index
  %one = arith.constant 1 : index
  %p = tensor.pad %x low[0, 0, 2] high[0, 0, 2] {
  ^bb0(%i: index, %j: index, %k: index):
    tensor.yield %zero : f32
  } : tensor<1x2x8xf32> to tensor<1x2x12xf32>
  %r = scf.for %it = %lo to %hi step %one iter_args(%a = %acc) -> (tensor<1x2x8xf32>) {
    %e = tensor.empty() : tensor<1x2x10xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x10xf32>) -> tensor<1x2x10xf32>
    %c = linalg.depthwise_conv_1d_ncw_cw {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%p, %w : tensor<1x2x12xf32>, tensor<2x3xf32>) outs(%z : tensor<1x2x10xf32>) -> tensor<1x2x10xf32>
    %s = tensor.extract_slice %c[0, 0, 0] [1, 2, 8] [1, 1, 1] : tensor<1x2x10xf32> to tensor<1x2x8xf32>
    scf.yield %s : tensor<1x2x8xf32>
  }
  return %r : tensor<1x2x8xf32>
}

// -----

// A pad of nothing is not moved.
// CHECK-LABEL: func.func @pads_nothing
// CHECK:       tensor.pad %arg0 low[0, 0] high[0, 0]
// CHECK:       tensor.expand_shape
func.func @pads_nothing(%x: tensor<4x4xf32>) -> tensor<4x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0] high[0, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<4x4xf32> to tensor<4x4xf32>
  %g = tensor.expand_shape %p [[0], [1, 2]] output_shape [4, 2, 2] : tensor<4x4xf32> into tensor<4x2x2xf32>
  return %g : tensor<4x2x2xf32>
}
