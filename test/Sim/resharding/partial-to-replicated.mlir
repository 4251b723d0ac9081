// Partial sum -> replicated on a mesh of 2: one all_reduce.  The argument
// arrives partial: mesh-run gives the global value to device 0 and zeros to
// device 1, which sum to the value the unpartitioned program sees.  Small
// integers keep the sums exact (partial-matmul.mlir has nonzero terms on every
// device).
// RUN: mesh-opt --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s --seed 1 -q | FileCheck %s
// CHECK: result 0: max error 0
// CHECK-NEXT: match

// IR-LABEL: func.func @partial_to_replicated(
// IR-SAME: %arg0: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}]], partial = sum [0]>}
// IR-SAME: -> (tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}]]>})
// IR: mesh.all_reduce
// IR: return

mesh.mesh @mesh(shape = 2)

func.func @partial_to_replicated(%arg0: tensor<4xi32>) -> tensor<4xi32> {
  %s0 = mesh.sharding @mesh split_axes = [[]] partial = sum [0] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<4xi32>
  %s1 = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<4xi32>
  return %1 : tensor<4xi32>
}
