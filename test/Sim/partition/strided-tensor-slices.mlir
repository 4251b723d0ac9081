// tensor.extract_slice and insert_slice taking every t-th element of a
// dimension split over both axes of a 2x2 mesh, from an offset below t
// with t times as many elements as they take: each device slices (or
// inserts into) its own piece at the same offset and stride, with its
// piece's size.  Columns 1::2 of 16, row 2 and columns 3::4 (rank-reduced),
// and 2x8 elements (rows 1::2 of 4, columns ::2 of 16) inserted from a linalg
// result.  3::3 up to 13 reads at device-dependent offsets: each device
// finds its element in its own piece (a crop), at an offset read from a
// table at its piece number.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir -f slices --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f slices --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f slices --compare-with %s -q --seed 3 | FileCheck %s
// RUN: mesh-run %t.mlir -f inserted --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f inserted --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f kept --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-opt --mesh-partition %s -o %t.alone.mlir
// RUN: FileCheck %s --check-prefix=ALONE < %t.alone.mlir
// RUN: mesh-run %t.alone.mlir -f odd_cut --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.alone.mlir -f odd_cut --compare-with %s -q --seed 2 | FileCheck %s
// CHECK: match

// IR-LABEL: func.func @slices(
// IR-NOT: = mesh.
// IR: tensor.extract_slice %arg0[0, 1] [4, 2] [1, 2] : tensor<4x4xf32> to tensor<4x2xf32>
// IR-NEXT: tensor.extract_slice %arg0[2, 3] [1, 1] [1, 4] : tensor<4x4xf32> to tensor<1xf32>
// IR-LABEL: func.func @inserted(
// IR-NOT: = mesh.
// IR: tensor.insert_slice %{{.*}} into %arg0[1, 0] [1, 4] [2, 2] : tensor<1x4xf32> into tensor<2x8xf32>
// IR-NOT: = mesh.
// IR: return
// IR-LABEL: func.func @kept(
// IR-NOT: mesh.all_to_all
// IR: arith.constant dense<[3, 2, 1, 0]> : tensor<4xindex>
// IR: tensor.extract_slice %arg0[0, %{{.*}}] [4, 1] [1, 3] : tensor<4x4xf32> to tensor<4x1xf32>
// IR-NOT: mesh.all_to_all
// IR: return

mesh.mesh @m2(shape = 2x2)
mesh.mesh @m3(shape = 3)

func.func @slices(%x: tensor<4x16xf32>) -> (tensor<4x8xf32>, tensor<4xf32>) {
  %s = mesh.sharding @m2 split_axes = [[], [0, 1]] : !mesh.sharding
  %t = mesh.sharding @m2 split_axes = [[0, 1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x16xf32>
  %0 = tensor.extract_slice %xs[0, 1] [4, 8] [1, 2] : tensor<4x16xf32> to tensor<4x8xf32>
  %1 = tensor.extract_slice %xs[2, 3] [1, 4] [1, 4] : tensor<4x16xf32> to tensor<4xf32>
  %r0 = mesh.shard %0 to %s : tensor<4x8xf32>
  %r1 = mesh.shard %1 to %t : tensor<4xf32>
  return %r0, %r1 : tensor<4x8xf32>, tensor<4xf32>
}

func.func @inserted(%x: tensor<4x16xf32>, %y: tensor<2x8xf32>) -> tensor<4x16xf32> {
  %s = mesh.sharding @m2 split_axes = [[0], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x16xf32>
  %ys = mesh.shard %y to %s : tensor<2x8xf32>
  %e = tensor.empty() : tensor<2x8xf32>
  %sq = linalg.mul ins(%ys, %ys : tensor<2x8xf32>, tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %0 = tensor.insert_slice %sq into %xs[1, 0] [2, 8] [2, 2] : tensor<2x8xf32> into tensor<4x16xf32>
  %r = mesh.shard %0 to %s : tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

func.func @kept(%x: tensor<4x16xf32>) -> tensor<4x4xf32> {
  %s = mesh.sharding @m2 split_axes = [[], [0, 1]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x16xf32>
  %0 = tensor.extract_slice %xs[0, 3] [4, 4] [1, 3] : tensor<4x16xf32> to tensor<4x4xf32>
  %r = mesh.shard %0 to %s : tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// Every other element of 26 from 1, the result cut by hand 6, 5, 2:
// partition alone reshards the operand to twice that cut (12, 10, 4) and
// each device takes half its piece (a size only known at run time: the
// whole piece was taken before, past the piece's end).
// ALONE-LABEL: func.func @odd_cut(
// ALONE: %[[HALF:.*]] = arith.divui %{{.*}}, %c2 : index
// ALONE: tensor.extract_slice %{{.*}}[1] [%[[HALF]]] [2] : tensor<?xf32> to tensor<?xf32>
func.func @odd_cut(%a: tensor<26xf32>) -> tensor<13xf32> {
  %x = tensor.extract_slice %a[1] [13] [2] : tensor<26xf32> to tensor<13xf32>
  %c = mesh.sharding @m3 split_axes = [[0]] sharded_dims_offsets = [0, 6, 11, 13] : !mesh.sharding
  %xs = mesh.shard %x to %c : tensor<13xf32>
  return %xs : tensor<13xf32>
}
