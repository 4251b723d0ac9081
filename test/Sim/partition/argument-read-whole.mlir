// An argument without a layout of its own arrives, after partition, in the
// layout all its annotations for users agree on.  The solver prices it as
// arriving whole (slices of it are free), so when propagation's only
// annotation for it asks for columns and an op the solver leaves alone
// (nothing around the reduce has a layout) reads the argument itself, the
// argument arrived split and the reduce gathered it (192 bytes a device)
// for a plan the solver priced at nothing.  Such an argument keeps arriving
// whole: the transpose slices its columns, and nothing moves.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=SIM
// RUN: mesh-opt --mesh-analysis %t.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BYTES
// SIM: match
// BYTES: max     all_slice 1             0
// CHECK-LABEL: func.func @f(%arg0: tensor<8x8xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}]]>}) -> (tensor<8xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}]]>}, tensor<2x8xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>}) {
// CHECK-NOT: mesh.all_gather
// CHECK: %[[R:.*]] = linalg.reduce ins(%arg0 : tensor<8x8xf32>)
// CHECK: %[[X:.*]] = mesh.all_slice %arg0 on @mesh mesh_axes = [0] slice_axis = 1 : tensor<8x8xf32> -> tensor<8x2xf32>
// CHECK: %[[T:.*]] = linalg.transpose ins(%[[X]] : tensor<8x2xf32>) outs(%{{.*}} : tensor<2x8xf32>) permutation = [1, 0]
// CHECK-NEXT: return %[[R]], %[[T]] : tensor<8xf32>, tensor<2x8xf32>

mesh.mesh @mesh(shape = 4)
func.func @f(%x: tensor<8x8xf32>) -> (tensor<8xf32>, tensor<8x8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %zero = arith.constant 0.0 : f32
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.reduce ins(%x : tensor<8x8xf32>) outs(%z : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %e2 = tensor.empty() : tensor<8x8xf32>
  %t = linalg.transpose ins(%x : tensor<8x8xf32>) outs(%e2 : tensor<8x8xf32>) permutation = [1, 0]
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %t0 = mesh.shard %t to %rows : tensor<8x8xf32>
  return %r, %t0 : tensor<8xf32>, tensor<8x8xf32>
}
