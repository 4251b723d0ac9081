// An annotation for users written inside a loop, on a value defined outside
// it, is priced where its source is defined: partition erases it and
// reshards the source in front of the loop.  The row-split weight is then
// gathered once (768 bytes a device), where pricing the annotation once per
// iteration chose to reshard the carried activations on every one of the 3
// iterations instead (1,440).
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir 2>/dev/null
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=SIM
// RUN: mesh-opt --mesh-analysis %t.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BYTES
// SIM: match
// BYTES: max     all_gather 1           768
// CHECK: %[[W:.*]] = mesh.all_gather %arg1 on @m mesh_axes = [0] gather_axis = 0 : tensor<4x16xf32> -> tensor<16x16xf32>
// CHECK-NEXT: scf.for
// CHECK-NOT: mesh.
// CHECK: linalg.matmul ins(%{{.*}}, %[[W]] : tensor<2x16xf32>, tensor<16x16xf32>)
// CHECK-NOT: mesh.
// CHECK: return

mesh.mesh @m(shape = 4)
func.func @f(%x: tensor<8x16xf32>, %w: tensor<16x16xf32>) -> tensor<8x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %rows = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %x0 = mesh.shard %x to %rows : tensor<8x16xf32>
  %w0 = mesh.shard %w to %rows : tensor<16x16xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %x0) -> (tensor<8x16xf32>) {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8x16xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
    %w1 = mesh.shard %w0 to %rows annotate_for_users : tensor<16x16xf32>
    %m = linalg.matmul ins(%a, %w1 : tensor<8x16xf32>, tensor<16x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
    %m0 = mesh.shard %m to %rows : tensor<8x16xf32>
    scf.yield %m0 : tensor<8x16xf32>
  }
  return %r : tensor<8x16xf32>
}
