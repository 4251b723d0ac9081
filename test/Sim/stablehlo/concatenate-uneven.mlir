// Joining values along one dimension while another is cut into pieces of
// unequal sizes (10 rows over 4 devices, cut 3, 3, 3, 1 as XLA cuts them;
// 7 positions over 2, cut 3 and 4) moves nothing: each device joins its own
// rows, the result typed dynamic along the cut like its operands. Before,
// the solver kept concatenations to even pieces and gathered the split
// operands whole (144 bytes a device in @cut_rows, 64 in @token_appended).
// Joining along the cut dimension itself still needs its whole length: the
// solver moves the split to the columns instead (one all_to_all).
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-opt --mesh-analysis %t.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BYTES
// RUN: mesh-run %t.mlir -f cut_rows --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f cut_rows --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f token_appended --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f token_appended --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f joined_along_cut --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f joined_along_cut --compare-with %s -q --seed 2 | FileCheck %s
// CHECK: match

mesh.mesh @mesh(shape = 4)
mesh.mesh @mesh2(shape = 2x2)
func.func @cut_rows(%a: tensor<10x4xf32>, %b: tensor<10x2xf32>) -> tensor<10x6xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] sharded_dims_offsets = [0, 3, 6, 9, 10] : !mesh.sharding
  %as = mesh.shard %a to %s : tensor<10x4xf32>
  %e = "stablehlo.exponential"(%as) : (tensor<10x4xf32>) -> tensor<10x4xf32>
  %c = "stablehlo.concatenate"(%e, %b) <{dimension = 1 : i64}> : (tensor<10x4xf32>, tensor<10x2xf32>) -> tensor<10x6xf32>
  %t = "stablehlo.tanh"(%c) : (tensor<10x6xf32>) -> tensor<10x6xf32>
  %r = mesh.shard %t to %s : tensor<10x6xf32>
  return %r : tensor<10x6xf32>
}
func.func @token_appended(%cache: tensor<2x7x3xf32>, %k: tensor<2x7x1xf32>, %v: tensor<2x7x2xf32>) -> tensor<2x7x6xf32> {
  %s = mesh.sharding @mesh2 split_axes = [[0], [1]] : !mesh.sharding
  %cs = mesh.shard %cache to %s : tensor<2x7x3xf32>
  %ks = mesh.shard %k to %s : tensor<2x7x1xf32>
  %c = "mhlo.concatenate"(%cs, %ks, %v) <{dimension = 2 : i64}> : (tensor<2x7x3xf32>, tensor<2x7x1xf32>, tensor<2x7x2xf32>) -> tensor<2x7x6xf32>
  %r = mesh.shard %c to %s : tensor<2x7x6xf32>
  return %r : tensor<2x7x6xf32>
}
func.func @joined_along_cut(%a: tensor<10x4xf32>, %b: tensor<6x4xf32>) -> tensor<16x4xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] sharded_dims_offsets = [0, 3, 6, 9, 10] : !mesh.sharding
  %as = mesh.shard %a to %s : tensor<10x4xf32>
  %c = "stablehlo.concatenate"(%as, %b) <{dimension = 0 : i64}> : (tensor<10x4xf32>, tensor<6x4xf32>) -> tensor<16x4xf32>
  return %c : tensor<16x4xf32>
}

// IR-LABEL: func.func @cut_rows(%arg0: tensor<?x4xf32> {{.*}}sharded_dims_offsets = [0, 3, 6, 9, 10]>}, %arg1: tensor<?x2xf32> {{.*}}sharded_dims_offsets = [0, 3, 6, 9, 10]>})
// IR-NOT: mesh.all_
// IR: %[[E:.*]] = "stablehlo.exponential"(%arg0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
// IR-NEXT: %[[C:.*]] = "stablehlo.concatenate"(%[[E]], %arg1) <{dimension = 1 : i64}> : (tensor<?x4xf32>, tensor<?x2xf32>) -> tensor<?x6xf32>
// IR-NEXT: "stablehlo.tanh"(%[[C]]) : (tensor<?x6xf32>) -> tensor<?x6xf32>
// IR-LABEL: func.func @token_appended(%arg0: tensor<1x?x3xf32> {{.*}}sharded_dims_offsets = [0, 1, 2, 0, 3, 7]>}
// IR-NOT: mesh.all_
// IR: "mhlo.concatenate"(%arg0, %arg1, %arg2) <{dimension = 2 : i64}> : (tensor<1x?x3xf32>, tensor<1x?x1xf32>, tensor<1x?x2xf32>) -> tensor<1x?x6xf32>
// IR-LABEL: func.func @joined_along_cut(
// IR: mesh.all_to_all %{{.*}} on @mesh mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<3x4xf32> -> tensor<12x1xf32>
// IR: "stablehlo.concatenate"(%{{.*}}, %arg1) <{dimension = 0 : i64}> : (tensor<10x1xf32>, tensor<6x1xf32>) -> tensor<16x1xf32>

// BYTES-LABEL: @cut_rows on @mesh
// BYTES: max - 0 144 30 0
// BYTES-LABEL: @token_appended on @mesh2
// BYTES: max - 0 192 0 0
// BYTES-LABEL: @joined_along_cut on @mesh
// BYTES: max all_to_all 1 36 180 0 0
