// Valid MLIR around mesh ops that their custom syntax must read as
// mlir-opt does: a type alias holding '-', an affine set (its '>=' is no
// closing bracket) in an op's attribute dictionary, and the file's
// resources right after a mesh.mesh (its optional dictionary is not '{-#').
// RUN: mesh-opt %s | FileCheck %s
// RUN: mesh-opt %s | mesh-opt | FileCheck %s
// CHECK: #set = affine_set<(d0) : (d0 - 2 >= 0)>

!t-1 = tensor<4x8xf32>
mesh.mesh @m(shape = 2x4)

// CHECK-LABEL: func.func @alias_with_dash(
// CHECK: mesh.shard %arg0 to %{{.*}} : tensor<4x8xf32>
func.func @alias_with_dash(%x: !t-1) -> !t-1 {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %d = mesh.shard %x to %s : !t-1
  return %d : !t-1
}

// CHECK-LABEL: func.func @affine_set_attribute(
// CHECK: mesh.all_reduce %arg0 on @m mesh_axes = [1] {set = #set} : tensor<4x8xf32> -> tensor<4x8xf32>
func.func @affine_set_attribute(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = mesh.all_reduce %x on @m mesh_axes = [1] {set = affine_set<(d0) : (d0 - 2 >= 0)>} : tensor<4x8xf32> -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// CHECK-LABEL: mesh.mesh @last(shape = 2)
// CHECK-NEXT: }
mesh.mesh @last(shape = 2)
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x04000000010000000200000003000000"
    }
  }
#-}
