// `scf.for unsigned` compares its bounds unsigned: from -1 (0xFFFFFFFF) to 1
// it runs no iteration, so no all_reduce is counted (two were, read signed),
// as the simulator runs it.
// RUN: mesh-opt --mesh-analysis %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: @uns on @m (shape 4, 4 devices)
// CHECK: max     -                       0

mesh.mesh @m(shape = 4)
func.func @uns(%x: tensor<4xf32>) -> tensor<4xf32> {
  %lb = arith.constant -1 : i32
  %ub = arith.constant 1 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for unsigned %i = %lb to %ub step %c1 iter_args(%a = %x) -> (tensor<4xf32>) : i32 {
    %g = mesh.all_reduce %a on @m mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
    scf.yield %g : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
