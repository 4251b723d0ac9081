// RUN: mesh-opt --split-input-file --mesh-optimize-collectives %s | FileCheck %s

// Reassociation moves the combiner onto each device's terms, which may wrap
// or overflow where the totals do not (terms INT32_MAX and -INT32_MAX sum to
// 0, yet INT32_MAX + 1 on one device wraps): nsw, nuw and ninf, promises
// about the totals, would make those terms poison, so they go; nnan and the
// other fast-math flags stay.

mesh.mesh @mesh(shape = 2)

// CHECK-LABEL: func.func @overflow(
// CHECK: %[[S:.*]] = arith.addi %arg0, %arg1 : tensor<4xi32>
// CHECK-NEXT: mesh.all_reduce %[[S]] on @mesh mesh_axes = [0] : tensor<4xi32> -> tensor<4xi32>
// CHECK: %[[P:.*]] = arith.muli %arg2, %arg3 : tensor<4xi32>
// CHECK-NEXT: mesh.all_reduce %[[P]] on @mesh mesh_axes = [0] reduction = <product>
func.func @overflow(%a: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0]>},
                    %b: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0]>},
                    %c: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = product [0]>},
                    %d: tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = product [0]>})
    -> (tensor<4xi32>, tensor<4xi32>) {
  %0 = mesh.all_reduce %a on @mesh mesh_axes = [0] : tensor<4xi32> -> tensor<4xi32>
  %1 = mesh.all_reduce %b on @mesh mesh_axes = [0] : tensor<4xi32> -> tensor<4xi32>
  %2 = arith.addi %0, %1 overflow<nsw> : tensor<4xi32>
  %3 = mesh.all_reduce %c on @mesh mesh_axes = [0] reduction = <product> : tensor<4xi32> -> tensor<4xi32>
  %4 = mesh.all_reduce %d on @mesh mesh_axes = [0] reduction = <product> : tensor<4xi32> -> tensor<4xi32>
  %5 = arith.muli %3, %4 overflow<nsw, nuw> : tensor<4xi32>
  return %2, %5 : tensor<4xi32>, tensor<4xi32>
}

// -----

mesh.mesh @mesh(shape = 2)

// CHECK-LABEL: func.func @fastmath(
// CHECK: arith.addf %arg0, %arg1 : tensor<4xf32>
// CHECK: arith.addf %arg2, %arg3 fastmath<reassoc,nnan,nsz,arcp,contract,afn> : tensor<4xf32>
// A product of floats is never regrouped (test/Sim/optimize/float-products.mlir):
// the multiplication of the totals stays, flags and all.
// CHECK: %[[E:.*]] = mesh.all_reduce %arg4 on @mesh mesh_axes = [0] reduction = <product>
// CHECK-NEXT: %[[F:.*]] = mesh.all_reduce %arg5 on @mesh mesh_axes = [0] reduction = <product>
// CHECK-NEXT: arith.mulf %[[E]], %[[F]] fastmath<nnan,ninf,contract> : tensor<4xf32>
func.func @fastmath(%a: tensor<4xf32>, %b: tensor<4xf32>, %c: tensor<4xf32>, %d: tensor<4xf32>,
                    %e: tensor<4xf32>, %f: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = mesh.all_reduce %a on @mesh mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  %1 = mesh.all_reduce %b on @mesh mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  %2 = arith.addf %0, %1 fastmath<ninf> : tensor<4xf32>
  %3 = mesh.all_reduce %c on @mesh mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  %4 = mesh.all_reduce %d on @mesh mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  %5 = arith.addf %3, %4 fastmath<fast> : tensor<4xf32>
  %6 = mesh.all_reduce %e on @mesh mesh_axes = [0] reduction = <product> : tensor<4xf32> -> tensor<4xf32>
  %7 = mesh.all_reduce %f on @mesh mesh_axes = [0] reduction = <product> : tensor<4xf32> -> tensor<4xf32>
  %8 = arith.mulf %6, %7 fastmath<nnan,ninf,contract> : tensor<4xf32>
  return %2, %5, %8 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

mesh.mesh @mesh(shape = 2)

// A combiner of totals that stays where it is keeps its flags.
// CHECK-LABEL: func.func @kept(
// CHECK: arith.addi %{{.*}}, %arg1 overflow<nsw> : tensor<4xi32>
func.func @kept(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = mesh.all_reduce %a on @mesh mesh_axes = [0] : tensor<4xi32> -> tensor<4xi32>
  %1 = arith.addi %0, %b overflow<nsw> : tensor<4xi32>
  return %1 : tensor<4xi32>
}
