// JAX's `jnp.pad(x, ..., mode="edge")` pads along dimension 1 but first
// concatenates empty rows along dimension 0, made by reshaping a 1x0x16
// broadcast to 0x16.  With no element, no product groups that reshape's
// dimensions: it was refused next to a split value.  A reshape of no
// element that only drops unit dimensions keeps the others, which split
// alike (here the columns, over "model" as the input's).
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir -f edge --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f edge --compare-with %s -q --seed 2 | FileCheck %s
// CHECK: match

// IR-LABEL: func.func @edge(
// IR: "stablehlo.broadcast_in_dim"(%{{.*}}) <{broadcast_dimensions = array<i64: 0, 2>}> : (tensor<1x4xf32>) -> tensor<1x0x4xf32>
// IR-NEXT: "stablehlo.reshape"(%{{.*}}) : (tensor<1x0x4xf32>) -> tensor<0x4xf32>
// IR-NOT: mesh.{{[a-z_]+}} {{.*}}: tensor<0x

mesh.mesh @mesh(shape = 2x4)

func.func @edge(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %both = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %both : tensor<8x16xf32>
  %row = "stablehlo.slice"(%xs) <{limit_indices = array<i64: 1, 16>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x16xf32>) -> tensor<1x16xf32>
  %none = "stablehlo.broadcast_in_dim"(%row) <{broadcast_dimensions = array<i64: 0, 2>}> : (tensor<1x16xf32>) -> tensor<1x0x16xf32>
  %empty = "stablehlo.reshape"(%none) : (tensor<1x0x16xf32>) -> tensor<0x16xf32>
  %rows = "stablehlo.concatenate"(%empty, %xs, %empty) <{dimension = 0 : i64}> : (tensor<0x16xf32>, tensor<8x16xf32>, tensor<0x16xf32>) -> tensor<8x16xf32>
  %first = "stablehlo.slice"(%rows) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x16xf32>) -> tensor<8x1xf32>
  %last = "stablehlo.slice"(%rows) <{limit_indices = array<i64: 8, 16>, start_indices = array<i64: 0, 15>, strides = array<i64: 1, 1>}> : (tensor<8x16xf32>) -> tensor<8x1xf32>
  %padded = "stablehlo.concatenate"(%first, %rows, %last) <{dimension = 1 : i64}> : (tensor<8x1xf32>, tensor<8x16xf32>, tensor<8x1xf32>) -> tensor<8x18xf32>
  %left = "stablehlo.slice"(%padded) <{limit_indices = array<i64: 8, 16>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x18xf32>) -> tensor<8x16xf32>
  %right = "stablehlo.slice"(%padded) <{limit_indices = array<i64: 8, 18>, start_indices = array<i64: 0, 2>, strides = array<i64: 1, 1>}> : (tensor<8x18xf32>) -> tensor<8x16xf32>
  %sum = "stablehlo.add"(%left, %right) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %out = mesh.shard %sum to %both : tensor<8x16xf32>
  return %out : tensor<8x16xf32>
}
