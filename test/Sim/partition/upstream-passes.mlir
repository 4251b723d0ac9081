// Annotations survive upstream passes: sharding-propagation, then upstream's
// linalg-generalize-named-ops and linalg-fuse-elementwise-ops (which drop
// mesh.sharding_option, rebuild ops, give them fresh tensor.empty inits and
// fold max(x, x) away), canonicalize and cse, then mesh-partition. Partition
// re-derives each op's loop sharding from the annotations around it: the plan
// is the one partition gives without the upstream passes (same collectives,
// generalized fills rebuilt per device rather than sliced, no remark), and
// every function simulates equal to the original.
// RUN: mesh-opt --pass-pipeline='builtin.module(sharding-propagation,mesh-partition)' %s -o %t.d.mlir
// RUN: FileCheck %s < %t.d.mlir
// RUN: mesh-opt --pass-pipeline='builtin.module(sharding-propagation,func.func(linalg-generalize-named-ops,linalg-fuse-elementwise-ops),canonicalize,cse,mesh-partition)' %s -o %t.u.mlir 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: FileCheck %s < %t.u.mlir
// RUN: mesh-opt --sharding-propagation --linalg-generalize-named-ops --linalg-fuse-elementwise-ops --canonicalize --cse --mesh-partition %s | FileCheck %s
// RUN: mesh-run %t.u.mlir --function megatron --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.u.mlir --function contraction_split --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.u.mlir --function chain --compare-with %s -q --seed 3 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.d.mlir --function chain --compare-with %s -q --seed 3 | FileCheck %s --check-prefix=SIM
// QUIET-NOT: remark
// QUIET-NOT: error
// SIM: match

#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
mesh.mesh @mesh(shape = 4)
mesh.mesh @mesh2(shape = 2x2)

// Megatron MLP with a bias: one all_reduce, as without the upstream passes.
// CHECK-LABEL: func.func @megatron(
// CHECK-NOT: = mesh.
// CHECK-NOT: scf.if
// CHECK: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0] : tensor<8x64xf32> -> tensor<8x64xf32>
// CHECK-NOT: = mesh.
// CHECK: return
func.func @megatron(%x: tensor<8x64xf32>, %w1: tensor<64x128xf32>, %b1: tensor<8x128xf32>, %w2: tensor<128x64xf32>) -> tensor<8x64xf32> {
  %rep = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %col = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %row = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %zero = arith.constant 0.0 : f32
  %xa = mesh.shard %x to %rep annotate_for_users : tensor<8x64xf32>
  %w1a = mesh.shard %w1 to %col annotate_for_users : tensor<64x128xf32>
  %w2a = mesh.shard %w2 to %row annotate_for_users : tensor<128x64xf32>
  %e = tensor.empty() : tensor<8x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x128xf32>) -> tensor<8x128xf32>
  %h = linalg.matmul ins(%xa, %w1a : tensor<8x64xf32>, tensor<64x128xf32>) outs(%f : tensor<8x128xf32>) -> tensor<8x128xf32>
  %hb = linalg.add ins(%h, %b1 : tensor<8x128xf32>, tensor<8x128xf32>) outs(%e : tensor<8x128xf32>) -> tensor<8x128xf32>
  %r = linalg.max ins(%hb, %f : tensor<8x128xf32>, tensor<8x128xf32>) outs(%e : tensor<8x128xf32>) -> tensor<8x128xf32>
  %e2 = tensor.empty() : tensor<8x64xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %y = linalg.matmul ins(%r, %w2a : tensor<8x128xf32>, tensor<128x64xf32>) outs(%f2 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %ya = mesh.shard %y to %rep : tensor<8x64xf32>
  return %ya : tensor<8x64xf32>
}

// The contraction split over the mesh: a partial product whose generalized
// zero init is kept on every device (a fill of the reduction's neutral value),
// then one reduce_scatter.
// CHECK-LABEL: func.func @contraction_split(
// CHECK-NOT: = mesh.
// CHECK-NOT: scf.if
// CHECK: mesh.reduce_scatter %{{.*}} on @mesh mesh_axes = [0] scatter_axis = 0 : tensor<8x16xf32> -> tensor<2x16xf32>
// CHECK-NOT: = mesh.
// CHECK: return
func.func @contraction_split(%x: tensor<8x64xf32>, %w: tensor<64x16xf32>) -> tensor<8x16xf32> {
  %k1 = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %k0 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xa = mesh.shard %x to %k1 annotate_for_users : tensor<8x64xf32>
  %wa = mesh.shard %w to %k0 annotate_for_users : tensor<64x16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = linalg.matmul ins(%xa, %wa : tensor<8x64xf32>, tensor<64x16xf32>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
  %t = linalg.exp ins(%y : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %ta = mesh.shard %t to %k0 : tensor<8x16xf32>
  return %ta : tensor<8x16xf32>
}

// A chain of elementwise ops on one shared init (torch-mlir style), an op
// whose inputs are one value twice (folded to that value), a transposing
// generic and a row reduction, on a 2x2 mesh: no communication.
// CHECK-LABEL: func.func @chain(
// CHECK-SAME: -> (tensor<4x8xf32> {mesh.sharding = #mesh.sharding<@mesh2, {{\[\[}}0], [1]]>}, tensor<8xf32> {mesh.sharding = #mesh.sharding<@mesh2, {{\[\[}}1]], partial = sum [0]>})
// CHECK-NOT: = mesh.
// CHECK: return
func.func @chain(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<16xf32>) {
  %s = mesh.sharding @mesh2 split_axes = [[0], [1]] : !mesh.sharding
  %xa = mesh.shard %x to %s annotate_for_users : tensor<8x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %a = linalg.add ins(%xa, %y : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %m = linalg.max ins(%a, %a : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %g = linalg.mul ins(%m, %y : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %et = tensor.empty() : tensor<16x8xf32>
  %t = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<8x16xf32>) outs(%et : tensor<16x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<16x8xf32>
  %zero = arith.constant 0.0 : f32
  %er = tensor.empty() : tensor<16xf32>
  %fr = linalg.fill ins(%zero : f32) outs(%er : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.reduce ins(%t : tensor<16x8xf32>) outs(%fr : tensor<16xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %z = arith.addf %in, %acc : f32
      linalg.yield %z : f32
    }
  %ga = mesh.shard %g to %s : tensor<8x16xf32>
  return %ga, %sum : tensor<8x16xf32>, tensor<16xf32>
}
