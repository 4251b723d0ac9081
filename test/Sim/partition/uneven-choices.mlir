// Sizes the mesh does not divide: the cost solver splits them unevenly (the
// default cut, 10 over 4 is 2, 2, 3, 3) where partition gives each device
// its own sizes, as XLA pads and splits them, instead of keeping them whole.
// RUN: mesh-opt --sharding-propagation %s | FileCheck %s --check-prefix=PROP
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir -f megatron --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir -f megatron --compare-with %s --seed 4 -q | FileCheck %s
// RUN: mesh-run %t.mlir -f vocab_softmax --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir -f vocab_softmax --compare-with %s --seed 9 -q | FileCheck %s
// RUN: mesh-run %t.mlir -f collapse --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir -f beside_offsets --compare-with %s -q | FileCheck %s
// CHECK: result 0: max error {{[0-9.e-]+}}
// CHECK-NEXT: match

mesh.mesh @mesh(shape = 4)
mesh.mesh @m3(shape = 3)

// A Megatron MLP whose hidden size (10) the 4 devices do not divide: both
// matmuls and the relu run on the weights' uneven pieces, and the only
// collective is the all_reduce of the row-split matmul's partial sums
// (a gathered weight each would move 30 times as much).
// IR-LABEL: func.func @megatron(
// IR-SAME: tensor<16x?xi32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}], [0]], sharded_dims_offsets = [0, 2, 4, 7, 10]>}
// IR-SAME: tensor<?x16xi32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]], sharded_dims_offsets = [0, 2, 4, 7, 10]>}
// IR-NOT: mesh.all_gather
// IR: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0] : tensor<8x16xi32> -> tensor<8x16xi32>
// IR-NOT: mesh.all_
// IR: return
func.func @megatron(%x: tensor<8x16xi32>, %w1: tensor<16x10xi32>, %w2: tensor<10x16xi32>) -> tensor<8x16xi32> {
  %cols = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %zero = arith.constant 0 : i32
  %w1s = mesh.shard %w1 to %cols annotate_for_users : tensor<16x10xi32>
  %w2s = mesh.shard %w2 to %rows annotate_for_users : tensor<10x16xi32>
  %e1 = tensor.empty() : tensor<8x10xi32>
  %f1 = linalg.fill ins(%zero : i32) outs(%e1 : tensor<8x10xi32>) -> tensor<8x10xi32>
  %h = linalg.matmul ins(%x, %w1s : tensor<8x16xi32>, tensor<16x10xi32>) outs(%f1 : tensor<8x10xi32>) -> tensor<8x10xi32>
  %e2 = tensor.empty() : tensor<8x10xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%h : tensor<8x10xi32>) outs(%e2 : tensor<8x10xi32>) {
  ^bb0(%a: i32, %o: i32):
    %m = arith.maxsi %a, %zero : i32
    linalg.yield %m : i32
  } -> tensor<8x10xi32>
  %e3 = tensor.empty() : tensor<8x16xi32>
  %f3 = linalg.fill ins(%zero : i32) outs(%e3 : tensor<8x16xi32>) -> tensor<8x16xi32>
  %y = linalg.matmul ins(%r, %w2s : tensor<8x10xi32>, tensor<10x16xi32>) outs(%f3 : tensor<8x16xi32>) -> tensor<8x16xi32>
  %ys = mesh.shard %y to %whole : tensor<8x16xi32>
  return %ys : tensor<8x16xi32>
}

// Logits over a vocabulary of 6 split 4 ways (1, 1, 2, 2 columns) and a
// softmax over it: the row max and the row sum are reduced across the
// devices (two all_reduces of 4 floats), the logits never gathered.
// IR-LABEL: func.func @vocab_softmax(
// IR-NOT: mesh.all_gather
// IR: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0] reduction = <max> : tensor<4xf32> -> tensor<4xf32>
// IR-NOT: mesh.all_gather
// IR: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
// IR-NOT: mesh.all_
// IR: return
func.func @vocab_softmax(%h: tensor<4x8xf32>, %w: tensor<8x6xf32>) -> tensor<4x6xf32> {
  %cols = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %ws = mesh.shard %w to %cols annotate_for_users : tensor<8x6xf32>
  %e0 = tensor.empty() : tensor<4x6xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x6xf32>) -> tensor<4x6xf32>
  %l = linalg.matmul ins(%h, %ws : tensor<4x8xf32>, tensor<8x6xf32>) outs(%f0 : tensor<4x6xf32>) -> tensor<4x6xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %f1 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%l : tensor<4x6xf32>) outs(%f1 : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4x6xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%l, %mx : tensor<4x6xf32>, tensor<4xf32>) outs(%e2 : tensor<4x6xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %x = math.exp %d : f32
    linalg.yield %x : f32
  } -> tensor<4x6xf32>
  %e3 = tensor.empty() : tensor<4xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4xf32>) -> tensor<4xf32>
  %sm = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%p : tensor<4x6xf32>) outs(%f3 : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %e4 = tensor.empty() : tensor<4x6xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%p, %sm : tensor<4x6xf32>, tensor<4xf32>) outs(%e4 : tensor<4x6xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %q = arith.divf %a, %s : f32
    linalg.yield %q : f32
  } -> tensor<4x6xf32>
  %ns = mesh.shard %n to %cols : tensor<4x6xf32>
  return %ns : tensor<4x6xf32>
}

