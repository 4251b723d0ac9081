// A result annotation the op does not produce ([[0], [2]] splits the
// sliced dimension, which a slice needs whole) is resharded only for the
// users reading it: an annotation for users stacked on it reads the value
// as the op produces it (propagation turns the result annotation into one
// for users).  The solver used to price the chain op -> [[0], [2]] ->
// stacked layout, which partition never runs: moving the columns' axes to
// the rows (as for a sort) then looked cheaper, and partition moved 24
// bytes a device (two permutations and an all_gather) where gathering the
// columns and slicing rows moves 12 (the partial max is then free: each
// device keeps its rows).
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=SIM
// RUN: mesh-opt --mesh-analysis %t.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BYTES
// SIM: match
// BYTES: max        all_gather 1             12
// CHECK-LABEL: func.func @f(%arg0: tensor<1x1xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}1], [2, 0]]>}) -> (tensor<1x2xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}1]], partial = max [0, 2]>}) {
// CHECK-NEXT: %[[M:.*]] = arith.maximumf %arg0, %arg0 : tensor<1x1xf32>
// CHECK-NEXT: %[[G:.*]] = mesh.all_gather %[[M]] on @mesh mesh_axes = [2, 0] gather_axis = 1 : tensor<1x1xf32> -> tensor<1x4xf32>
// CHECK-NEXT: %[[S:.*]] = tensor.extract_slice %[[G]][0, 0] [1, 2] [1, 1] : tensor<1x4xf32> to tensor<1x2xf32>
// CHECK-NEXT: %[[C:.*]] = tensor.cast %[[S]] : tensor<1x2xf32> to tensor<1x2xf32>
// CHECK-NEXT: return %[[C]] : tensor<1x2xf32>

mesh.mesh @mesh(shape = 2x4x2)
func.func @f(%arg0: tensor<4x4xf32>) -> tensor<4x2xf32> {
  %x = arith.maximumf %arg0, %arg0 : tensor<4x4xf32>
  %tiles = mesh.sharding @mesh split_axes = [[1], [2, 0]] : !mesh.sharding
  %x1 = mesh.shard %x to %tiles annotate_for_users : tensor<4x4xf32>
  %y = tensor.extract_slice %x1[0, 0] [4, 2] [1, 1] : tensor<4x4xf32> to tensor<4x2xf32>
  %blocks = mesh.sharding @mesh split_axes = [[0], [2]] : !mesh.sharding
  %y0 = mesh.shard %y to %blocks : tensor<4x2xf32>
  %max = mesh.sharding @mesh split_axes = [[1]] partial = max [0, 2] : !mesh.sharding
  %y1 = mesh.shard %y0 to %max annotate_for_users : tensor<4x2xf32>
  return %y1 : tensor<4x2xf32>
}
