// Upstream's shard.grid is a symbol its module's symbol table must hold:
// --emit=upstream refuses a mesh defined in a function body or a region,
// at that mesh, used or not (upstream's own verifier answered at 1:1, with
// its message about the parent's SymbolTable trait), and writes no file.
// RUN: not mesh-opt --split-input-file --emit=upstream %s -o %t 2>&1 | FileCheck %s
// RUN: not test -e %t

func.func @in_body(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // CHECK: emit-upstream-mesh-in-body.mlir:[[@LINE+1]]:3: error: cannot emit upstream's shard dialect: upstream's shard.grid must be defined in the module's body, got @inner inside 'func.func'
  mesh.mesh @inner(shape = 2)
  %r = mesh.all_reduce %a on @inner mesh_axes = [0] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

mesh.mesh @m(shape = 2)
func.func @in_region(%a: tensor<4x8xf32>, %p: i1) -> tensor<4x8xf32> {
  %r = scf.if %p -> tensor<4x8xf32> {
    // CHECK: emit-upstream-mesh-in-body.mlir:[[@LINE+1]]:5: error: cannot emit upstream's shard dialect: upstream's shard.grid must be defined in the module's body, got @unused inside 'scf.if'
    mesh.mesh @unused(shape = 4)
    scf.yield %a : tensor<4x8xf32>
  } else {
    scf.yield %a : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}