// A reshape of uneven pieces would not line up with the default cut of its
// result (rows 1, 1, 2, 2 of 4 are 4, 4, 8, 8 elements, not 6 each): the
// elementwise op runs on the uneven rows, the collapse on the whole value.
// PROP-LABEL: func.func @collapse(
// PROP: linalg.generic {{.*}}mesh.sharding_option = #mesh.sharding<@mesh, {{\[\[}}0]]>
// PROP: tensor.collapse_shape {{.*}}mesh.sharding_option = #mesh.sharding<@mesh, []>
func.func @collapse(%x: tensor<6x4xi32>) -> tensor<24xi32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<6x4xi32>
  %e = tensor.empty() : tensor<6x4xi32>
  %d = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%xs : tensor<6x4xi32>) outs(%e : tensor<6x4xi32>) {
  ^bb0(%a: i32, %o: i32):
    %m = arith.addi %a, %a : i32
    linalg.yield %m : i32
  } -> tensor<6x4xi32>
  %c = tensor.collapse_shape %d [[0, 1]] : tensor<6x4xi32> into tensor<24xi32>
  %cs = mesh.shard %c to %rows : tensor<24xi32>
  return %cs : tensor<24xi32>
}

// Beside an annotation cut by offsets, the op runs on the annotation's cut
// (0:3, 3:5, 5:7), not the default one (0:2, 2:4, 4:7): its broadcast
// operand, annotated with the default cut, and its result, wanted so, are
// recut (each device sends or receives the rows at its edges: 20 bytes at
// most, where the op ran whole on gathered operands, 120).
// PROP-LABEL: func.func @beside_offsets(
// PROP-DAG: %[[CUT:.*]] = mesh.sharding @m3 split_axes = {{\[\[}}0]] sharded_dims_offsets = [0, 3, 5, 7]
// PROP-DAG: %[[ROWS:.*]] = mesh.sharding @m3 split_axes = {{\[\[}}0]] : !mesh.sharding
// PROP: mesh.shard %{{.*}} to %[[CUT]] annotate_for_users : tensor<7xf32>
// PROP: linalg.generic {{.*}}mesh.sharding_option = #mesh.sharding<@m3, {{\[\[}}0]]>}
// PROP: %[[G:.*]] = mesh.shard %{{.*}} to %[[CUT]] : tensor<7x4xf32>
// PROP-NEXT: mesh.shard %[[G]] to %[[ROWS]] annotate_for_users : tensor<7x4xf32>
// IR-LABEL: func.func @beside_offsets(
// IR-NOT: mesh.all_gather
// IR: mesh.recv
// IR-NOT: mesh.all_gather
// IR: return
func.func @beside_offsets(%x: tensor<7x4xf32>, %b: tensor<7xf32>) -> tensor<7x4xf32> {
  %cut = mesh.sharding @m3 split_axes = [[0]] sharded_dims_offsets = [0, 3, 5, 7] : !mesh.sharding
  %rows = mesh.sharding @m3 split_axes = [[0]] : !mesh.sharding
  %x0 = mesh.shard %x to %cut : tensor<7x4xf32>
  %b0 = mesh.shard %b to %rows : tensor<7xf32>
  %e = tensor.empty() : tensor<7x4xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x0, %b0 : tensor<7x4xf32>, tensor<7xf32>) outs(%e : tensor<7x4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %z = arith.addf %p, %q : f32
    linalg.yield %z : f32
  } -> tensor<7x4xf32>
  %r = mesh.shard %g to %rows : tensor<7x4xf32>
  return %r : tensor<7x4xf32>
}
