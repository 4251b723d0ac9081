// scf.index_switch prints its default region (region 0) after its cases, so
// a walk meets the default's ops first: the op in the case is still checked,
// though ops of its name filled in from one line template come before it.
// RUN: not mesh-opt %s 2>&1 | FileCheck %s
// RUN: not mesh-opt %s --verify-each=false --mesh-canonicalize 2>&1 | FileCheck %s
// CHECK: verify-region-order.mlir:[[# @LINE + 6]]:10: error: 'mesh.all_reduce' op mesh axis 7 is out of range for mesh @m of rank 2

mesh.mesh @m(shape = 2x4)
func.func @f(%x: tensor<4x8xf32>, %i: index) -> tensor<4x8xf32> {
  %r = scf.index_switch %i -> tensor<4x8xf32>
  case 0 {
    %b = mesh.all_reduce %x on @m mesh_axes = [7] : tensor<4x8xf32> -> tensor<4x8xf32>
    scf.yield %b : tensor<4x8xf32>
  }
  default {
    %a1 = mesh.all_reduce %x on @m mesh_axes = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
    %a2 = mesh.all_reduce %a1 on @m mesh_axes = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
    %a3 = mesh.all_reduce %a2 on @m mesh_axes = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
    %a4 = mesh.all_reduce %a3 on @m mesh_axes = [1] : tensor<4x8xf32> -> tensor<4x8xf32>
    scf.yield %a4 : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}
