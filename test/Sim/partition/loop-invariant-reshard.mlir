// A value defined outside a loop is the same every iteration: the reshard
// an op in the loop body needs of it (here the split weight gathered for a
// matmul) goes in front of the loop, once, not in the body 3 times.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir 2>/dev/null
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=SIM
// SIM: match
// CHECK: %[[W:.*]] = mesh.all_gather %arg1 on @mesh mesh_axes = [0] gather_axis = 0 : tensor<4x16xf32> -> tensor<16x16xf32>
// CHECK-NEXT: scf.for
// CHECK-NOT: mesh.all_gather
// CHECK: linalg.matmul ins(%{{.*}}, %[[W]] : tensor<8x16xf32>, tensor<16x16xf32>)

mesh.mesh @mesh(shape = 4)
func.func @f(%x: tensor<8x16xf32>, %w: tensor<16x16xf32>) -> tensor<8x16xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %ws = mesh.shard %w to %rows : tensor<16x16xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %x) -> (tensor<8x16xf32>) {
    %e = tensor.empty() : tensor<8x16xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
    %m = linalg.matmul ins(%a, %ws : tensor<8x16xf32>, tensor<16x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
    scf.yield %m : tensor<8x16xf32>
  }
  return %r : tensor<8x16xf32>
}
