// JAX's layer norm, (x - mean) * rsqrt(var + eps) * g + b with jnp.mean and
// jnp.var (Inputs/export.py; JAX writes chlo.square, a convert and a
// compare/select for the variance's divisor), rows over axis 0 and features
// over axis 1 of a 2x2 mesh: the three sums over features are all-reduced
// over axis 1, everything else stays local.
// RUN: mesh-opt --sharding-propagation --mesh-partition %S/Inputs/layernorm-2d.mlir -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %S/Inputs/layernorm-2d.mlir -q | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %S/Inputs/layernorm-2d.mlir --seed 2 -q | FileCheck %s
// CHECK: match

// IR-LABEL: func.func public @main(
// IR-SAME: %arg0: tensor<4x8xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0], [1]]>}
// IR-SAME: %arg1: tensor<8xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}1]]>}
// IR-COUNT-2: mesh.all_reduce {{.*}} mesh_axes = [1] : tensor<4xf32> -> tensor<4xf32>
// IR: "chlo.square"({{.*}}) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// IR: mesh.all_reduce {{.*}} mesh_axes = [1] : tensor<4xf32> -> tensor<4xf32>
// IR: "stablehlo.rsqrt"({{.*}}) : (tensor<4x1xf32>) -> tensor<4x1xf32>
// IR-NOT: mesh.all_
