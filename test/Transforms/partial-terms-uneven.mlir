// A reshape whose result is annotated a partial sum runs on each device's
// terms, but its operand's pieces must still line up with the result's:
// uneven rows (5 over 2 devices, 3 over 2) do not scale to the flattened
// result's even halves, and are refused at the op as in any other rewrite.
// RUN: mesh-opt --split-input-file --verify-diagnostics --mesh-partition %s

mesh.mesh @mesh(shape = 2x4)
func.func @rows_not_divided(%g: tensor<5x4xf32>) -> tensor<20xf32> {
  %sp = mesh.sharding @mesh split_axes = [[]] partial = sum [1] : !mesh.sharding
  %g0 = mesh.shard %g to %sp : tensor<5x4xf32>
  // expected-error@+1 {{the pieces around 'stablehlo.reshape' do not line up: operand 0 is cut as [0:2, 2:5] and result 0 as [0:10, 10:20] along loop 0}}
  %t = "stablehlo.reshape"(%g0) : (tensor<5x4xf32>) -> tensor<20xf32>
  %so = mesh.sharding @mesh split_axes = [[0]] partial = sum [1] : !mesh.sharding
  %t0 = mesh.shard %t to %so : tensor<20xf32>
  return %t0 : tensor<20xf32>
}

// -----

mesh.mesh @mesh(shape = 2x4)
func.func @uneven_rows(%g: tensor<3x4xf32>) -> tensor<12xf32> {
  %sp = mesh.sharding @mesh split_axes = [[0]] partial = sum [1] : !mesh.sharding
  %g0 = mesh.shard %g to %sp : tensor<3x4xf32>
  // expected-error@+1 {{the pieces around 'stablehlo.reshape' do not line up}}
  %t = "stablehlo.reshape"(%g0) : (tensor<3x4xf32>) -> tensor<12xf32>
  %t0 = mesh.shard %t to %sp : tensor<12xf32>
  return %t0 : tensor<12xf32>
}
