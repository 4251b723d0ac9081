// Constants of complex elements where the passes read attributes: the
// bindings raise when asked for such an attribute, which partition did on an
// annotated complex constant, propagation and partition on one inside a
// linalg body (the rule's key reads the body's constants), and
// mesh-optimize-collectives when it looked for a function's name among the
// module's attributes: internal errors. Such an attribute is now read as its
// text (or as not known), and each function runs on its rows.
// RUN: mesh-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(sharding-propagation, mesh-partition, mesh-optimize-collectives)' %s | FileCheck %s
// RUN: mesh-opt --allow-unregistered-dialect --mesh-optimize-collectives %S/Inputs/complex-constant-beside-pad.mlir | FileCheck %s --check-prefix=PAD

// The constant is built whole and each device slices its rows.
// CHECK-LABEL: func.func @splat(%arg0: tensor<2x4xcomplex<f32>>
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<(5.000000e-01,2.000000e+00)> : tensor<8x4xcomplex<f32>>
// CHECK-NEXT: %[[P:.*]] = mesh.all_slice %[[C]] on @mesh mesh_axes = [0] slice_axis = 0 : tensor<8x4xcomplex<f32>> -> tensor<2x4xcomplex<f32>>
// CHECK-NEXT: "stablehlo.add"(%arg0, %[[P]])
// CHECK-LABEL: func.func @in_body(%arg0: tensor<2x4xcomplex<f32>>
// CHECK: linalg.generic {{.*}} ins(%arg0 : tensor<2x4xcomplex<f32>>) outs(%{{.*}} : tensor<2x4xcomplex<f32>>)
// CHECK-LABEL: func.func @in_reduction(%arg0: tensor<2x4xcomplex<f32>>
// CHECK: linalg.generic {{.*}} ins(%arg0 : tensor<2x4xcomplex<f32>>) outs(%{{.*}} : tensor<2xcomplex<f32>>)
// CHECK-NOT: mesh.

// The pad's two all_to_alls become a shift of the rows (`pad-by-shift`);
// the complex constant in the other function is left as it is.
// PAD-LABEL: func.func @pad_rows(
// PAD-NOT: mesh.all_to_all
// PAD: mesh.shift %arg0 on @m4 mesh_axes = [0] shift_axis = 0 offset = 1
// PAD-NOT: mesh.all_to_all
// PAD: func.func @complex_constant()
// PAD-NEXT: arith.constant dense<(5.000000e-01,2.000000e+00)> : tensor<2xcomplex<f32>>

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
mesh.mesh @mesh(shape = 4)
func.func @splat(%x: tensor<8x4xcomplex<f32>>) -> tensor<8x4xcomplex<f32>> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<8x4xcomplex<f32>>
  %t = arith.constant dense<(5.000000e-01,2.000000e+00)> : tensor<8x4xcomplex<f32>>
  %ts = mesh.shard %t to %rows : tensor<8x4xcomplex<f32>>
  %b = "stablehlo.add"(%xs, %ts) : (tensor<8x4xcomplex<f32>>, tensor<8x4xcomplex<f32>>) -> tensor<8x4xcomplex<f32>>
  %r = mesh.shard %b to %rows : tensor<8x4xcomplex<f32>>
  return %r : tensor<8x4xcomplex<f32>>
}
func.func @in_body(%x: tensor<8x4xcomplex<f32>>) -> tensor<8x4xcomplex<f32>> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<8x4xcomplex<f32>>
  %e = tensor.empty() : tensor<8x4xcomplex<f32>>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%xs : tensor<8x4xcomplex<f32>>) outs(%e : tensor<8x4xcomplex<f32>>) {
  ^bb0(%a: complex<f32>, %o: complex<f32>):
    %t = arith.constant dense<(5.000000e-01,2.000000e+00)> : tensor<2xcomplex<f32>>
    %c1 = arith.constant 1 : index
    %k = tensor.extract %t[%c1] : tensor<2xcomplex<f32>>
    %s = complex.add %a, %k : complex<f32>
    linalg.yield %s : complex<f32>
  } -> tensor<8x4xcomplex<f32>>
  %rr = mesh.shard %r to %rows : tensor<8x4xcomplex<f32>>
  return %rr : tensor<8x4xcomplex<f32>>
}
func.func @in_reduction(%x: tensor<8x4xcomplex<f32>>) -> tensor<8xcomplex<f32>> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<8x4xcomplex<f32>>
  %z = complex.constant [0.0 : f32, 0.0 : f32] : complex<f32>
  %e = tensor.empty() : tensor<8xcomplex<f32>>
  %f = linalg.fill ins(%z : complex<f32>) outs(%e : tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%xs : tensor<8x4xcomplex<f32>>) outs(%f : tensor<8xcomplex<f32>>) {
  ^bb0(%a: complex<f32>, %o: complex<f32>):
    %t = arith.constant dense<(5.000000e-01,2.000000e+00)> : tensor<2xcomplex<f32>>
    %c1 = arith.constant 1 : index
    %k = tensor.extract %t[%c1] : tensor<2xcomplex<f32>>
    %m = complex.mul %a, %k : complex<f32>
    %s = complex.add %m, %o : complex<f32>
    linalg.yield %s : complex<f32>
  } -> tensor<8xcomplex<f32>>
  %rr = mesh.shard %r to %rows : tensor<8xcomplex<f32>>
  return %rr : tensor<8xcomplex<f32>>
}
