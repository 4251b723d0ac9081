// A full extract_slice, insert_slice, identity expand_shape or
// stablehlo.slice is elementwise by its sharding rule, but it holds the
// whole shape in its attributes: moving an all_gather below it (or
// decomposing an all_reduce around it) would clone it onto pieces with the
// whole sizes (the output failed to verify, or verified with an
// expand_shape into the whole shape).  They stay where they are.
// RUN: mesh-opt --allow-unregistered-dialect --mesh-optimize-collectives %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run --allow-unregistered-dialect %t.mlir --compare-with %s -f slice_below_gather -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.mlir --compare-with %s -f insert_below_gathers -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.mlir --compare-with %s -f slice_after_reduce -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.mlir --compare-with %s -f expand_after_reduce -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run --allow-unregistered-dialect %t.mlir --compare-with %s -f hlo_slice_after_reduce -q | FileCheck %s --check-prefix=SIM
// SIM: match

mesh.mesh @mesh(shape = 4)

// CHECK-LABEL: func.func @slice_below_gather(
// CHECK: %[[G:.*]] = mesh.all_gather %arg0
// CHECK-NEXT: tensor.extract_slice %[[G]][0, 0] [8, 3] [1, 1] : tensor<8x3xi32> to tensor<8x3xi32>
func.func @slice_below_gather(%x: tensor<2x3xi32> {mesh.sharding = #mesh.sharding<@mesh, [[0]]>})
    -> (tensor<8x3xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>}) {
  %0 = mesh.all_gather %x on @mesh mesh_axes = [0] gather_axis = 0 : tensor<2x3xi32> -> tensor<8x3xi32>
  %1 = tensor.extract_slice %0[0, 0] [8, 3] [1, 1] : tensor<8x3xi32> to tensor<8x3xi32>
  return %1 : tensor<8x3xi32>
}

// CHECK-LABEL: func.func @insert_below_gathers(
// CHECK-COUNT-2: mesh.all_gather
// CHECK-NEXT: tensor.insert_slice {{.*}}[0, 0] [8, 3] [1, 1] : tensor<8x3xi32> into tensor<8x3xi32>
func.func @insert_below_gathers(%x: tensor<2x3xi32> {mesh.sharding = #mesh.sharding<@mesh, [[0]]>},
                                %y: tensor<2x3xi32> {mesh.sharding = #mesh.sharding<@mesh, [[0]]>})
    -> (tensor<8x3xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>}) {
  %0 = mesh.all_gather %x on @mesh mesh_axes = [0] gather_axis = 0 : tensor<2x3xi32> -> tensor<8x3xi32>
  %1 = mesh.all_gather %y on @mesh mesh_axes = [0] gather_axis = 0 : tensor<2x3xi32> -> tensor<8x3xi32>
  %2 = tensor.insert_slice %0 into %1[0, 0] [8, 3] [1, 1] : tensor<8x3xi32> into tensor<8x3xi32>
  return %2 : tensor<8x3xi32>
}

// CHECK-LABEL: func.func @slice_after_reduce(
// CHECK: %[[R:.*]] = mesh.all_reduce %arg0
// CHECK-NEXT: tensor.extract_slice %[[R]][0, 0] [8, 3] [1, 1]
func.func @slice_after_reduce(%x: tensor<8x3xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0]>})
    -> (tensor<8x3xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>}) {
  %0 = mesh.all_reduce %x on @mesh mesh_axes = [0] : tensor<8x3xi32> -> tensor<8x3xi32>
  %1 = tensor.extract_slice %0[0, 0] [8, 3] [1, 1] : tensor<8x3xi32> to tensor<8x3xi32>
  return %1 : tensor<8x3xi32>
}

// CHECK-LABEL: func.func @expand_after_reduce(
// CHECK: %[[R:.*]] = mesh.all_reduce %arg0
// CHECK-NEXT: tensor.expand_shape %[[R]] {{\[\[}}0], [1]] output_shape [8, 3] : tensor<8x3xi32> into tensor<8x3xi32>
func.func @expand_after_reduce(%x: tensor<8x3xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0]>})
    -> (tensor<8x3xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>}) {
  %0 = mesh.all_reduce %x on @mesh mesh_axes = [0] : tensor<8x3xi32> -> tensor<8x3xi32>
  %1 = tensor.expand_shape %0 [[0], [1]] output_shape [8, 3] : tensor<8x3xi32> into tensor<8x3xi32>
  return %1 : tensor<8x3xi32>
}

// CHECK-LABEL: func.func @hlo_slice_after_reduce(
// CHECK: %[[R:.*]] = mesh.all_reduce %arg0
// CHECK-NEXT: "stablehlo.slice"(%[[R]]) <{limit_indices = array<i64: 8, 3>
func.func @hlo_slice_after_reduce(%x: tensor<8x3xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0]>})
    -> (tensor<8x3xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>}) {
  %0 = mesh.all_reduce %x on @mesh mesh_axes = [0] : tensor<8x3xi32> -> tensor<8x3xi32>
  %1 = "stablehlo.slice"(%0) <{limit_indices = array<i64: 8, 3>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x3xi32>) -> tensor<8x3xi32>
  return %1 : tensor<8x3xi32>
}
