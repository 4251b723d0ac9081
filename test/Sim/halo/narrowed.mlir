// Narrowing halos moves nothing: an argument that arrives with halos
// [4, 4] feeds a window-5 stencil that reads [3, 3] of them, and each device
// cuts its 11 rows out of the 13 it holds (offset 1), where it used to ask
// its neighbours for all 6 halo rows again.  The planner prices the step at
// 0 bytes, as partition emits it.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: mesh-run %t.mlir --compare-with %s --seed 1 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s --seed 2 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-opt --mesh-analysis %t.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BYTES
// CHECK-LABEL: func.func @stencil(
// CHECK-SAME: %arg0: tensor<13xf32> {mesh.sharding = #mesh.sharding<@m, {{\[\[}}0]], halo_sizes = [4, 4]>}
// CHECK-NOT: mesh.update_halo
// CHECK: tensor.extract_slice %arg0[1] [11] [1] : tensor<13xf32> to tensor<11xf32>
// CHECK-NOT: mesh.update_halo
// CHECK: return
// SIM: match
// BYTES: max     -                       0

#in = affine_map<(i, k) -> (i + k)>
#w = affine_map<(i, k) -> (k)>
#out = affine_map<(i, k) -> (i)>
mesh.mesh @m(shape = 4)
func.func @stencil(%x: tensor<20xf32>, %k: tensor<5xf32>) -> tensor<16xf32> {
  %wide = mesh.sharding @m split_axes = [[0]] halo_sizes = [4, 4] : !mesh.sharding
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %wide : tensor<20xf32>
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
