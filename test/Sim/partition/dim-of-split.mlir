// tensor.dim has no sharding rule, yet partition handles it in any layout:
// the size of a split dimension becomes the whole tensor's size (summed over
// the pieces).  Propagation refused it as an unknown op beside a sharded
// value; it now lets it through, and the program matches.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f uneven -q | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f offsets -q | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f halos -q | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f dynamic_index -q --seed 2 | FileCheck %s
// CHECK: match

mesh.mesh @mesh(shape = 2x2)

// 7 rows over 4 devices in axis order [1, 0]
func.func @uneven(%x: tensor<7x5xi32>) -> index {
  %s = mesh.sharding @mesh split_axes = [[1, 0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<7x5xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x0, %c0 : tensor<7x5xi32>
  %d1 = tensor.dim %x0, %c1 : tensor<7x5xi32>
  %r = arith.muli %d0, %d1 : index
  %r2 = arith.addi %r, %d0 : index
  return %r2 : index
}

func.func @offsets(%x: tensor<7x5xi32>) -> index {
  %s = mesh.sharding @mesh split_axes = [[1, 0]] sharded_dims_offsets = [0, 1, 1, 6, 7] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<7x5xi32>
  %c0 = arith.constant 0 : index
  %d0 = tensor.dim %x0, %c0 : tensor<7x5xi32>
  return %d0 : index
}

func.func @halos(%x: tensor<8x6xi32>) -> index {
  %s = mesh.sharding @mesh split_axes = [[0], [1]] halo_sizes = [1, 2, 0, 1] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<8x6xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x0, %c0 : tensor<8x6xi32>
  %d1 = tensor.dim %x0, %c1 : tensor<8x6xi32>
  %r = arith.muli %d0, %d1 : index
  return %r : index
}

// a dimension index only known at run time
func.func @dynamic_index(%x: tensor<8x6xi32>, %k: tensor<1xi32>) -> index {
  %s = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<8x6xi32>
  %c0 = arith.constant 0 : index
  %e = tensor.extract %k[%c0] : tensor<1xi32>
  %one = arith.constant 1 : i32
  %b = arith.andi %e, %one : i32
  %i = arith.index_cast %b : i32 to index
  %d = tensor.dim %x0, %i : tensor<8x6xi32>
  return %d : index
}
