// Halos on one dimension and uneven pieces on another: a windowed op whose
// input every device holds whole (each slices its piece and halos locally)
// while another dimension of that input is cut unevenly (a size its mesh
// axes do not divide, or the same cut spelled as sharded_dims_offsets).
// Each device's piece of the uneven dimension comes from the layout's own
// cut, read from a table at its position, so its local type is dynamic
// there; the windowed op runs on it.  Partition alone (propagation would
// compute these ops whole), then simulated against the original on several
// seeds; tosa pooling and convolutions (plain, strided and dilated,
// depthwise, average), linalg convolution, pooling and stencils, on 2x2,
// 2x3 and 1-D meshes.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: mesh-run %t.mlir -f max_pool --compare-with %s --seed 0 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f max_pool --compare-with %s --seed 1 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f max_pool --compare-with %s --seed 2 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f max_pool_2x3 --compare-with %s --seed 0 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f max_pool_2x3 --compare-with %s --seed 1 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f max_pool_offsets --compare-with %s --seed 0 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f max_pool_offsets --compare-with %s --seed 1 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f depthwise --compare-with %s --seed 0 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f depthwise --compare-with %s --seed 1 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f conv_batch --compare-with %s --seed 0 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f conv_batch --compare-with %s --seed 1 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f conv_strided --compare-with %s --seed 0 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f conv_strided --compare-with %s --seed 1 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f avg_pool --compare-with %s --seed 0 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f avg_pool --compare-with %s --seed 1 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f linalg_conv --compare-with %s --seed 0 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f linalg_conv --compare-with %s --seed 1 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f linalg_pool --compare-with %s --seed 0 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f linalg_pool --compare-with %s --seed 1 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f stencil --compare-with %s --seed 0 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f stencil --compare-with %s --seed 1 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f stencil_2x3 --compare-with %s --seed 0 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f stencil_2x3 --compare-with %s --seed 1 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f max_pool_1d --compare-with %s --seed 0 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f max_pool_1d --compare-with %s --seed 1 -q | FileCheck %s --check-prefix=SIM
// The first with propagation too (which computes the pooling whole):
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.prop.mlir
// RUN: mesh-run %t.prop.mlir -f max_pool --compare-with %s --seed 0 -q | FileCheck %s --check-prefix=SIM
// SIM: match

// 3 channels over 2 devices are cut 1, 2: device (i, 1) slices channels
// [1, 3) and rows [2i - 1, 2i + 3) of the whole input.
// CHECK-LABEL: func.func @max_pool(
// CHECK-SAME: -> (tensor<1x2x4x?xf32>
// CHECK: %[[C:.*]] = mesh.process_multi_index on @m axes = [1] : index
// CHECK: %[[T0:.*]] = arith.constant dense<[0, 1]> : tensor<2xindex>
// CHECK: %[[START:.*]] = tensor.extract %[[T0]][%[[C]]] : tensor<2xindex>
// CHECK: %[[T1:.*]] = arith.constant dense<[1, 2]> : tensor<2xindex>
// CHECK: %[[SIZE:.*]] = tensor.extract %[[T1]][%[[C]]] : tensor<2xindex>
// CHECK: %[[ROWS:.*]] = tensor.extract_slice %arg0[0, %{{.*}}, 0, %[[START]]] [1, %{{.*}}, 4, %[[SIZE]]] [1, 1, 1, 1] : tensor<1x4x4x3xf32> to tensor<1x?x4x?xf32>
// CHECK: %[[E:.*]] = tensor.empty(%[[SIZE]]) : tensor<1x4x4x?xf32>
// CHECK: tensor.insert_slice %[[ROWS]] into %[[E]]
// CHECK: tosa.max_pool2d {{.*}} pad = array<i64: 0, 0, 1, 1>{{.*}} : (tensor<1x4x4x?xf32>) -> tensor<1x2x4x?xf32>
// CHECK-LABEL: func.func @max_pool_2x3(
// CHECK: arith.constant dense<[0, 1, 3]> : tensor<3xindex>
// CHECK: arith.constant dense<[1, 2, 2]> : tensor<3xindex>
// CHECK: tosa.max_pool2d {{.*}} : (tensor<1x6x6x?xf32>) -> tensor<1x4x6x?xf32>
// CHECK-LABEL: func.func @depthwise(
// CHECK-NOT: mesh.update_halo
// CHECK: tosa.depthwise_conv2d {{.*}} -> tensor<1x2x4x?xf32>
// CHECK-LABEL: func.func @max_pool_1d(
// CHECK-NOT: arith.constant dense
// CHECK: tosa.max_pool2d {{.*}} : (tensor<1x4x8x3xf32>) -> tensor<1x2x8x3xf32>

mesh.mesh @m(shape = 2x2)
mesh.mesh @m23(shape = 2x3)
mesh.mesh @m4(shape = 4)

