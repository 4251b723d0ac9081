// A value partition reshards takes the cut of the uneven loop it follows,
// scaled to its size; where no cut of its size gives each device the same
// part of the loop, partition refuses and says the layout is its own
// reshard (the annotation to change is the other one).
// RUN: mesh-opt --split-input-file --verify-diagnostics --mesh-partition %s

// 6 output channels cut 1, 5: 3 input channels cannot be cut into halves.
mesh.mesh @m2(shape = 2)
func.func @no_cut_of_the_channels(%x: tensor<1x4x4x3xf32>, %w: tensor<3x3x3x2xf32>, %b: tensor<6xf32>) -> tensor<1x4x4x6xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-error@+1 {{the pieces around 'tosa.depthwise_conv2d' do not line up: result 0 is cut as [0:1, 1:6] along loop 3, and no cut of the 3 elements of operand 0, which partition reshards to fit it, gives each device the same part of that loop}}
  %c = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : (tensor<1x4x4x3xf32>, tensor<3x3x3x2xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x6xf32>
  %s2 = mesh.sharding @m2 split_axes = [[], [], [], [0]] sharded_dims_offsets = [0, 1, 6] : !mesh.sharding
  %cs = mesh.shard %c to %s2 : tensor<1x4x4x6xf32>
  return %cs : tensor<1x4x4x6xf32>
}

// -----

// 14 elements cut by default over 4 (3, 3, 4, 4): 7 rows of 2 have no such cut.
mesh.mesh @m4(shape = 4)
func.func @no_cut_of_the_rows(%x: tensor<7x2xf32>) -> tensor<14xf32> {
  %s = mesh.sharding @m4 split_axes = [[0]] : !mesh.sharding
  // expected-error@+1 {{the pieces around 'tensor.collapse_shape' do not line up: result 0 is cut as [0:3, 3:6, 6:10, 10:14] along loop 0, and no cut of the 7 elements of operand 0, which partition reshards to fit it}}
  %c = tensor.collapse_shape %x [[0, 1]] : tensor<7x2xf32> into tensor<14xf32>
  %c0 = mesh.shard %c to %s : tensor<14xf32>
  return %c0 : tensor<14xf32>
}

// -----

// 6 output channels cut 4, 2: the input's 3 channels would need the cut 2, 1
// and halos on its rows at once, which one layout cannot carry (a whole
// input whose channels take the default cut 1, 2 partitions: test/Sim/halo/uneven-beside.mlir).
mesh.mesh @m(shape = 2x2)
func.func @halos_and_uneven_channels(%x: tensor<1x4x4x3xf32>, %w: tensor<3x3x3x2xf32>, %b: tensor<6xf32>) -> tensor<1x4x4x6xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-error@+1 {{the pieces around 'tosa.depthwise_conv2d' do not line up: operand 0, resharded by partition, would need halos and the pieces [0:2, 2:3] of dimension 3 at once; a layout with halos has no offsets}}
  %c = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : (tensor<1x4x4x3xf32>, tensor<3x3x3x2xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x6xf32>
  %s2 = mesh.sharding @m split_axes = [[], [0], [], [1]] sharded_dims_offsets = [0, 2, 4, 0, 4, 6] : !mesh.sharding
  %cs = mesh.shard %c to %s2 : tensor<1x4x4x6xf32>
  return %cs : tensor<1x4x4x6xf32>
}
