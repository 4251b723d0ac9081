// JAX's MLP half of a transformer block in bf16 (Inputs/export.py): bf16
// matmuls, a residual add and a layer norm whose statistics JAX sums in
// f32.  On a 2x2 mesh the rows go over axis 0 and the weights over axis 1:
// the second matmul's bf16 partial sums are all-reduced once, and the
// partitioned program simulates equal to the original within bf16's
// tolerance (the simulator rounds every bf16 result; the whole program
// matches JAX's own result, test_sim_stablehlo.py).
// RUN: mesh-opt --sharding-propagation --mesh-partition %S/Inputs/block-bf16-2d.mlir -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %S/Inputs/block-bf16-2d.mlir -q | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %S/Inputs/block-bf16-2d.mlir --seed 5 -q | FileCheck %s
// CHECK: result 0: max error {{[0-9.e-]+}}
// CHECK-NEXT: match

// IR-LABEL: func.func public @main(
// IR-SAME: %arg0: tensor<4x16xbf16> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>}
// IR-SAME: %arg1: tensor<16x16xbf16> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}], [1]]>}
// IR-SAME: %arg2: tensor<16x16xbf16> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}1]]>}
// IR: "stablehlo.dot_general"(%arg0, %arg1) {{.*}} -> tensor<4x16xbf16>
// IR: %[[Y:.*]] = "stablehlo.dot_general"({{.*}}, %arg2) {{.*}} -> tensor<4x16xbf16>
// IR-NEXT: mesh.all_reduce %[[Y]] on @mesh mesh_axes = [1] : tensor<4x16xbf16> -> tensor<4x16xbf16>
// IR-NOT: mesh.all_
// IR: return
