// A complex value produced whole and annotated as a partial sum: its terms
// would need a complex 0 on the other devices, which arith cannot make, so
// partition refuses (it aborted the process building an integer 0 of a
// complex type).
// RUN: mesh-opt --verify-diagnostics --mesh-partition %s

mesh.mesh @mesh(shape = 4)
func.func @f(%a: tensor<6xcomplex<f32>>, %b: tensor<6xcomplex<f32>>) -> tensor<6xcomplex<f32>> {
  %sum = mesh.sharding @mesh split_axes = [[]] partial = sum [0] : !mesh.sharding
  // expected-remark @+2 {{cannot produce result 0 as split_axes = [[]] partial = sum [0]: resharded after it}}
  // expected-error @+1 {{a sum partial value of complex<f32> cannot be made from a whole one}}
  %c = "stablehlo.add"(%a, %b) : (tensor<6xcomplex<f32>>, tensor<6xcomplex<f32>>) -> tensor<6xcomplex<f32>>
  %p = mesh.shard %c to %sum : tensor<6xcomplex<f32>>
  return %p : tensor<6xcomplex<f32>>
}
