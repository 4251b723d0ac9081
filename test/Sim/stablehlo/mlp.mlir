// JAX's MLP, jax.nn.relu(x @ w1) @ w2, exported in generic form
// (Inputs/export.py): mesh-opt and mesh-run read it without
// --allow-unregistered-dialect. On a 1-D mesh the weights are split
// (columns of w1, rows of w2) and the output is all-reduced; on a 2x2 mesh
// rows go over axis 0 and the weights over axis 1, as the README's SPMD MLP.
// RUN: mesh-opt --sharding-propagation --mesh-partition %S/Inputs/mlp-1d.mlir -o %t.1d.mlir
// RUN: FileCheck %s --check-prefix=IR1 < %t.1d.mlir
// RUN: mesh-run %t.1d.mlir --compare-with %S/Inputs/mlp-1d.mlir -q | FileCheck %s
// RUN: mesh-run %t.1d.mlir --compare-with %S/Inputs/mlp-1d.mlir --seed 7 -q | FileCheck %s
// RUN: mesh-opt --sharding-propagation --mesh-partition %S/Inputs/mlp-2d.mlir -o %t.2d.mlir
// RUN: FileCheck %s --check-prefix=IR2 < %t.2d.mlir
// RUN: mesh-run %t.2d.mlir --compare-with %S/Inputs/mlp-2d.mlir -q | FileCheck %s
// CHECK: match

// IR1-LABEL: func.func public @main(
// IR1-SAME: %arg0: tensor<8x16xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}]]>}
// IR1-SAME: %arg1: tensor<16x16xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}], [0]]>}
// IR1-SAME: %arg2: tensor<16x16xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>}
// IR1: "stablehlo.dot_general"(%arg0, %arg1) {{.*}} -> tensor<8x16xf32>
// IR1: "stablehlo.maximum"({{.*}}) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
// IR1: %[[Y:.*]] = "stablehlo.dot_general"({{.*}}, %arg2) {{.*}} -> tensor<8x16xf32>
// IR1-NEXT: %[[R:.*]] = mesh.all_reduce %[[Y]] on @mesh mesh_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
// IR1-NEXT: return %[[R]]

// IR2-LABEL: func.func public @main(
// IR2-SAME: %arg0: tensor<4x16xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>}
// IR2-SAME: %arg1: tensor<16x16xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}], [1]]>}
// IR2-SAME: %arg2: tensor<16x16xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}1]]>}
// IR2-SAME: -> (tensor<4x16xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>})
// IR2: %[[Y:.*]] = "stablehlo.dot_general"({{.*}}, %arg2) {{.*}} -> tensor<4x16xf32>
// IR2-NEXT: %[[R:.*]] = mesh.all_reduce %[[Y]] on @mesh mesh_axes = [1] : tensor<4x16xf32> -> tensor<4x16xf32>
// IR2-NEXT: return %[[R]]
// IR2-NOT: mesh.all_
