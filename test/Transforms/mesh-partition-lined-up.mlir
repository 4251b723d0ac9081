// A tosa.depthwise_conv2d splits its channel loop into the same blocks of
// its C input channels and its C*M output channels (c*M + m follows c).
// When the channels are cut unevenly, the operands partition reshards
// itself (the bias, the weights, a whole input) take the cut of the layouts
// that stay, scaled to their size, instead of the default cut of their own
// size (6 over 2 is 3, 3, not the 2, 4 that 1, 2 channels give).
// (Simulating these needs the tosa convolutions to run on a dynamic channel
// count: sim/ops/tosa_window.py.)
// RUN: mesh-opt --split-input-file --mesh-partition %s 2>/dev/null | FileCheck %s
// RUN: mesh-opt --split-input-file --mesh-partition %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// The input arrives with its 3 channels cut 1, 2 (the default cut); the
// result is annotated with the 6 output channels cut 2, 4: the bias is
// resharded to 2, 4, the weights' channels to the default 1, 2.
// REMARK: remark: the operands of 'tosa.depthwise_conv2d' do not fit the layouts of its results: operand 1 from split_axes = {{\[\[\]\]}} to split_axes = {{\[\[\], \[\], \[0\]\]}}, operand 2 from split_axes = {{\[\[\]\]}} to split_axes = {{\[\[0\]\]}} sharded_dims_offsets = [0, 2, 6] resharded
// CHECK-LABEL: func.func @input_cut
// CHECK: arith.constant dense<[0, 2]> : tensor<2xindex>
// CHECK: arith.constant dense<[2, 4]> : tensor<2xindex>
// CHECK: tosa.depthwise_conv2d {{.*}} -> tensor<1x4x4x?xf32>
mesh.mesh @m2(shape = 2)
func.func @input_cut(%x: tensor<1x4x4x3xf32>, %w: tensor<3x3x3x2xf32>, %b: tensor<6xf32>) -> tensor<1x4x4x6xf32> {
  %s = mesh.sharding @m2 split_axes = [[], [], [], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<1x4x4x3xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %c = tosa.depthwise_conv2d %xs, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : (tensor<1x4x4x3xf32>, tensor<3x3x3x2xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x6xf32>
  %s2 = mesh.sharding @m2 split_axes = [[], [], [], [0]] sharded_dims_offsets = [0, 2, 6] : !mesh.sharding
  %cs = mesh.shard %c to %s2 : tensor<1x4x4x6xf32>
  return %cs : tensor<1x4x4x6xf32>
}

// -----

// Only the result is annotated (6 channels cut 4, 2): the input and the
// weights are cut 2, 1 (scaled down), the bias as the result.
// REMARK: remark: the operands of 'tosa.depthwise_conv2d' do not fit the layouts of its results: operand 0 from split_axes = {{\[\[\]\]}} to split_axes = {{\[\[\], \[\], \[\], \[0\]\]}} sharded_dims_offsets = [0, 2, 3], operand 1 from split_axes = {{\[\[\]\]}} to split_axes = {{\[\[\], \[\], \[0\]\]}} sharded_dims_offsets = [0, 2, 3], operand 2 from split_axes = {{\[\[\]\]}} to split_axes = {{\[\[0\]\]}} sharded_dims_offsets = [0, 4, 6] resharded
// CHECK-LABEL: func.func @result_cut
// CHECK-SAME: -> (tensor<1x4x4x?xf32> {mesh.sharding = #mesh.sharding<@m2, {{\[\[\], \[\], \[\], \[0\]\]}}, sharded_dims_offsets = [0, 4, 6]>})
mesh.mesh @m2(shape = 2)
func.func @result_cut(%x: tensor<1x4x4x3xf32>, %w: tensor<3x3x3x2xf32>, %b: tensor<6xf32>) -> tensor<1x4x4x6xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %c = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : (tensor<1x4x4x3xf32>, tensor<3x3x3x2xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x6xf32>
  %s2 = mesh.sharding @m2 split_axes = [[], [], [], [0]] sharded_dims_offsets = [0, 4, 6] : !mesh.sharding
  %cs = mesh.shard %c to %s2 : tensor<1x4x4x6xf32>
  return %cs : tensor<1x4x4x6xf32>
}

// -----

// A 2x2 mesh, the channels split over both axes: 5 input channels by the
// default cut (1, 1, 1, 2), the 10 output channels annotated 2, 2, 2, 4.
// REMARK: operand 2 from split_axes = {{\[\[\]\]}} to split_axes = {{\[\[0, 1\]\]}} sharded_dims_offsets = [0, 2, 4, 6, 10] resharded
// CHECK-LABEL: func.func @both_axes
mesh.mesh @m(shape = 2x2)
func.func @both_axes(%x: tensor<1x4x4x5xf32>, %w: tensor<3x3x5x2xf32>, %b: tensor<10xf32>) -> tensor<1x2x4x10xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %c = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 1, 1>, stride = array<i64: 1, 1>}
      : (tensor<1x4x4x5xf32>, tensor<3x3x5x2xf32>, tensor<10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x4x10xf32>
  %s2 = mesh.sharding @m split_axes = [[], [], [], [0, 1]] sharded_dims_offsets = [0, 2, 4, 6, 10] : !mesh.sharding
  %cs = mesh.shard %c to %s2 : tensor<1x2x4x10xf32>
  return %cs : tensor<1x2x4x10xf32>
}

// -----

// A recorded loop sharding splits the channels and nothing stays as it is
// (the input arrives split by rows): the smallest dimension's default cut
// (3 channels: 1, 2) sets the loop's, the bias and the unannotated result
// follow it.
// REMARK: operand 2 from split_axes = {{\[\[\]\]}} to split_axes = {{\[\[0\]\]}} sharded_dims_offsets = [0, 2, 6] resharded
// REMARK: remark: the operands of 'tosa.exp' do not fit the layouts of its results: operand 0 from split_axes = {{\[\[\], \[\], \[\], \[0\]\]}} sharded_dims_offsets = [0, 2, 6] to split_axes = {{\[\[\]\]}} resharded
// CHECK-LABEL: func.func @recorded_option
mesh.mesh @m2(shape = 2)
func.func @recorded_option(%x: tensor<1x4x4x3xf32>, %w: tensor<3x3x3x2xf32>, %b: tensor<6xf32>) -> tensor<1x4x4x6xf32> {
  %rows = mesh.sharding @m2 split_axes = [[], [0]] : !mesh.sharding
  %x0 = mesh.shard %x to %rows : tensor<1x4x4x3xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %c = tosa.depthwise_conv2d %x0, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, mesh.sharding_option = #mesh.sharding<@m2, [[], [], [], [0]]>}
      : (tensor<1x4x4x3xf32>, tensor<3x3x3x2xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x6xf32>
  %e = tosa.exp %c : (tensor<1x4x4x6xf32>) -> tensor<1x4x4x6xf32>
  return %e : tensor<1x4x4x6xf32>
}
