// Passes of mesh-opt (Python) and of upstream MLIR in one pipeline, given as
// --pass-pipeline or as pass flags; pass options in braces or after `=`.

// Our pass, then upstream ones at module and function level.
// RUN: mesh-opt %s --pass-pipeline='builtin.module(mesh-canonicalize, canonicalize, func.func(cse))' | FileCheck %s --check-prefix=ALL
// The same as flags, in command-line order; mlir-opt's single-dash spelling too.
// RUN: mesh-opt %s --mesh-canonicalize --canonicalize --cse | FileCheck %s --check-prefix=ALL
// RUN: mesh-opt %s -mesh-canonicalize -canonicalize -cse | FileCheck %s --check-prefix=ALL
// Blanks before a group, as mlir-opt allows them.
// RUN: mesh-opt %s --pass-pipeline='builtin.module (mesh-canonicalize, canonicalize, func.func (cse))' | FileCheck %s --check-prefix=ALL
// The anchor may be left out.
// RUN: mesh-opt %s --pass-pipeline='mesh-canonicalize,canonicalize,func.func(cse)' | FileCheck %s --check-prefix=ALL

// ALL-LABEL: func.func @f(%arg0: tensor<4xf32>, %arg1: index) -> (tensor<4xf32>, index, index, index, index) {
// ALL-NEXT:    %c5 = arith.constant 5 : index
// ALL-NEXT:    %0 = arith.addi %arg1, %arg1 : index
// ALL-NEXT:    return %arg0, %0, %0, %c5, %arg1 : tensor<4xf32>, index, index, index, index
// ALL-NEXT:  }

// mesh-canonicalize alone: the collective on a one-device group is its input,
// the static mesh_shape becomes constants, the unused sharding is erased;
// arith is left alone.
// RUN: mesh-opt %s --mesh-canonicalize | FileCheck %s --check-prefix=MESH
// RUN: mesh-opt %s -mesh-canonicalize | FileCheck %s --check-prefix=MESH
// RUN: mesh-opt %s --pass-pipeline='builtin.module(mesh-canonicalize)' | FileCheck %s --check-prefix=MESH
// Options given explicitly, with their defaults.
// RUN: mesh-opt %s --pass-pipeline='builtin.module(mesh-canonicalize{dce=true cse=true fold-collectives=true fold-queries=true})' | FileCheck %s --check-prefix=MESH
// As a flag, options separated by spaces in one argument (as mlir-opt takes
// them), the input file after it; the flag's name is never abbreviated.
// RUN: mesh-opt '--mesh-canonicalize=dce=true cse=true' %s | FileCheck %s --check-prefix=MESH
// A value in quotes or braces, as mlir-opt takes one that holds spaces.
// RUN: mesh-opt %s --pass-pipeline='builtin.module(mesh-canonicalize{dce="true" cse={true}})' | FileCheck %s --check-prefix=MESH
// RUN: mesh-opt %s '--mesh-analysis=output="%t report.json" format=json' -o /dev/null
// RUN: FileCheck %s --check-prefix=JSON < '%t report.json'
// JSON: "functions": [
// RUN: not mesh-opt --mesh-canon %s 2>&1 | FileCheck %s --check-prefix=ABBREV
// ABBREV: mesh-opt: 'mesh-canon' is not a pass of mesh-opt or of upstream MLIR (see --list-passes)

// MESH-LABEL: func.func @f(
// MESH-NEXT:    %c1 = arith.constant 1 : index
// MESH-NEXT:    %c4 = arith.constant 4 : index
// MESH-NEXT:    %0 = arith.addi %arg1, %arg1 : index
// MESH-NEXT:    %1 = arith.addi %arg1, %arg1 : index
// MESH-NEXT:    %2 = arith.addi %c1, %c4 : index
// MESH-NEXT:    %c1_0 = arith.constant 1 : index
// MESH-NEXT:    %3 = arith.muli %arg1, %c1_0 : index
// MESH-NEXT:    return %arg0, %0, %1, %2, %3 : tensor<4xf32>, index, index, index, index

