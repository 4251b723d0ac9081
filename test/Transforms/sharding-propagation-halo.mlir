// RUN: mesh-opt --split-input-file --sharding-propagation %s | FileCheck %s
// RUN: mesh-opt --split-input-file --pass-pipeline='builtin.module(sharding-propagation{solver=sweep})' %s | FileCheck %s --check-prefix=SWEEP
// RUN: mesh-opt --split-input-file --pass-pipeline='builtin.module(sharding-propagation{explain=true})' %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLAIN

// Ops that read their input through a window split their output's spatial
// loops; the input then needs halos, which the annotation for its users
// carries.  A max pooling with window 3, stride 1 and padding (0, 2) on its
// rows: output rows [2p, 2p + 2) read input rows [2p, 2p + 4), so with the
// pieces aligned the halo is 2 rows below and none above.

// CHECK-LABEL: func.func @aligned_pool
// CHECK-DAG: %[[H:.*]] = mesh.sharding @m split_axes = {{\[\[}}], [0]] halo_sizes = [0, 2] : !mesh.sharding
// CHECK-DAG: %[[S:.*]] = mesh.sharding @m split_axes = {{\[\[}}], [0]] : !mesh.sharding
// CHECK: %[[X:.*]] = mesh.shard %arg0 to %[[S]] : tensor<1x8x4x2xf32>
// CHECK: %[[XH:.*]] = mesh.shard %[[X]] to %[[H]] annotate_for_users : tensor<1x8x4x2xf32>
// CHECK: tosa.max_pool2d %[[XH]] {{.*}}mesh.sharding_option = #mesh.sharding<@m, {{\[\[}}], [0]]>
// SWEEP-LABEL: func.func @aligned_pool
// SWEEP: mesh.sharding @m split_axes = {{\[\[}}], [0]] halo_sizes = [0, 2]
// EXPLAIN: remark: operand 0 of 'tosa.max_pool2d' is resharded from @m split_axes = {{\[\[}}], [0]] (annotated at {{.*}}) to @m split_axes = {{\[\[}}], [0]] halo_sizes = [0, 2]: 64 bytes received per device each time
mesh.mesh @m(shape = 4)
func.func @aligned_pool(%x: tensor<1x8x4x2xf32>) -> tensor<1x8x4x2xf32> {
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<1x8x4x2xf32>
  %p = tosa.max_pool2d %xs {kernel = array<i64: 3, 1>, pad = array<i64: 0, 2, 0, 0>, stride = array<i64: 1, 1>}
      : (tensor<1x8x4x2xf32>) -> tensor<1x8x4x2xf32>
  %ps = mesh.shard %p to %s : tensor<1x8x4x2xf32>
  return %ps : tensor<1x8x4x2xf32>
}

// -----

// A stencil whose output is wanted split: splitting it with halos brings a
// device at most 6 rows (3 from each side, 24 bytes); gathering its input
// would bring 15.

// CHECK-LABEL: func.func @stencil
// EXPLAIN: remark: operand 0 of 'linalg.generic' is resharded from @m split_axes = {{\[\[}}0]] (annotated at {{.*}}) to @m split_axes = {{\[\[}}0]] halo_sizes = [3, 3]: 24 bytes received per device each time
// CHECK: mesh.sharding @m split_axes = {{\[\[}}0]] halo_sizes = [3, 3]
// CHECK: linalg.generic {{.*}}mesh.sharding_option = #mesh.sharding<@m, {{\[\[}}0]]>
#in = affine_map<(i, k) -> (i + k)>
#w = affine_map<(i, k) -> (k)>
#out = affine_map<(i, k) -> (i)>
mesh.mesh @m(shape = 4)
func.func @stencil(%x: tensor<20xf32>, %k: tensor<5xf32>, %init: tensor<16xf32>) -> tensor<16xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<20xf32>
  %r = linalg.generic {indexing_maps = [#in, #w, #out], iterator_types = ["parallel", "reduction"]}
      ins(%xs, %k : tensor<20xf32>, tensor<5xf32>) outs(%init : tensor<16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %t = arith.addf %c, %m : f32
    linalg.yield %t : f32
  } -> tensor<16xf32>
  %rs = mesh.shard %r to %s : tensor<16xf32>
  return %rs : tensor<16xf32>
}

// -----

// An explicit loop sharding of a convolution gives its input the halos the
// option implies; the window loops and (tosa) input channels stay whole.

// CHECK-LABEL: func.func @explicit_option
// CHECK: mesh.sharding @m2 split_axes = {{\[\[}}], [0], [1]] halo_sizes = [1, 1, 1, 1]
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}mesh.sharding_option = #mesh.sharding<@m2, {{\[\[}}], [0], [1]]>
mesh.mesh @m2(shape = 2x2)
func.func @explicit_option(%x: tensor<1x10x10x3xf32>, %w: tensor<3x3x3x4xf32>, %o: tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32> {
  %c = linalg.conv_2d_nhwc_hwcf {mesh.sharding_option = #mesh.sharding<@m2, [[], [0], [1]]>}
      ins(%x, %w : tensor<1x10x10x3xf32>, tensor<3x3x3x4xf32>) outs(%o : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  return %c : tensor<1x8x8x4xf32>
}

// -----

// An average pooling that pads a dimension divides by the cells inside the
// input: that dimension's loop is never split, so the op runs on whole rows
// (gathered) and its result is sliced.

// CHECK-LABEL: func.func @avg_pool_padded
// CHECK-NOT: halo_sizes
// CHECK: tosa.avg_pool2d {{.*}}mesh.sharding_option = #mesh.sharding<@m, {{\[\[}}], [], [0]]>
mesh.mesh @m(shape = 2)
func.func @avg_pool_padded(%x: tensor<1x8x8x2xf32>) -> tensor<1x8x4x2xf32> {
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %t = mesh.sharding @m split_axes = [[], [], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<1x8x8x2xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %p = tosa.avg_pool2d %xs, %zp, %zp {acc_type = f32, kernel = array<i64: 3, 2>, pad = array<i64: 1, 1, 0, 0>, stride = array<i64: 1, 2>}
      : (tensor<1x8x8x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x4x2xf32>
  %ps = mesh.shard %p to %t : tensor<1x8x4x2xf32>
  return %ps : tensor<1x8x4x2xf32>
}

// -----

// A loop read through a window is never split over a mesh axis of dynamic
// size (its halos would depend on the size): the convolution splits its
// batch instead.

// CHECK-LABEL: func.func @dynamic_mesh
// CHECK-NOT: halo_sizes
// CHECK: linalg.conv_1d_nwc_wcf {{.*}}mesh.sharding_option = #mesh.sharding<@d, {{\[\[}}0]]>
mesh.mesh @d(shape = ?)
func.func @dynamic_mesh(%x: tensor<4x10x2xf32>, %w: tensor<3x2x2xf32>, %o: tensor<4x8x2xf32>) -> tensor<4x8x2xf32> {
  %s = mesh.sharding @d split_axes = [[0]] : !mesh.sharding
  %h = mesh.sharding @d split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x10x2xf32>
  %c = linalg.conv_1d_nwc_wcf ins(%xs, %w : tensor<4x10x2xf32>, tensor<3x2x2xf32>) outs(%o : tensor<4x8x2xf32>) -> tensor<4x8x2xf32>
  %cs = mesh.shard %c to %h : tensor<4x8x2xf32>
  return %cs : tensor<4x8x2xf32>
}
