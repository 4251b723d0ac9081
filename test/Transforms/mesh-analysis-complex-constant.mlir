// Rotary embeddings written with complex numbers (JAX's `x * jnp.exp(1j *
// angles)`): constants of complex elements, an hlo one of rank 0 and an arith
// tensor, beside rows split over the mesh. The bindings raise when asked for
// such an attribute, which sharding-propagation did while keying the arith
// constant's rule and mesh-analysis while looking for integer constants to
// follow: internal errors. The rule's key now holds such an attribute's text,
// and the analysis follows no integer there.
// RUN: mesh-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(sharding-propagation, mesh-partition, mesh-optimize-collectives, mesh-analysis)' %s -o /dev/null 2>&1 | FileCheck %s
// RUN: mesh-opt --allow-unregistered-dialect --mesh-analysis %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=AHEAD

mesh.mesh @mesh(shape = 4)
func.func @rotate(%x: tensor<8x4xcomplex<f32>>) -> tensor<8x4xcomplex<f32>> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<8x4xcomplex<f32>>
  %i = "stablehlo.constant"() <{value = dense<(0.000000e+00,1.000000e+00)> : tensor<complex<f32>>}> : () -> tensor<complex<f32>>
  %ib = "stablehlo.broadcast_in_dim"(%i) <{broadcast_dimensions = array<i64>}> : (tensor<complex<f32>>) -> tensor<8x4xcomplex<f32>>
  %t = arith.constant dense<(5.000000e-01,2.000000e+00)> : tensor<8x4xcomplex<f32>>
  %a = "stablehlo.multiply"(%ib, %xs) : (tensor<8x4xcomplex<f32>>, tensor<8x4xcomplex<f32>>) -> tensor<8x4xcomplex<f32>>
  %b = "stablehlo.add"(%a, %t) : (tensor<8x4xcomplex<f32>>, tensor<8x4xcomplex<f32>>) -> tensor<8x4xcomplex<f32>>
  %r = mesh.shard %b to %rows : tensor<8x4xcomplex<f32>>
  return %r : tensor<8x4xcomplex<f32>>
}

// Each device adds and multiplies its 2 rows of 4 (16 flops), and only
// slices the tensor constant (each device holds it whole).
// CHECK: @rotate on @mesh (shape 4, 4 devices)
// CHECK: [3]     all_slice 1             0              448     16                0
// CHECK: max     all_slice 1             0              448     16                0

// The annotated program is analysed as partition would make it: the same.
// AHEAD: the per-device program sharding-propagation and mesh-partition would emit
// AHEAD: max     all_slice 1             0              448     16                0
