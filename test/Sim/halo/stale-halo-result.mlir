// A result laid out with halos must hold, in each halo cell inside the
// tensor, the cell it copies: @stale zeroes its low halo, which device 1
// reads as row 1 of the whole.  Assembling the cores alone matched.
// RUN: not mesh-run %s --function stale --seed 1 2>&1 | FileCheck %s --check-prefix=STALE
// RUN: mesh-run %s --function fresh --seed 1 -q --compare-with %s --ref-function whole | FileCheck %s
// STALE: error: result 0 of @stale: device [1] holds halo cells unlike the cells they copy: max difference {{.*}} (first at global index [1])
// CHECK: match

mesh.mesh @mesh(shape = 2)

func.func @whole(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

func.func @fresh(%x: tensor<4xf32> {mesh.sharding = #mesh.sharding<@mesh, [[0]], halo_sizes = [1, 1]>})
    -> (tensor<4xf32> {mesh.sharding = #mesh.sharding<@mesh, [[0]], halo_sizes = [1, 1]>}) {
  return %x : tensor<4xf32>
}

func.func @stale(%x: tensor<4xf32> {mesh.sharding = #mesh.sharding<@mesh, [[0]], halo_sizes = [1, 1]>})
    -> (tensor<4xf32> {mesh.sharding = #mesh.sharding<@mesh, [[0]], halo_sizes = [1, 1]>}) {
  %z = arith.constant dense<0.0> : tensor<1xf32>
  %y = tensor.insert_slice %z into %x[0] [1] [1] : tensor<1xf32> into tensor<4xf32>
  return %y : tensor<4xf32>
}
