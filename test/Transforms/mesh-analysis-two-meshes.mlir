// mesh-analysis runs each device's copy of a function on one mesh: a
// function with collectives on two meshes of different shapes is refused
// (the second mesh's all_reduce was costed on the first mesh's axes, or
// failed inside), as the simulator refuses it.
// RUN: not mesh-opt --mesh-analysis %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: mesh-analysis-two-meshes.mlir:[[@LINE+4]]:1: error: cannot analyze the program: @f uses meshes @mesh and @tiny of different shapes; the analysis runs a function on one mesh

mesh.mesh @mesh(shape = 2x4)
mesh.mesh @tiny(shape = 1)
func.func @f(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %y = mesh.all_reduce %x on @mesh mesh_axes = [1] : tensor<4x64xf32> -> tensor<4x64xf32>
  %z = mesh.all_reduce %y on @tiny mesh_axes = [0] : tensor<4x64xf32> -> tensor<4x64xf32>
  return %z : tensor<4x64xf32>
}
