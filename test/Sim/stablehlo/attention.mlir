// Attention, softmax(q k^T / sqrt(d)) v, as JAX exports it (two
// dot_generals with a batch dimension, Inputs/export.py). On a 1-D mesh q
// comes split by batch and k, v by sequence: the cost solver moves k and v
// to the batch split with one all_to_all each. On a 2x2 mesh batch is over
// axis 0 and the head dimension over axis 1: the scores are a partial sum
// over axis 1, all-reduced before the softmax.
// RUN: mesh-opt --sharding-propagation --mesh-partition %S/Inputs/attention-1d.mlir -o %t.1d.mlir
// RUN: FileCheck %s --check-prefix=IR1 < %t.1d.mlir
// RUN: mesh-run %t.1d.mlir --compare-with %S/Inputs/attention-1d.mlir -q | FileCheck %s
// RUN: mesh-opt --sharding-propagation --mesh-partition %S/Inputs/attention-2d.mlir -o %t.2d.mlir
// RUN: FileCheck %s --check-prefix=IR2 < %t.2d.mlir
// RUN: mesh-run %t.2d.mlir --compare-with %S/Inputs/attention-2d.mlir -q | FileCheck %s
// CHECK: match

// IR1-LABEL: func.func public @main(
// IR1: mesh.all_to_all %arg1 on @mesh mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<2x4x16xf32> -> tensor<1x8x16xf32>
// IR1: "stablehlo.dot_general"({{.*}}) {{.*}} : (tensor<1x8x16xf32>, tensor<1x8x16xf32>) -> tensor<1x8x8xf32>
// IR1: mesh.all_to_all %arg2 on @mesh mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<2x4x16xf32> -> tensor<1x8x16xf32>
// IR1-NOT: mesh.all_

// IR2-LABEL: func.func public @main(
// IR2: %[[S:.*]] = "stablehlo.dot_general"(%arg0, %arg1) {{.*}} : (tensor<2x8x8xf32>, tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
// IR2: mesh.all_reduce %[[S]] on @mesh mesh_axes = [1] : tensor<2x8x8xf32> -> tensor<2x8x8xf32>
// IR2: mesh.all_gather {{.*}} on @mesh mesh_axes = [1] gather_axis = 2 : tensor<2x8x8xf32> -> tensor<2x8x16xf32>
// IR2-NOT: mesh.all_
