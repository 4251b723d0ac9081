// Partition alone on hand-annotated reshapes whose operand's cut lines up
// with no cut of the loop the result's annotation splits: 12 rows cut 6 and
// 6, expanded to 3x4 with the 4 split (each device's 6 rows are one and a
// half of the 3); 6 columns over 3 devices collapsed into 12 rows split over
// both mesh axes. The op then follows its result's annotation alone: its
// operand is gathered, the result sliced to its layout. Partition refused
// both ("the pieces around 'tensor.expand_shape' do not line up"), where
// propagation first had planned them; found by a review. Where the operand
// lines up with no cut of the result either (a convolution's 3 input
// channels against 6 output channels cut 1 and 5, halos and offsets on one
// input, 7 rows of 2 against 14 cut 3, 3, 4, 4), the op runs whole and its
// result is cut to its layout, where partition refused them too.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir 2>/dev/null
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir -f expand --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f collapse --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f no_cut_of_the_channels --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f no_cut_of_the_rows --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f halos_and_uneven_channels --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f offsets --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// SIM: match
// SIM-NOT: MISMATCH
// CHECK-LABEL: func.func @expand(
// CHECK-NEXT: %[[G:.*]] = mesh.all_gather %arg0 on @m mesh_axes = [0] gather_axis = 0 : tensor<6x5xf32> -> tensor<12x5xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.expand_shape %[[G]] {{\[\[}}0, 1], [2]] output_shape [3, 4, 5] : tensor<12x5xf32> into tensor<3x4x5xf32>
// CHECK-NEXT: %[[S:.*]] = mesh.all_slice %[[E]] on @m mesh_axes = [0] slice_axis = 1 : tensor<3x4x5xf32> -> tensor<3x2x5xf32>
// CHECK-NEXT: return %[[S]]
// CHECK-LABEL: func.func @collapse(
// CHECK-NEXT: %[[G:.*]] = mesh.all_gather %arg0 on @m mesh_axes = [1] gather_axis = 1 : tensor<2x2x5xf32> -> tensor<2x6x5xf32>
// CHECK-NEXT: %[[C:.*]] = tensor.collapse_shape %[[G]] {{\[\[}}0, 1], [2]] : tensor<2x6x5xf32> into tensor<12x5xf32>
// CHECK-NEXT: %[[S:.*]] = mesh.all_slice %[[C]] on @m mesh_axes = [1, 0] slice_axis = 0 : tensor<12x5xf32> -> tensor<2x5xf32>
// CHECK-NEXT: return %[[S]]
// CHECK-LABEL: func.func @no_cut_of_the_rows(
// CHECK-NEXT: %[[C:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<7x2xf32> into tensor<14xf32>
// CHECK-NEXT: mesh.process_multi_index on @m4 axes = [0] : index
// CHECK-NOT: mesh.all_gather
// CHECK: return

mesh.mesh @m(shape = 2x3)
mesh.mesh @m2(shape = 2)
mesh.mesh @m4(shape = 4)
mesh.mesh @mm(shape = 2x2)

func.func @expand(%x: tensor<12x5xf32>) -> tensor<3x4x5xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<12x5xf32>
  %y = tensor.expand_shape %xs [[0, 1], [2]] output_shape [3, 4, 5] : tensor<12x5xf32> into tensor<3x4x5xf32>
  %t = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %ys = mesh.shard %y to %t : tensor<3x4x5xf32>
  return %ys : tensor<3x4x5xf32>
}

func.func @collapse(%x: tensor<2x6x5xf32>) -> tensor<12x5xf32> {
  %s = mesh.sharding @m split_axes = [[], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<2x6x5xf32>
  %y = tensor.collapse_shape %xs [[0, 1], [2]] : tensor<2x6x5xf32> into tensor<12x5xf32>
  %t = mesh.sharding @m split_axes = [[1, 0]] : !mesh.sharding
  %ys = mesh.shard %y to %t : tensor<12x5xf32>
  return %ys : tensor<12x5xf32>
}

// 6 output channels cut 1, 5: 3 input channels cannot be cut into halves.
// (These four were refused: the op now runs whole and its result is cut.)
func.func @no_cut_of_the_channels(%x: tensor<1x4x4x3xf32>, %w: tensor<3x3x3x2xf32>, %b: tensor<6xf32>) -> tensor<1x4x4x6xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %c = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : (tensor<1x4x4x3xf32>, tensor<3x3x3x2xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x6xf32>
  %s2 = mesh.sharding @m2 split_axes = [[], [], [], [0]] sharded_dims_offsets = [0, 1, 6] : !mesh.sharding
  %cs = mesh.shard %c to %s2 : tensor<1x4x4x6xf32>
  return %cs : tensor<1x4x4x6xf32>
}

// 14 elements cut by default over 4 (3, 3, 4, 4): 7 rows of 2 have no such cut.
func.func @no_cut_of_the_rows(%x: tensor<7x2xf32>) -> tensor<14xf32> {
  %s = mesh.sharding @m4 split_axes = [[0]] : !mesh.sharding
  %c = tensor.collapse_shape %x [[0, 1]] : tensor<7x2xf32> into tensor<14xf32>
  %c0 = mesh.shard %c to %s : tensor<14xf32>
  return %c0 : tensor<14xf32>
}

// 6 output channels cut 4, 2: the input's 3 channels would need the cut 2, 1
// and halos on its rows at once, which one layout cannot carry (a whole
// input whose channels take the default cut 1, 2 partitions: test/Sim/halo/uneven-beside.mlir).
func.func @halos_and_uneven_channels(%x: tensor<1x4x4x3xf32>, %w: tensor<3x3x3x2xf32>, %b: tensor<6xf32>) -> tensor<1x4x4x6xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %c = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : (tensor<1x4x4x3xf32>, tensor<3x3x3x2xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x6xf32>
  %s2 = mesh.sharding @mm split_axes = [[], [0], [], [1]] sharded_dims_offsets = [0, 2, 4, 0, 4, 6] : !mesh.sharding
  %cs = mesh.shard %c to %s2 : tensor<1x4x4x6xf32>
  return %cs : tensor<1x4x4x6xf32>
}

// Channels cut 2, 1 by offsets: the input would need both halos and
// offsets, which one layout cannot carry.
func.func @offsets(%x: tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32> {
  %r = mesh.sharding @mm split_axes = [[]] : !mesh.sharding
  %xr = mesh.shard %x to %r : tensor<1x4x4x3xf32>
  %c = tosa.max_pool2d %xr {kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  %s = mesh.sharding @mm split_axes = [[], [0], [], [1]] sharded_dims_offsets = [0, 2, 4, 0, 2, 3] : !mesh.sharding
  %cs = mesh.shard %c to %s : tensor<1x4x4x3xf32>
  return %cs : tensor<1x4x4x3xf32>
}
