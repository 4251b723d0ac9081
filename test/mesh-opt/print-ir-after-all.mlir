// --mlir-print-ir-after-all prints, on stderr, a header naming each pass and
// the IR after it, mesh ops in their custom syntax; stdout has the result.
// RUN: mesh-opt --mlir-print-ir-after-all --mesh-canonicalize -canonicalize %s 2>&1 >/dev/null | FileCheck %s
// RUN: mesh-opt --mlir-print-ir-after-all --mesh-canonicalize -canonicalize %s 2>/dev/null | FileCheck %s --check-prefix=OUT
// A pipeline's elements are named as written, options and nesting included.
// RUN: mesh-opt --mlir-print-ir-after-all --pass-pipeline='builtin.module(mesh-canonicalize{dce=false cse=false}, func.func(cse))' %s 2>&1 >/dev/null | FileCheck %s --check-prefix=PIPE
// Without a pass there is nothing to dump.
// RUN: mesh-opt --mlir-print-ir-after-all %s 2>&1 >/dev/null | FileCheck %s --allow-empty --check-prefix=NONE

// CHECK:      // -----// IR Dump After mesh-canonicalize //----- //
// CHECK-NEXT: module {
// CHECK-NEXT:   mesh.mesh @one(shape = 1x4)
// CHECK-NEXT:   func.func @f(%arg0: tensor<4xf32>) -> index {
// CHECK-NEXT:     %c1 = arith.constant 1 : index
// CHECK-NEXT:     %c4 = arith.constant 4 : index
// CHECK-NEXT:     %c1_0 = arith.constant 1 : index
// CHECK-NEXT:     %0 = arith.muli %c1, %c1_0 : index
// CHECK-NEXT:     %1 = arith.addi %0, %c4 : index
// CHECK-NEXT:     return %1 : index
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK:      // -----// IR Dump After canonicalize //----- //
// CHECK-NEXT: module {
// CHECK-NEXT:   mesh.mesh @one(shape = 1x4)
// CHECK-NEXT:   func.func @f(%arg0: tensor<4xf32>) -> index {
// CHECK-NEXT:     %c5 = arith.constant 5 : index
// CHECK-NEXT:     return %c5 : index
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NOT:  IR Dump

// OUT-NOT:    IR Dump
// OUT:        module {
// OUT:          %c5 = arith.constant 5 : index
// OUT-NEXT:     return %c5 : index
// OUT-NOT:    IR Dump

// PIPE:       // -----// IR Dump After mesh-canonicalize{dce=false cse=false} //----- //
// PIPE-NEXT:  module {
// PIPE-NEXT:    mesh.mesh @one(shape = 1x4)
// PIPE-NEXT:    func.func @f(%arg0: tensor<4xf32>) -> index {
// PIPE-NEXT:      %c1 = arith.constant 1 : index
// PIPE:       // -----// IR Dump After func.func(cse) //----- //
// PIPE-NEXT:  module {
// PIPE-NEXT:    mesh.mesh @one(shape = 1x4)
// PIPE-NOT:   IR Dump

// NONE-NOT:   {{.}}

mesh.mesh @one(shape = 1x4)
func.func @f(%x: tensor<4xf32>) -> index {
  %0 = mesh.all_reduce %x on @one mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  %1:2 = mesh.mesh_shape @one : index, index
  %c1 = arith.constant 1 : index
  %2 = arith.muli %1#0, %c1 : index
  %3 = arith.addi %2, %1#1 : index
  return %3 : index
}
