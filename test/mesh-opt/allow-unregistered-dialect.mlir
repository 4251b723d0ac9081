// Ops of unknown dialects are rejected, as by mlir-opt, unless
// --allow-unregistered-dialect is given; then they sit among mesh ops and go
// through passes untouched.
// RUN: not mesh-opt %s 2>&1 | FileCheck %s --check-prefix=ERR -DFILE=%s
// RUN: mesh-opt --allow-unregistered-dialect %s | FileCheck %s
// RUN: mesh-opt -allow-unregistered-dialect %s | FileCheck %s
// RUN: mesh-opt --allow-unregistered-dialect %s --mesh-canonicalize -canonicalize | FileCheck %s
// RUN: mesh-opt --allow-unregistered-dialect --mlir-print-op-generic %s | mesh-opt --allow-unregistered-dialect | FileCheck %s
// RUN: mesh-opt --allow-unregistered-dialect --mlir-print-op-generic %s | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:    %0 = "test.producer"(%arg0) {note = "kept"} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %1 = mesh.all_reduce %0 on @m mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
// CHECK-NEXT:    "test.consumer"(%1) : (tensor<4xf32>) -> ()
// CHECK-NEXT:    return %1 : tensor<4xf32>

// GENERIC:      %0 = "test.producer"(%arg0) {note = "kept"} : (tensor<4xf32>) -> tensor<4xf32>
// GENERIC-NEXT: %1 = "mesh.all_reduce"(%0) {mesh = @m, mesh_axes = array<i16: 0>, reduction = #mesh.partial<sum>} : (tensor<4xf32>) -> tensor<4xf32>
// GENERIC-NEXT: "test.consumer"(%1) : (tensor<4xf32>) -> ()

// ERR:      [[FILE]]:[[@LINE+6]]:23: error: operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used
// ERR-NEXT: {{^}}  %0 = "test.producer"(%x) {note = "kept"} : (tensor<4xf32>) -> tensor<4xf32>
// ERR-NEXT: {{^}}                      ^
// ERR-NOT:  error
mesh.mesh @m(shape = 2)
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "test.producer"(%x) {note = "kept"} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = mesh.all_reduce %0 on @m mesh_axes = [0] : tensor<4xf32> -> tensor<4xf32>
  "test.consumer"(%1) : (tensor<4xf32>) -> ()
  return %1 : tensor<4xf32>
}
