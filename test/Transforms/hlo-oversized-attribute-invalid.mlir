// An hlo op whose integer list attribute holds billions of entries (a
// splat written with a huge shape: the dialect is unregistered, so MLIR
// never verifies it) is an error at the op, found without reading every
// entry (reading them took minutes).
// RUN: mesh-opt --allow-unregistered-dialect --split-input-file --verify-diagnostics --sharding-propagation %s
// RUN: mesh-opt --allow-unregistered-dialect --split-input-file --verify-diagnostics --mesh-partition %s

mesh.mesh @m(shape = 2)
func.func @padding(%x: tensor<2x5x5x4xf32>, %k: tensor<1x1x4x8xf32>) -> tensor<2x5x5x8xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %0 = mesh.shard %x to %s : tensor<2x5x5x4xf32>
  // expected-error@+1 {{'stablehlo.convolution' has an integer list attribute of 4294967294 entries, more than any op has dimensions (at most 4096)}}
  %y = "stablehlo.convolution"(%0, %k) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, padding = dense<0> : tensor<2147483647x2xi64>}> : (tensor<2x5x5x4xf32>, tensor<1x1x4x8xf32>) -> tensor<2x5x5x8xf32>
  return %y : tensor<2x5x5x8xf32>
}

// -----

mesh.mesh @m(shape = 2)
func.func @slice(%x: tensor<8xf32>) -> tensor<4xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %0 = mesh.shard %x to %s : tensor<8xf32>
  // expected-error@+1 {{'stablehlo.slice' has an integer list attribute of 100000 entries, more than any op has dimensions (at most 4096)}}
  %y = "stablehlo.slice"(%0) <{start_indices = array<i64: 0>, limit_indices = dense<4> : tensor<100000xi64>, strides = array<i64: 1>}> : (tensor<8xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
