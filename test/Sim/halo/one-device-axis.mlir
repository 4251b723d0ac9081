// A dimension split over a mesh axis of one device still has its halos: the
// one piece is the whole dimension plus its halo cells (left undefined past
// the edges).  Partition dropped them, returning tensor<4xi32> where the
// signature said halo_sizes = [1, 1].
// RUN: mesh-opt --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f one -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f minor -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f rows -q --seed 3 | FileCheck %s
// CHECK: match

mesh.mesh @m1(shape = 1)
mesh.mesh @m21(shape = 2x1)

// IR-LABEL: func.func @one(
// IR-SAME: -> (tensor<6xi32> {mesh.sharding = #mesh.sharding<@m1, {{\[\[}}0{{\]\]}}, halo_sizes = [1, 1]>})
// IR: tensor.extract_slice %arg0[%{{.*}}] [%{{.*}}] [1] : tensor<4xi32> to tensor<?xi32>
// IR: %[[E:.*]] = tensor.empty() : tensor<6xi32>
// IR: tensor.insert_slice %{{.*}} into %[[E]]
func.func @one(%x: tensor<4xi32>) -> tensor<4xi32> {
  %r = mesh.sharding @m1 split_axes = [[]] : !mesh.sharding
  %xr = mesh.shard %x to %r : tensor<4xi32>
  %h = mesh.sharding @m1 split_axes = [[0]] halo_sizes = [1, 1] : !mesh.sharding
  %xh = mesh.shard %xr to %h annotate_for_users : tensor<4xi32>
  return %xh : tensor<4xi32>
}

// IR-LABEL: func.func @minor(
// IR-SAME: -> (tensor<6xi32> {mesh.sharding = #mesh.sharding<@m21, {{\[\[}}1{{\]\]}}, halo_sizes = [1, 1]>})
func.func @minor(%x: tensor<4xi32>) -> tensor<4xi32> {
  %r = mesh.sharding @m21 split_axes = [[]] : !mesh.sharding
  %xr = mesh.shard %x to %r : tensor<4xi32>
  %h = mesh.sharding @m21 split_axes = [[1]] halo_sizes = [1, 1] : !mesh.sharding
  %xh = mesh.shard %xr to %h annotate_for_users : tensor<4xi32>
  return %xh : tensor<4xi32>
}

// Rows over the two devices of axis 0, columns over the one of axis 1,
// halos on both.
// IR-LABEL: func.func @rows(
// IR-SAME: -> (tensor<5x7xi32> {mesh.sharding = #mesh.sharding<@m21, {{\[\[}}0], [1{{\]\]}}, halo_sizes = [1, 0, 2, 1]>})
func.func @rows(%x: tensor<8x4xi32>) -> tensor<8x4xi32> {
  %r = mesh.sharding @m21 split_axes = [[]] : !mesh.sharding
  %xr = mesh.shard %x to %r : tensor<8x4xi32>
  %h = mesh.sharding @m21 split_axes = [[0], [1]] halo_sizes = [1, 0, 2, 1] : !mesh.sharding
  %xh = mesh.shard %xr to %h annotate_for_users : tensor<8x4xi32>
  return %xh : tensor<8x4xi32>
}
