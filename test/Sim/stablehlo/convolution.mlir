// stablehlo.convolution as JAX exports it (Inputs/export.py): a ResNet-style
// block (3x3 "same" convolution, bias, relu, 1x1 convolution) on a 2x2 mesh,
// the kernel gradient of a strided convolution in data-parallel training,
// an input gradient (the kernel flipped by stablehlo.reverse), and a
// dilated depthwise convolution.  A convolution's batch follows its
// input's batch, its output features the kernel's, and the input features
// it contracts are a sum loop; spatial dimensions and grouped features stay
// whole.
// RUN: mesh-opt --sharding-propagation --mesh-partition %S/Inputs/conv-block-2d.mlir -o %t.block.mlir 2>&1 | FileCheck %s --check-prefix=BLOCK-WARN
// RUN: FileCheck %s --check-prefix=BLOCK < %t.block.mlir
// RUN: mesh-run %t.block.mlir --compare-with %S/Inputs/conv-block-2d.mlir -q --seed 1 | FileCheck %s
// RUN: mesh-opt --sharding-propagation --mesh-partition %S/Inputs/conv-weight-grad-1d.mlir -o %t.grad.mlir
// RUN: FileCheck %s --check-prefix=GRAD < %t.grad.mlir
// RUN: mesh-run %t.grad.mlir --compare-with %S/Inputs/conv-weight-grad-1d.mlir -q --seed 2 | FileCheck %s
// RUN: mesh-opt --sharding-propagation --mesh-partition %S/Inputs/conv-input-grad-2d.mlir -o %t.input-grad.mlir 2>/dev/null
// RUN: FileCheck %s --check-prefix=INPUT-GRAD < %t.input-grad.mlir
// RUN: mesh-run %t.input-grad.mlir --compare-with %S/Inputs/conv-input-grad-2d.mlir -q --seed 4 | FileCheck %s
// RUN: mesh-opt --sharding-propagation --mesh-partition %S/Inputs/conv-depthwise-1d.mlir -o %t.depthwise.mlir
// RUN: FileCheck %s --check-prefix=DEPTHWISE < %t.depthwise.mlir
// RUN: mesh-run %t.depthwise.mlir --compare-with %S/Inputs/conv-depthwise-1d.mlir -q --seed 3 | FileCheck %s
// RUN: mesh-opt --mesh-analysis %S/Inputs/conv-weight-grad-1d.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=ANALYSIS
// CHECK: match

// mesh-analysis counts 2 flops per kernel tap (input features included) and
// output element: on each device, 2 x (2x6x3x3 outputs) x (3x3x3 taps) for
// the forward convolution, 2 x (6x3x3x3) x (2 examples x 3x3 taps) for the
// gradient's, and 324 for the elementwise ops between them.
// ANALYSIS: [0] all_reduce 1 648 2,904 11,988 0

// The kernels are small next to the activations: gathering their output
// features (432 and 80 bytes, and the bias's 16) moves less than reducing
// the second convolution's partial sums (a 2x6x6x5 piece on every device),
// so every device runs both convolutions on its batch with whole kernels.
// BLOCK-WARN: warning: function argument 1 (tensor<3x3x3x8xf32>, split_axes = {{\[\[}}], [], [], [1]]) is gathered whole on every device here: 432 bytes received per device
// BLOCK-WARN: warning: function argument 3 (tensor<1x1x8x5xf32>, split_axes = {{\[\[}}], [], [1]]) is gathered whole on every device here: 80 bytes received per device
// BLOCK-LABEL: func.func public @main(
// BLOCK: mesh.all_gather %arg1 on @mesh mesh_axes = [1] gather_axis = 3 : tensor<3x3x3x4xf32> -> tensor<3x3x3x8xf32>
// BLOCK: "stablehlo.convolution"(%arg0, %{{.*}}) {{.*}} : (tensor<2x6x6x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x6x6x8xf32>
// BLOCK: mesh.all_gather %arg3 on @mesh mesh_axes = [1] gather_axis = 2 : tensor<1x1x4x5xf32> -> tensor<1x1x8x5xf32>
// BLOCK: "stablehlo.convolution"({{.*}} : (tensor<2x6x6x8xf32>, tensor<1x1x8x5xf32>) -> tensor<2x6x6x5xf32>
// BLOCK-NOT: mesh.all_

// The gradient's convolution contracts the batch (its input features in
// these dimension numbers): each device sums its own examples, and one
// all_reduce adds the pieces, data parallelism's gradient reduction.
// GRAD-LABEL: func.func public @main(
// GRAD-SAME: %arg0: tensor<2x3x7x7xf32>
// GRAD-NOT: mesh.all_
// GRAD: %[[G:.*]] = "stablehlo.convolution"(%arg0, %{{.*}}) <{{{.*}}#stablehlo.conv<[f, b, 0, 1]x[i, o, 0, 1]->[f, b, 0, 1]>{{.*}} : (tensor<2x3x7x7xf32>, tensor<2x6x3x3xf32>) -> tensor<6x3x3x3xf32>
// GRAD: mesh.all_reduce %[[G]] on @mesh mesh_axes = [0] : tensor<6x3x3x3xf32> -> tensor<6x3x3x3xf32>
// GRAD-NOT: mesh.all_

// The flipped kernel keeps its reversed (spatial) dimensions whole; each
// device computes its batch's input gradient with the whole kernel.
// INPUT-GRAD-LABEL: func.func public @main(
// INPUT-GRAD: mesh.all_gather %arg1 on @mesh mesh_axes = [1] gather_axis = 3 : tensor<3x3x3x4xf32> -> tensor<3x3x3x8xf32>
// INPUT-GRAD: "stablehlo.reverse"({{.*}} : (tensor<3x3x3x8xf32>) -> tensor<3x3x3x8xf32>
// INPUT-GRAD-NOT: mesh.all_

// Feature groups keep the channels whole; the batch still splits.
// DEPTHWISE-LABEL: func.func public @main(
// DEPTHWISE-NOT: mesh.all_
// DEPTHWISE: feature_group_count = 4 : i64{{.*}} : (tensor<2x5x5x4xf32>, tensor<3x3x1x4xf32>) -> tensor<2x5x5x4xf32>
// DEPTHWISE-NOT: mesh.all_
