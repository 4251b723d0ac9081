// Errors in a signature the simulator cannot run are said at the function,
// in mesh-opt's form (file:line:col: error: ...), and exit 1.
// RUN: not mesh-run %s -f two_meshes --allow-unregistered-dialect 2>&1 | FileCheck %s --check-prefix=MESHES
// RUN: not mesh-run %s -f dynamic --allow-unregistered-dialect 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// RUN: not mesh-run %s -f unknown_op --allow-unregistered-dialect 2>&1 | FileCheck %s --check-prefix=OP

mesh.mesh @a(shape = 2)
mesh.mesh @b(shape = 2)

// MESHES: signature-errors.mlir:[[@LINE+1]]:1: error: @two_meshes lays out its arguments and results on several meshes: ['a', 'b']
func.func @two_meshes(%x: tensor<4xf32> {mesh.sharding = #mesh.sharding<@a, [[0]]>}) -> (tensor<4xf32> {mesh.sharding = #mesh.sharding<@b, [[0]]>}) {
  return %x : tensor<4xf32>
}

// DYNAMIC: signature-errors.mlir:[[@LINE+1]]:1: error: argument 0 of @dynamic has the dynamic type tensor<?xf32>; give its value as an input
func.func @dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}

func.func @unknown_op() -> f32 {
  // OP: signature-errors.mlir:[[@LINE+1]]:8: error: 'foo.bar' is not supported by the simulator (no handler registered for it)
  %0 = "foo.bar"() : () -> f32
  return %0 : f32
}
