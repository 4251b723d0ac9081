// A convolution (and a 1-D stencil) whose batch has a size only the run
// knows, split over mesh axis 0, with its rows split over axis 1: the halo
// rows come from the neighbours along axis 1, which hold the same batch
// rows, so one update_halo serves whatever the batch (3 rows over 2 devices
// gives pieces of 1 and 2; 1 row leaves a device none).  Partition refused
// halos beside any dynamic piece, after propagation had chosen this plan.
// RUN: %python -c "import numpy as np; r = np.random.default_rng(7); [np.save('%t.x%%d.npy' %% n, r.standard_normal((n, 10, 10, 4)).astype(np.float32)) for n in (1, 3, 4)]; np.save('%t.w.npy', r.standard_normal((3, 3, 4, 8)).astype(np.float32)); [np.save('%t.h%%d.npy' %% n, r.standard_normal((n, 10)).astype(np.float32)) for n in (2, 7)]; np.save('%t.k.npy', r.standard_normal(3).astype(np.float32)); [np.save('%t.y%%d.npy' %% n, r.standard_normal((n, 16, 10)).astype(np.float32)) for n in (1, 5)]"
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f conv -i %t.x3.npy -i %t.w.npy -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f conv -i %t.x4.npy -i %t.w.npy -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f conv -i %t.x1.npy -i %t.w.npy -q | FileCheck %s --check-prefix=SIM
// As 4 processes under mpiexec, the halo exchange is a group along axis 1 only:
// RUN: mesh-run %t.mlir --compare-with %s -f conv -i %t.x3.npy -i %t.w.npy --mpi 4 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f stencil -i %t.h7.npy -i %t.k.npy -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f stencil -i %t.h2.npy -i %t.k.npy -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f merged_axes -i %t.y5.npy -i %t.k.npy -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -f merged_axes -i %t.y1.npy -i %t.k.npy -q | FileCheck %s --check-prefix=SIM
// SIM: match

#in = affine_map<(r, i, k) -> (r, i + k)>
#w = affine_map<(r, i, k) -> (k)>
#out = affine_map<(r, i, k) -> (r, i)>
#in3 = affine_map<(d0, d1, d2, k) -> (d0, d1 + k, d2)>
#w3 = affine_map<(d0, d1, d2, k) -> (k)>
#out3 = affine_map<(d0, d1, d2, k) -> (d0, d1, d2)>
mesh.mesh @m(shape = 2x2)
mesh.mesh @m3(shape = 2x2x2)

// The one other collective sums the batch's pieces for tensor.dim of %x.
// CHECK-LABEL: func.func @conv(
// CHECK-NOT: mesh.all_gather
// CHECK: mesh.update_halo %arg0 into %{{.*}} on @m split_axes = {{\[\[}}0], [1]] destination_halo_sizes = [0, 0, 1, 1]
// CHECK-SAME: tensor<?x5x10x4xf32> -> tensor<?x7x10x4xf32>
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK-NOT: mesh.all_gather
func.func @conv(%x: tensor<?x10x10x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<?x8x8x8xf32> {
  %s = mesh.sharding @m split_axes = [[0], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<?x10x10x4xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x10x10x4xf32>
  %e = tensor.empty(%n) : tensor<?x8x8x8xf32>
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x8x8x8xf32>) -> tensor<?x8x8x8xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%xs, %w : tensor<?x10x10x4xf32>, tensor<3x3x4x8xf32>) outs(%f : tensor<?x8x8x8xf32>) -> tensor<?x8x8x8xf32>
  %rs = mesh.shard %r to %s : tensor<?x8x8x8xf32>
  return %rs : tensor<?x8x8x8xf32>
}

// CHECK-LABEL: func.func @stencil(
// CHECK: mesh.update_halo %arg0 into %{{.*}} destination_halo_sizes = [0, 0, 1, 1] : tensor<?x5xf32> -> tensor<?x7xf32>
// CHECK-NOT: mesh.all_gather
func.func @stencil(%x: tensor<?x10xf32>, %k: tensor<3xf32>) -> tensor<?x8xf32> {
  %s = mesh.sharding @m split_axes = [[0], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<?x10xf32>
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x10xf32>
  %e = tensor.empty(%n) : tensor<?x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x8xf32>) -> tensor<?x8xf32>
  %r = linalg.generic {indexing_maps = [#in, #w, #out], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%xs, %k : tensor<?x10xf32>, tensor<3xf32>) outs(%z : tensor<?x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %t = arith.addf %c, %m : f32
    linalg.yield %t : f32
  } -> tensor<?x8xf32>
  %rs = mesh.shard %r to %s : tensor<?x8xf32>
  return %rs : tensor<?x8xf32>
}

// Rows split over two axes arrive; the stencil splits them over one with
// halos (propagation's choice): gather over the inner axis, then one
// update_halo, whatever the batch (it was refused).
// CHECK-LABEL: func.func @merged_axes(
// CHECK: mesh.all_gather %arg0 on @m3 mesh_axes = [2] gather_axis = 1 : tensor<?x4x10xf32> -> tensor<?x8x10xf32>
// CHECK: mesh.update_halo %{{.*}} on @m3 split_axes = {{\[\[}}0], [1]] destination_halo_sizes = [0, 0, 1, 1] : tensor<?x8x10xf32> -> tensor<?x10x10xf32>
func.func @merged_axes(%x: tensor<?x16x10xf32>, %k: tensor<3xf32>) -> tensor<?x14x10xf32> {
  %s = mesh.sharding @m3 split_axes = [[0], [1, 2]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<?x16x10xf32>
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x16x10xf32>
  %e = tensor.empty(%n) : tensor<?x14x10xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x14x10xf32>) -> tensor<?x14x10xf32>
  %r = linalg.generic {indexing_maps = [#in3, #w3, #out3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%xs, %k : tensor<?x16x10xf32>, tensor<3xf32>) outs(%z : tensor<?x14x10xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %t = arith.addf %c, %m : f32
    linalg.yield %t : f32
  } -> tensor<?x14x10xf32>
  %rs = mesh.shard %r to %s : tensor<?x14x10xf32>
  return %rs : tensor<?x14x10xf32>
}
