// JAX's softmax (jax.nn.softmax over the last axis, Inputs/export.py) split
// along the axis it reduces: each stablehlo.reduce leaves a partial result
// (max, then sum) that partition all-reduces before the elementwise ops
// that need it whole. On a 2x2 mesh the rows are split too.
// RUN: mesh-opt --sharding-propagation --mesh-partition %S/Inputs/softmax-1d.mlir -o %t.1d.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.1d.mlir
// RUN: mesh-run %t.1d.mlir --compare-with %S/Inputs/softmax-1d.mlir -q | FileCheck %s
// As one process per device (MPI), reading the same generic-form ops:
// RUN: mesh-run %t.1d.mlir --compare-with %S/Inputs/softmax-1d.mlir --mpi 2 -q | FileCheck %s
// RUN: mesh-opt --sharding-propagation --mesh-partition %S/Inputs/softmax-2d.mlir -o %t.2d.mlir
// RUN: FileCheck %s --check-prefix=IR2 < %t.2d.mlir
// RUN: mesh-run %t.2d.mlir --compare-with %S/Inputs/softmax-2d.mlir -q | FileCheck %s
// CHECK: match

// IR-LABEL: func.func public @main(%arg0: tensor<8x8xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}], [0]]>})
// IR: %[[M:.*]] = "stablehlo.reduce"(%arg0, %{{.*}}) <{dimensions = array<i64: 1>}>
// IR: "stablehlo.maximum"
// IR: }) : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
// IR: mesh.all_reduce %[[M]] on @mesh mesh_axes = [0] reduction = <max> : tensor<8xf32> -> tensor<8xf32>
// IR: %[[S:.*]] = "stablehlo.reduce"
// IR: "stablehlo.add"
// IR: mesh.all_reduce %[[S]] on @mesh mesh_axes = [0] : tensor<8xf32> -> tensor<8xf32>
// IR: "stablehlo.divide"({{.*}}) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
// IR-NOT: mesh.all_

// IR2-LABEL: func.func public @main(%arg0: tensor<4x8xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0], [1]]>})
// IR2: mesh.all_reduce {{.*}} mesh_axes = [1] reduction = <max> : tensor<4xf32> -> tensor<4xf32>
// IR2: mesh.all_reduce {{.*}} mesh_axes = [1] : tensor<4xf32> -> tensor<4xf32>
// IR2-NOT: mesh.all_