// Rows over axis 0 (halos of 1), 3 channels over axis 1.
func.func @max_pool(%x: tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32> {
  %r = mesh.sharding @m split_axes = [[]] : !mesh.sharding
  %xr = mesh.shard %x to %r : tensor<1x4x4x3xf32>
  %c = tosa.max_pool2d %xr {kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  %s = mesh.sharding @m split_axes = [[], [0], [], [1]] : !mesh.sharding
  %cs = mesh.shard %c to %s : tensor<1x4x4x3xf32>
  return %cs : tensor<1x4x4x3xf32>
}

// 2x3: 8 rows over axis 0, 5 channels over axis 1 (1, 2, 2).
func.func @max_pool_2x3(%x: tensor<1x8x6x5xf32>) -> tensor<1x8x6x5xf32> {
  %r = mesh.sharding @m23 split_axes = [[]] : !mesh.sharding
  %xr = mesh.shard %x to %r : tensor<1x8x6x5xf32>
  %c = tosa.max_pool2d %xr {kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x6x5xf32>) -> tensor<1x8x6x5xf32>
  %s = mesh.sharding @m23 split_axes = [[], [0], [], [1]] : !mesh.sharding
  %cs = mesh.shard %c to %s : tensor<1x8x6x5xf32>
  return %cs : tensor<1x8x6x5xf32>
}

// The result's cut given as offsets (the default cut, spelled out).
func.func @max_pool_offsets(%x: tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32> {
  %r = mesh.sharding @m split_axes = [[]] : !mesh.sharding
  %xr = mesh.shard %x to %r : tensor<1x4x4x3xf32>
  %c = tosa.max_pool2d %xr {kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  %s = mesh.sharding @m split_axes = [[], [0], [], [1]] sharded_dims_offsets = [0, 2, 4, 0, 1, 3] : !mesh.sharding
  %cs = mesh.shard %c to %s : tensor<1x4x4x3xf32>
  return %cs : tensor<1x4x4x3xf32>
}

// 6 output channels cut 2, 4 by offsets: the input's 3 channels take the
// default cut 1, 2 (which lines up), the weights and bias are resharded to
// fit.
func.func @depthwise(%x: tensor<1x4x4x3xf32>, %w: tensor<3x3x3x2xf32>, %b: tensor<6xf32>) -> tensor<1x4x4x6xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %c = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : (tensor<1x4x4x3xf32>, tensor<3x3x3x2xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x6xf32>
  %s = mesh.sharding @m split_axes = [[], [0], [], [1]] sharded_dims_offsets = [0, 2, 4, 0, 2, 6] : !mesh.sharding
  %cs = mesh.shard %c to %s : tensor<1x4x4x6xf32>
  return %cs : tensor<1x4x4x6xf32>
}

// 3 images over axis 1 (1, 2), rows over axis 0.
func.func @conv_batch(%x: tensor<3x8x8x2xf32>, %w: tensor<4x3x3x2xf32>, %b: tensor<4xf32>) -> tensor<3x8x8x4xf32> {
  %r = mesh.sharding @m split_axes = [[]] : !mesh.sharding
  %xr = mesh.shard %x to %r : tensor<3x8x8x2xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %c = tosa.conv2d %xr, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : (tensor<3x8x8x2xf32>, tensor<4x3x3x2xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3x8x8x4xf32>
  %s = mesh.sharding @m split_axes = [[1], [0]] : !mesh.sharding
  %cs = mesh.shard %c to %s : tensor<3x8x8x4xf32>
  return %cs : tensor<3x8x8x4xf32>
}

// Strided and dilated on 2x3: rows over axis 0, 5 images over axis 1 (1, 2, 2).
func.func @conv_strided(%x: tensor<5x16x6x3xf32>, %w: tensor<2x3x3x3xf32>, %b: tensor<2xf32>) -> tensor<5x8x3x2xf32> {
  %r = mesh.sharding @m23 split_axes = [[]] : !mesh.sharding
  %xr = mesh.shard %x to %r : tensor<5x16x6x3xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %c = tosa.conv2d %xr, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 2, 2>, pad = array<i64: 2, 1, 2, 1>, stride = array<i64: 2, 2>}
      : (tensor<5x16x6x3xf32>, tensor<2x3x3x3xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<5x8x3x2xf32>
  %s = mesh.sharding @m23 split_axes = [[1], [0]] : !mesh.sharding
  %cs = mesh.shard %c to %s : tensor<5x8x3x2xf32>
  return %cs : tensor<5x8x3x2xf32>
}

// Average pooling without padding (window 4, stride 2): 3 images over axis 1.
func.func @avg_pool(%x: tensor<3x10x6x2xf32>) -> tensor<3x4x6x2xf32> {
  %r = mesh.sharding @m split_axes = [[]] : !mesh.sharding
  %xr = mesh.shard %x to %r : tensor<3x10x6x2xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %c = tosa.avg_pool2d %xr, %zp, %zp {acc_type = f32, kernel = array<i64: 4, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 1>}
      : (tensor<3x10x6x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3x4x6x2xf32>
  %s = mesh.sharding @m split_axes = [[1], [0]] : !mesh.sharding
  %cs = mesh.shard %c to %s : tensor<3x4x6x2xf32>
  return %cs : tensor<3x4x6x2xf32>
}

// linalg: 3 images over axis 1, output rows over axis 0.
func.func @linalg_conv(%x: tensor<3x10x10x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<3x8x8x4xf32> {
  %r = mesh.sharding @m split_axes = [[]] : !mesh.sharding
  %xr = mesh.shard %x to %r : tensor<3x10x10x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x8x8x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<3x8x8x4xf32>) -> tensor<3x8x8x4xf32>
  %c = linalg.conv_2d_nhwc_hwcf ins(%xr, %w : tensor<3x10x10x3xf32>, tensor<3x3x3x4xf32>) outs(%z : tensor<3x8x8x4xf32>) -> tensor<3x8x8x4xf32>
  %s = mesh.sharding @m split_axes = [[1], [0]] : !mesh.sharding
  %cs = mesh.shard %c to %s : tensor<3x8x8x4xf32>
  return %cs : tensor<3x8x8x4xf32>
}

// linalg max pooling on 2x3: rows over axis 0, 5 channels over axis 1.
func.func @linalg_pool(%x: tensor<1x10x4x5xf32>) -> tensor<1x8x2x5xf32> {
  %r = mesh.sharding @m23 split_axes = [[]] : !mesh.sharding
  %xr = mesh.shard %x to %r : tensor<1x10x4x5xf32>
  %k = tensor.empty() : tensor<3x3xf32>
  %lowest = arith.constant -3.0e38 : f32
  %e = tensor.empty() : tensor<1x8x2x5xf32>
  %z = linalg.fill ins(%lowest : f32) outs(%e : tensor<1x8x2x5xf32>) -> tensor<1x8x2x5xf32>
  %c = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%xr, %k : tensor<1x10x4x5xf32>, tensor<3x3xf32>) outs(%z : tensor<1x8x2x5xf32>) -> tensor<1x8x2x5xf32>
  %s = mesh.sharding @m23 split_axes = [[], [0], [], [1]] : !mesh.sharding
  %cs = mesh.shard %c to %s : tensor<1x8x2x5xf32>
  return %cs : tensor<1x8x2x5xf32>
}

// out[i, j] = sum_k x[i + k, j] * w[k]: rows over axis 0, 5 columns over axis 1 (2, 3).
func.func @stencil(%x: tensor<10x5xf32>, %k: tensor<3xf32>) -> tensor<8x5xf32> {
  %r = mesh.sharding @m split_axes = [[]] : !mesh.sharding
  %xr = mesh.shard %x to %r : tensor<10x5xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x5xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x5xf32>) -> tensor<8x5xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i + k, j)>, affine_map<(i, j, k) -> (k)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%xr, %k : tensor<10x5xf32>, tensor<3xf32>) outs(%z : tensor<8x5xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %t = arith.addf %o, %m : f32
    linalg.yield %t : f32
  } -> tensor<8x5xf32>
  %s = mesh.sharding @m split_axes = [[0], [1]] : !mesh.sharding
  %cs = mesh.shard %c to %s : tensor<8x5xf32>
  return %cs : tensor<8x5xf32>
}

// The same on 2x3: 7 columns over axis 1 (2, 2, 3).
func.func @stencil_2x3(%x: tensor<14x7xf32>, %k: tensor<3xf32>) -> tensor<12x7xf32> {
  %r = mesh.sharding @m23 split_axes = [[]] : !mesh.sharding
  %xr = mesh.shard %x to %r : tensor<14x7xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<12x7xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<12x7xf32>) -> tensor<12x7xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i + k, j)>, affine_map<(i, j, k) -> (k)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%xr, %k : tensor<14x7xf32>, tensor<3xf32>) outs(%z : tensor<12x7xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %t = arith.addf %o, %m : f32
    linalg.yield %t : f32
  } -> tensor<12x7xf32>
  %s = mesh.sharding @m23 split_axes = [[0], [1]] : !mesh.sharding
  %cs = mesh.shard %c to %s : tensor<12x7xf32>
  return %cs : tensor<12x7xf32>
}

// A 1-D mesh: only the rows are split (evenly), as before.
func.func @max_pool_1d(%x: tensor<1x8x8x3xf32>) -> tensor<1x8x8x3xf32> {
  %r = mesh.sharding @m4 split_axes = [[]] : !mesh.sharding
  %xr = mesh.shard %x to %r : tensor<1x8x8x3xf32>
  %c = tosa.max_pool2d %xr {kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xf32>) -> tensor<1x8x8x3xf32>
  %s = mesh.sharding @m4 split_axes = [[], [0]] : !mesh.sharding
  %cs = mesh.shard %c to %s : tensor<1x8x8x3xf32>
  return %cs : tensor<1x8x8x3xf32>
}