// Pass options: dce=false keeps the unused sharding, even through upstream
// canonicalize and cse, which must assume the mesh ops have side effects.
// RUN: mesh-opt %s --pass-pipeline='builtin.module(mesh-canonicalize{dce=false}, canonicalize, func.func(cse))' | FileCheck %s --check-prefix=NODCE
// RUN: mesh-opt %s --mesh-canonicalize=dce=false --canonicalize --cse | FileCheck %s --check-prefix=NODCE
// RUN: mesh-opt %s '--mesh-canonicalize={dce=false}' -canonicalize -cse | FileCheck %s --check-prefix=NODCE
// RUN: mesh-opt %s -mesh-canonicalize=dce=0 -canonicalize -cse | FileCheck %s --check-prefix=NODCE

// NODCE-LABEL: func.func @f(
// NODCE-NEXT:    %c5 = arith.constant 5 : index
// NODCE-NEXT:    %0 = mesh.sharding @one split_axes = {{\[\[}}1]] : !mesh.sharding
// NODCE-NEXT:    %1 = arith.addi %arg1, %arg1 : index
// NODCE-NEXT:    return %arg0, %1, %1, %c5, %arg1

// fold-collectives=false fold-queries=false: only the sharding goes.
// RUN: mesh-opt %s --pass-pipeline='builtin.module(mesh-canonicalize{fold-collectives=false fold-queries=false})' | FileCheck %s --check-prefix=NOFOLD

// NOFOLD-LABEL: func.func @f(
// NOFOLD-NEXT:    %0 = mesh.all_reduce %arg0 on @one mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
// NOFOLD-NEXT:    %1:2 = mesh.mesh_shape @one : index, index
// NOFOLD-NEXT:    %2 = arith.addi %arg1, %arg1 : index
// NOFOLD-NEXT:    %3 = arith.addi %arg1, %arg1 : index
// NOFOLD-NEXT:    %4 = arith.addi %1#0, %1#1 : index
// NOFOLD-NEXT:    %c1 = arith.constant 1 : index

// Upstream canonicalize alone folds arith but cannot touch the mesh ops.
// RUN: mesh-opt %s -canonicalize | FileCheck %s --check-prefix=CANON
// RUN: mesh-opt %s --canonicalize | FileCheck %s --check-prefix=CANON
// RUN: mesh-opt %s --pass-pipeline='builtin.module(canonicalize)' | FileCheck %s --check-prefix=CANON

// CANON-LABEL: func.func @f(
// CANON-NEXT:    %0 = mesh.all_reduce %arg0 on @one mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
// CANON-NEXT:    %1:2 = mesh.mesh_shape @one : index, index
// CANON-NEXT:    %2 = mesh.sharding @one split_axes = {{\[\[}}1]] : !mesh.sharding
// CANON-NEXT:    %3 = arith.addi %arg1, %arg1 : index
// CANON-NEXT:    %4 = arith.addi %arg1, %arg1 : index
// CANON-NEXT:    %5 = arith.addi %1#0, %1#1 : index
// CANON-NEXT:    return %0, %3, %4, %5, %arg1

// An empty pipeline prints the input.
// RUN: mesh-opt %s --pass-pipeline='builtin.module()' | FileCheck %s --check-prefix=NONE
// RUN: mesh-opt %s | FileCheck %s --check-prefix=NONE
// A single-dash pass flag that starts with `o` is a pass, not `-o FILE`.
// RUN: mesh-opt %s -outline-shape-computation | FileCheck %s --check-prefix=OUTLINE
// OUTLINE-LABEL: func.func @f(
// OUTLINE-NEXT:    %0 = mesh.all_reduce %arg0 on @one mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>

// NONE-LABEL: func.func @f(
// NONE-NEXT:    %0 = mesh.all_reduce %arg0 on @one mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
// NONE:         %c1 = arith.constant 1 : index
// NONE-NEXT:    %6 = arith.muli %arg1, %c1 : index

mesh.mesh @one(shape = 1x4)
func.func @f(%x: tensor<4xf32>, %i: index) -> (tensor<4xf32>, index, index, index, index) {
  %0 = mesh.all_reduce %x on @one mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  %1:2 = mesh.mesh_shape @one : index, index
  %unused = mesh.sharding @one split_axes = [[1]] : !mesh.sharding
  %a = arith.addi %i, %i : index
  %b = arith.addi %i, %i : index
  %c = arith.addi %1#0, %1#1 : index
  %one = arith.constant 1 : index
  %k = arith.muli %i, %one : index
  return %0, %a, %b, %c, %k : tensor<4xf32>, index, index, index, index
}
