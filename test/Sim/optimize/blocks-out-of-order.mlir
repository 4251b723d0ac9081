// The optimizer combines ops of one block only.  Here the text lists a block
// before the block that branches to it, and each rotation's first all_to_all
// sits in that later-written block: the rotations are left as they are (the
// pass visited the erased all_to_alls again before, and failed), and every
// device computes the same values bit for bit.
// RUN: mesh-opt --mesh-optimize-collectives %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %s --seed 1 > %t.before.txt
// RUN: mesh-run %t.mlir --seed 1 > %t.after.txt
// RUN: diff %t.before.txt %t.after.txt

mesh.mesh @m(shape = 4)

// CHECK-COUNT-2: mesh.all_to_all %{{.*}} split_axis = 1 concat_axis = 0
// CHECK-NOT: mesh.shift
// CHECK-COUNT-2: mesh.all_to_all %arg{{.*}} split_axis = 0 concat_axis = 1
func.func @rolls(%x0: tensor<8x16xf32> {mesh.sharding = #mesh.sharding<@m, [[], [0]]>}, %x1: tensor<8x16xf32> {mesh.sharding = #mesh.sharding<@m, [[], [0]]>}) -> (tensor<8x16xf32> {mesh.sharding = #mesh.sharding<@m, [[], [0]]>}, tensor<8x16xf32> {mesh.sharding = #mesh.sharding<@m, [[], [0]]>}) {
  cf.br ^bb2
^bb1:
  %a0 = tensor.extract_slice %g0[0, 1] [2, 63] [1, 1] : tensor<2x64xf32> to tensor<2x63xf32>
  %b0 = tensor.extract_slice %g0[0, 0] [2, 1] [1, 1] : tensor<2x64xf32> to tensor<2x1xf32>
  %r0 = tensor.concat dim(1) %a0, %b0 : (tensor<2x63xf32>, tensor<2x1xf32>) -> tensor<2x64xf32>
  %y0 = mesh.all_to_all %r0 on @m mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<2x64xf32> -> tensor<8x16xf32>
  %a1 = tensor.extract_slice %g1[0, 8] [2, 56] [1, 1] : tensor<2x64xf32> to tensor<2x56xf32>
  %b1 = tensor.extract_slice %g1[0, 0] [2, 8] [1, 1] : tensor<2x64xf32> to tensor<2x8xf32>
  %r1 = tensor.concat dim(1) %a1, %b1 : (tensor<2x56xf32>, tensor<2x8xf32>) -> tensor<2x64xf32>
  %y1 = mesh.all_to_all %r1 on @m mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<2x64xf32> -> tensor<8x16xf32>
  return %y0, %y1 : tensor<8x16xf32>, tensor<8x16xf32>
^bb2:
  %g0 = mesh.all_to_all %x0 on @m mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<8x16xf32> -> tensor<2x64xf32>
  %g1 = mesh.all_to_all %x1 on @m mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<8x16xf32> -> tensor<2x64xf32>
  cf.br ^bb1
}
