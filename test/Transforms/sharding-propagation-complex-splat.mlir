// A cumulative sum of complex numbers (`jnp.cumsum` of a complex array, a
// reduce_window whose init is a complex zero) along a split dimension.
// The bindings cannot hand over a dense attribute of complex elements
// (reading one raises), which propagation met while asking whether the init
// is the sum's neutral value: an internal error. Such a constant is now
// read as not known to be neutral, so the window runs whole along its
// dimension: the split moves to the rows and back around it.
// RUN: mesh-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(import-shardings, sharding-propagation, mesh-partition)' %s | FileCheck %s

module @jit_cumsum attributes {mhlo.num_partitions = 8 : i32} {
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=8]>, sym_name = "mesh"}> : () -> ()
  func.func public @main(%x: tensor<16x24xcomplex<f32>> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) -> (tensor<16x24xcomplex<f32>> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
    %zero = "stablehlo.constant"() <{value = dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>}> : () -> tensor<complex<f32>>
    %sums = "stablehlo.reduce_window"(%x, %zero) <{padding = dense<[[0, 0], [23, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 24>}> ({
    ^bb0(%a: tensor<complex<f32>>, %b: tensor<complex<f32>>):
      %s = "stablehlo.add"(%a, %b) : (tensor<complex<f32>>, tensor<complex<f32>>) -> tensor<complex<f32>>
      "stablehlo.return"(%s) : (tensor<complex<f32>>) -> ()
    }) : (tensor<16x24xcomplex<f32>>, tensor<complex<f32>>) -> tensor<16x24xcomplex<f32>>
    return %sums : tensor<16x24xcomplex<f32>>
  }
}

// CHECK-LABEL: func.func public @main(
// CHECK-SAME: %arg0: tensor<16x3xcomplex<f32>>
// CHECK: %[[ROWS:.*]] = mesh.all_to_all %arg0 on @mesh mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<16x3xcomplex<f32>> -> tensor<2x24xcomplex<f32>>
// CHECK: %[[SUMS:.*]] = "stablehlo.reduce_window"(%[[ROWS]],
// CHECK: %[[BACK:.*]] = mesh.all_to_all %[[SUMS]] on @mesh mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<2x24xcomplex<f32>> -> tensor<16x3xcomplex<f32>>
// CHECK: return %[[BACK]]
