// torch-mlir style: one tensor.empty is the init of a matmul (through a
// fill) and of the relu after it.  However propagation leaves the shared init
// (here one forward sweep leaves it whole), each user rebuilds it in its own
// layout: no communication, and no whole copy left on any device.  The
// results match within the default tolerance, not bit for bit: BLAS may
// round a 4-row slab of a matmul differently from the 16-row whole.
// RUN: mesh-opt --pass-pipeline='builtin.module(sharding-propagation{traversal=forward fixed-point=false},mesh-partition)' %s -o %t.f.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.f.mlir
// RUN: mesh-run %t.f.mlir --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-opt --pass-pipeline='builtin.module(func.func(cse),sharding-propagation,mesh-partition)' %s -o %t.c.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.c.mlir
// RUN: mesh-run %t.c.mlir --compare-with %s -q --seed 2 | FileCheck %s
// CHECK: result 0: max error
// CHECK-NEXT: match
// IR-NOT: mesh.all_
// IR-NOT: tensor<16x32xf32>
// IR: linalg.matmul ins(%arg0, %arg1 : tensor<4x32xf32>, tensor<32x32xf32>) outs(%{{.*}} : tensor<4x32xf32>)
// IR-NOT: mesh.all_
// IR-NOT: tensor<16x32xf32>

#map = affine_map<(d0, d1) -> (d0, d1)>
mesh.mesh @mesh(shape = 4)
func.func @f(%x: tensor<16x32xf32>, %w: tensor<32x32xf32>) -> tensor<16x32xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<16x32xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %m = linalg.matmul ins(%x0, %w : tensor<16x32xf32>, tensor<32x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.maximumf %in, %zero : f32
    linalg.yield %y : f32
  } -> tensor<16x32xf32>
  %r0 = mesh.shard %r to %s : tensor<16x32xf32>
  return %r0 : tensor<16x32xf32>
}
