// Cases where a per-use, loop-blind cost model plans badly, each checked on
// the partitioned program and simulated against the original.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --function loop_init --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --function call_in_loop --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --function one_reduce_two_users --compare-with %s -q --seed 3 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --function whole_argument --compare-with %s -q --seed 4 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --function shared_init_beside_unknown --compare-with %s -q --seed 5 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --function option_on_fill --compare-with %s -q --seed 6 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --function partial_fill --compare-with %s -q --seed 7 | FileCheck %s --check-prefix=SIM
// SIM: match

#id = affine_map<(d0, d1) -> (d0, d1)>
mesh.mesh @mesh(shape = 4)

// The carried value is split on columns and the body adds a row-split
// loop invariant: partition reshards the invariant once, in front of the
// 100 iterations, so one all_to_all is the whole plan (resharding the init
// and the result instead took two), and the carried value keeps its columns.
// CHECK-LABEL: func.func @loop_init(
// CHECK: mesh.all_to_all %arg1
// CHECK: scf.for
// CHECK-NOT: = mesh.{{all_gather|all_reduce|all_to_all|reduce_scatter}}
// CHECK: return
func.func @loop_init(%x: tensor<8x16xf32>, %x2: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %cols = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %xa = mesh.shard %x to %cols : tensor<8x16xf32>
  %x2a = mesh.shard %x2 to %rows : tensor<8x16xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %e = tensor.empty() : tensor<8x16xf32>
  %r = scf.for %i = %c0 to %c100 step %c1 iter_args(%acc = %xa) -> (tensor<8x16xf32>) {
    %n = linalg.add ins(%acc, %x2a : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
    scf.yield %n : tensor<8x16xf32>
  }
  %ra = mesh.shard %r to %cols : tensor<8x16xf32>
  return %ra : tensor<8x16xf32>
}

func.func private @whole_exp(%a: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.exp ins(%a : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// A call inside a loop takes its argument whole: the value is gathered
// once before the loop rather than in each of its 100 iterations.
// CHECK-LABEL: func.func @call_in_loop(
// CHECK: mesh.all_gather
// CHECK: scf.for
// CHECK-NOT: = mesh.{{all_gather|all_reduce|all_to_all|reduce_scatter}}
// CHECK: return
func.func @call_in_loop(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xa = mesh.shard %x to %rows : tensor<8x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %y = linalg.exp ins(%xa : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %r = scf.for %i = %c0 to %c100 step %c1 iter_args(%acc = %y) -> (tensor<8x16xf32>) {
    %t = func.call @whole_exp(%y) : (tensor<8x16xf32>) -> tensor<8x16xf32>
    scf.yield %t : tensor<8x16xf32>
  }
  return %r : tensor<8x16xf32>
}

// A partial product read by two matmuls is reduced once for both (as the
// Q, K and V projections of one input would be).
// CHECK-LABEL: func.func @one_reduce_two_users(
// CHECK-NOT: mesh.all_gather
// CHECK: mesh.all_reduce
// CHECK-NOT: = mesh.{{all_gather|all_reduce|all_to_all|reduce_scatter}}
// CHECK: return
func.func @one_reduce_two_users(%x: tensor<8x16xf32>, %w: tensor<16x16xf32>, %w2: tensor<16x16xf32>, %w3: tensor<16x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %cols = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %xa = mesh.shard %x to %cols annotate_for_users : tensor<8x16xf32>
  %wa = mesh.shard %w to %rows annotate_for_users : tensor<16x16xf32>
  %w2a = mesh.shard %w2 to %cols annotate_for_users : tensor<16x16xf32>
  %w3a = mesh.shard %w3 to %cols annotate_for_users : tensor<16x16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %m = linalg.matmul ins(%xa, %wa : tensor<8x16xf32>, tensor<16x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  %a = linalg.matmul ins(%m, %w2a : tensor<8x16xf32>, tensor<16x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  %b = linalg.matmul ins(%m, %w3a : tensor<8x16xf32>, tensor<16x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  %aa = mesh.shard %a to %cols : tensor<8x16xf32>
  %ba = mesh.shard %b to %cols : tensor<8x16xf32>
  return %aa, %ba : tensor<8x16xf32>, tensor<8x16xf32>
}

// An argument with no annotation, read split by one op and whole by
// another, arrives whole: each use slices or reads it for free.
// CHECK-LABEL: func.func @whole_argument(
// CHECK-SAME: %arg0: tensor<8x8xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}]]>}
// CHECK-NOT: = mesh.{{all_gather|all_reduce|all_to_all}}
// CHECK: return
func.func @whole_argument(%x: tensor<8x8xf32>, %w: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %wa = mesh.shard %w to %rows annotate_for_users : tensor<8x8xf32>
  %e = tensor.empty() : tensor<8x8xf32>
  %y = linalg.add ins(%x, %wa : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %c0 = arith.constant 0.0 : f32
  %z0 = linalg.fill ins(%c0 : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %z = linalg.matmul ins(%wa, %x : tensor<8x8xf32>, tensor<8x8xf32>) outs(%z0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %ya = mesh.shard %y to %rows : tensor<8x8xf32>
  %za = mesh.shard %z to %rows : tensor<8x8xf32>
  return %ya, %za : tensor<8x8xf32>, tensor<8x8xf32>
}

// One init shared by a split op and by an op after one without a rule: the
// init suggests no layout to the second, which stays whole (no error).
// CHECK-LABEL: func.func @shared_init_beside_unknown(
// CHECK: tensor.concat
// CHECK: return
func.func @shared_init_beside_unknown(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xa = mesh.shard %x to %rows annotate_for_users : tensor<8x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %a = linalg.exp ins(%xa : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %c = tensor.concat dim(0) %y : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %d = linalg.exp ins(%c : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %a, %d : tensor<8x16xf32>, tensor<8x16xf32>
}

// A sharding option given on a fill is followed even though fills of
// constants are otherwise left whole.
// CHECK-LABEL: func.func @option_on_fill(
// CHECK: linalg.fill {{.*}} -> tensor<2x16xf32>
// CHECK: return
func.func @option_on_fill(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %z = linalg.fill {mesh.sharding_option = #mesh.sharding<@mesh, [[0]]>} ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %a = linalg.add ins(%x, %z : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %a : tensor<8x16xf32>
}

// A dimension of dynamic size is split like a static one (cut at run time
// by the default rule): the op runs on the annotated operand's pieces and
// the other operand's, nothing gathered.
// CHECK-LABEL: func.func @dynamic_rows(
// CHECK-SAME: %arg1: tensor<?x16xf32>
// CHECK-NOT: mesh.all_gather
// CHECK: linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<2x16xf32>, tensor<?x16xf32>)
func.func @dynamic_rows(%a: tensor<8x16xf32>, %b: tensor<?x16xf32>) -> tensor<8x16xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %aa = mesh.shard %a to %rows annotate_for_users : tensor<8x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%aa, %b : tensor<8x16xf32>, tensor<?x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// A fill annotated where it is made (here as an xor partial) is an op like
// any other: it gets an option, and the matmul reading it reduces it first.
// CHECK-LABEL: func.func @partial_fill(
// CHECK: linalg.fill {{.*}}-> tensor<12x4xi32>
// CHECK: linalg.matmul
// CHECK: return
func.func @partial_fill(%a: tensor<12x2xi32>, %b: tensor<2x4xi32>) -> tensor<12x4xi32> {
  %e = tensor.empty() : tensor<12x4xi32>
  %c0 = arith.constant 0 : i32
  %f = linalg.fill ins(%c0 : i32) outs(%e : tensor<12x4xi32>) -> tensor<12x4xi32>
  %s = mesh.sharding @mesh split_axes = [[]] partial = bitwise_xor [0] : !mesh.sharding
  %fa = mesh.shard %f to %s : tensor<12x4xi32>
  %m = linalg.matmul ins(%a, %b : tensor<12x2xi32>, tensor<2x4xi32>) outs(%fa : tensor<12x4xi32>) -> tensor<12x4xi32>
  return %m : tensor<12x4xi32>
}
