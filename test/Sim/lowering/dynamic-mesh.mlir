// Lowering on a mesh with a dynamic size (2x?x3): the sizes the arithmetic
// needs come from mesh.mesh_shape at run time. The simulator runs static
// meshes only, so both programs are then given the size 4 for the `?` and
// simulated: the lowered one reads 4 from mesh.mesh_shape, never from a
// constant the pass could have folded.
// RUN: mesh-opt --pass-pipeline='builtin.module(mesh-lower-all-slice, mesh-lower-process-multi-index)' %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: sed -e 's/shape = 2x?x3/shape = 2x4x3/' %t.mlir > %t.lowered4.mlir
// RUN: sed -e 's/shape = 2x?x3/shape = 2x4x3/' %s > %t.original4.mlir
// RUN: mesh-run %t.lowered4.mlir -f coords --compare-with %t.original4.mlir -q | FileCheck %s
// RUN: mesh-run %t.lowered4.mlir -f slices --compare-with %t.original4.mlir -q | FileCheck %s
// RUN: mesh-run %t.lowered4.mlir -f slices --compare-with %t.original4.mlir -q --seed 3 | FileCheck %s
// CHECK: match

// IR-NOT: mesh.process_multi_index
// IR-NOT: mesh.all_slice
// IR-LABEL: func.func @coords
// IR: mesh.mesh_shape @d axes = [1] : index
// IR: mesh.process_linear_index on @d : index
// IR-LABEL: func.func @slices
// IR: mesh.mesh_shape @d axes = [1] : index
// IR: tensor.extract_slice %arg0[%{{.*}}, 0] [%{{.*}}, 5] [1, 1] : tensor<48x5xf32> to tensor<?x5xf32>

mesh.mesh @d(shape = 2x?x3)

func.func @coords() -> (tensor<1x1x1x5xi64> {mesh.sharding = #mesh.sharding<@d, [[0], [1], [2]]>}) {
  %i:3 = mesh.process_multi_index on @d : index, index, index
  %j:2 = mesh.process_multi_index on @d axes = [2, 1] : index, index
  %a = arith.index_cast %i#0 : index to i64
  %b = arith.index_cast %i#1 : index to i64
  %c = arith.index_cast %i#2 : index to i64
  %d = arith.index_cast %j#0 : index to i64
  %e = arith.index_cast %j#1 : index to i64
  %t = tensor.from_elements %a, %b, %c, %d, %e : tensor<1x1x1x5xi64>
  return %t : tensor<1x1x1x5xi64>
}

// Slices over the dynamic axis: their size is only known at run time.
func.func @slices(%x: tensor<48x5xf32>, %y: tensor<6x12xf32>)
    -> (tensor<?x5xf32> {mesh.sharding = #mesh.sharding<@d, [[1, 0, 2]]>},
        tensor<6x?xf32> {mesh.sharding = #mesh.sharding<@d, [[], [2, 1]]>},
        tensor<3x12xf32> {mesh.sharding = #mesh.sharding<@d, [[0]]>}) {
  %0 = mesh.all_slice %x on @d mesh_axes = [1, 0, 2] slice_axis = 0 : tensor<48x5xf32> -> tensor<?x5xf32>
  %1 = mesh.all_slice %y on @d mesh_axes = [2, 1] slice_axis = 1 : tensor<6x12xf32> -> tensor<6x?xf32>
  %2 = mesh.all_slice %y on @d mesh_axes = [0] slice_axis = 0 : tensor<6x12xf32> -> tensor<3x12xf32>
  return %0, %1, %2 : tensor<?x5xf32>, tensor<6x?xf32>, tensor<3x12xf32>
}
