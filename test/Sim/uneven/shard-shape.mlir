// mesh.shard_shape follows upstream's shard_shape for sizes the mesh does not
// divide: n // k elements each, the last n % k pieces one more (7 over 3:
// 2, 2, 3; 16 over 5: 3, 3, 3, 3, 4), and sharded_dims_offsets give any.
// RUN: mesh-run %s -f seven | FileCheck %s --check-prefix=SEVEN
// RUN: mesh-run %s -f sixteen | FileCheck %s --check-prefix=SIXTEEN
// RUN: mesh-run %s -f offsets | FileCheck %s --check-prefix=OFFSETS

// SEVEN: {{\[\[}} 2 10]
// SEVEN-NEXT: [ 2 10]
// SEVEN-NEXT: [ 3 10]]
// SIXTEEN: {{\[\[}}3 3 3 3 4]]
// OFFSETS: {{\[\[}}1 3 2 2]]

mesh.mesh @m(shape = 3)
mesh.mesh @five(shape = 5)
mesh.mesh @four(shape = 4)

func.func @seven() -> (tensor<1x2xindex> {mesh.sharding = #mesh.sharding<@m, [[0]]>}) {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %d = mesh.process_linear_index on @m : index
  %sh:2 = mesh.shard_shape 7x10 %s %d : index, index
  %t = tensor.from_elements %sh#0, %sh#1 : tensor<1x2xindex>
  return %t : tensor<1x2xindex>
}

func.func @sixteen() -> (tensor<1x1xindex> {mesh.sharding = #mesh.sharding<@five, [[], [0]]>}) {
  %s = mesh.sharding @five split_axes = [[0]] : !mesh.sharding
  %d = mesh.process_linear_index on @five : index
  %sh = mesh.shard_shape 16 %s %d : index
  %t = tensor.from_elements %sh : tensor<1x1xindex>
  return %t : tensor<1x1xindex>
}

func.func @offsets() -> (tensor<1x1xindex> {mesh.sharding = #mesh.sharding<@four, [[], [0]]>}) {
  %s = mesh.sharding @four split_axes = [[0]] sharded_dims_offsets = [0, 1, 4, 6, 8] : !mesh.sharding
  %d = mesh.process_linear_index on @four : index
  %sh = mesh.shard_shape 8 %s %d : index
  %t = tensor.from_elements %sh : tensor<1x1xindex>
  return %t : tensor<1x1xindex>
}
