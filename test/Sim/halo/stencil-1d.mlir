// A 1-D stencil out[i] = sum_k x[i + k] * w[k] (window 5) with its output
// split over a mesh of 4: the 20 inputs cut into pieces of 5, the 16 outputs
// into pieces of 4, so device p reads rows [4p, 4p + 8) of x.  Its piece is
// [5p, 5p + 5): the rows it lacks are at most 3 on either side (the halo
// sizes are the same on every device), and each device cuts its 8 rows out
// of its 11 at offset 3 - p.  The rule's window loop k is never split.
// RUN: mesh-opt --sharding-propagation %s | FileCheck %s --check-prefix=PROP
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: mesh-run %t.mlir --compare-with %s --seed 1 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s --seed 2 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-opt --pass-pipeline='builtin.module(sharding-propagation{solver=sweep}, mesh-partition)' %s -o %t.sweep.mlir
// RUN: mesh-run %t.sweep.mlir --compare-with %s --seed 3 -q | FileCheck %s --check-prefix=SIM
// PROP: %[[H:.*]] = mesh.sharding @m split_axes = {{\[\[}}0]] halo_sizes = [3, 3] : !mesh.sharding
// PROP: mesh.shard %{{.*}} to %[[H]] annotate_for_users : tensor<20xf32>
// PROP: linalg.generic {{.*}}mesh.sharding_option = #mesh.sharding<@m, {{\[\[}}0]]>
// CHECK: %[[X:.*]] = mesh.update_halo %arg0 into %{{.*}} on @m split_axes = {{\[\[}}0]] destination_halo_sizes = [3, 3] : tensor<5xf32> -> tensor<11xf32>
// CHECK: %[[P:.*]] = mesh.process_multi_index on @m axes = [0] : index
// CHECK: tensor.extract_slice %[[X]][%{{.*}}] [8] [1] : tensor<11xf32> to tensor<8xf32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %arg1 : tensor<8xf32>, tensor<5xf32>) outs(%{{.*}} : tensor<4xf32>)
// SIM: match

#in = affine_map<(i, k) -> (i + k)>
#w = affine_map<(i, k) -> (k)>
#out = affine_map<(i, k) -> (i)>
mesh.mesh @m(shape = 4)
func.func @stencil(%x: tensor<20xf32>, %k: tensor<5xf32>) -> tensor<16xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<20xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %r = linalg.generic {indexing_maps = [#in, #w, #out], iterator_types = ["parallel", "reduction"]}
      ins(%xs, %k : tensor<20xf32>, tensor<5xf32>) outs(%z : tensor<16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %t = arith.addf %c, %m : f32
    linalg.yield %t : f32
  } -> tensor<16xf32>
  %rs = mesh.shard %r to %s : tensor<16xf32>
  return %rs : tensor<16xf32>
}
