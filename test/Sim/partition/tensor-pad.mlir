// tensor.pad has a sharding rule: a dimension it pads by nothing may stay
// split (each piece is padded alike, by nothing, along it), a padded one is
// whole (a split on it moves to an unpadded one by one all_to_all); a
// padding value that depends on the position (or reads a tensor) makes
// every device pad the whole tensor.  Uneven pieces are padded whole
// (and simulate equal).
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir 2>/dev/null
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir -f unpadded_split --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f padded_split --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f positional --compare-with %s -q --seed 3 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f uneven --compare-with %s -q --seed 4 | FileCheck %s --check-prefix=SIM
// SIM: match
// CHECK-LABEL: func.func @unpadded_split
// CHECK-NOT: mesh.all
// CHECK: tensor.pad %arg0 low[0, 1] high[0, 1]
// CHECK: } : tensor<2x6xf32> to tensor<2x8xf32>
// CHECK-NOT: mesh.all
// CHECK: return
// CHECK-LABEL: func.func @padded_split
// CHECK: mesh.all_to_all %arg0 on @mesh mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<8x2xf32> -> tensor<2x8xf32>
// CHECK: } : tensor<2x8xf32> to tensor<2x10xf32>
// CHECK-LABEL: func.func @positional
// CHECK: mesh.all_gather %arg0 on @mesh mesh_axes = [0] gather_axis = 0 : tensor<2x6xf32> -> tensor<8x6xf32>
// CHECK: } : tensor<8x6xf32> to tensor<8x8xf32>

mesh.mesh @mesh(shape = 4)

func.func @unpadded_split(%x: tensor<8x6xf32>) -> tensor<8x8xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows annotate_for_users : tensor<8x6xf32>
  %cst = arith.constant 1.5 : f32
  %p = tensor.pad %xs low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %cst : f32
  } : tensor<8x6xf32> to tensor<8x8xf32>
  %ps = mesh.shard %p to %rows : tensor<8x8xf32>
  return %ps : tensor<8x8xf32>
}

func.func @padded_split(%x: tensor<8x8xf32>) -> tensor<8x10xf32> {
  %cols = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %cols annotate_for_users : tensor<8x8xf32>
  %cst = arith.constant -2.0 : f32
  %p = tensor.pad %xs low[0, 2] high[0, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %cst : f32
  } : tensor<8x8xf32> to tensor<8x10xf32>
  return %p : tensor<8x10xf32>
}

func.func @positional(%x: tensor<8x6xf32>) -> tensor<8x8xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows annotate_for_users : tensor<8x6xf32>
  %p = tensor.pad %xs low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    %k = arith.index_cast %i : index to i32
    %f = arith.sitofp %k : i32 to f32
    tensor.yield %f : f32
  } : tensor<8x6xf32> to tensor<8x8xf32>
  return %p : tensor<8x8xf32>
}

func.func @uneven(%x: tensor<7x3xf32>) -> tensor<7x5xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows annotate_for_users : tensor<7x3xf32>
  %cst = arith.constant 0.5 : f32
  %p = tensor.pad %xs low[0, 0] high[0, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %cst : f32
  } : tensor<7x3xf32> to tensor<7x5xf32>
  %ps = mesh.shard %p to %rows : tensor<7x5xf32>
  return %ps : tensor<7x5xf32>
}
