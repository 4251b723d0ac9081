// --mlir-print-op-generic prints every op, mesh ops included, in MLIR's
// generic form, with the attributes the custom syntax stands for.
// RUN: mesh-opt --mlir-print-op-generic %s | FileCheck %s
// The generic form reads back, and prints the same custom syntax again.
// RUN: mesh-opt --mlir-print-op-generic %s | mesh-opt | FileCheck %s --check-prefix=CUSTOM
// A pass does not change the form: its output is generic too.
// RUN: mesh-opt --mlir-print-op-generic --mesh-canonicalize %s | FileCheck %s --check-prefix=CANON

// CHECK:      "builtin.module"() ({
// CHECK-NEXT:   "mesh.mesh"() {shape = array<i64: 2, -9223372036854775808>, sym_name = "mesh0"} : () -> ()
// CHECK-NEXT:   "mesh.mesh"() {shape = array<i64: 1>, sym_name = "one"} : () -> ()
// CHECK-NEXT:   "func.func"() <{function_type = (tensor<4x8xf32>) -> tensor<4x8xf32>, sym_name = "f"}> ({
// CHECK-NEXT:   ^bb0(%arg0: tensor<4x8xf32>):
// CHECK-NEXT:     %0 = "mesh.sharding"() {mesh = @mesh0, operandSegmentSizes = array<i32: 0, 0>, split_axes = #mesh.axisarray<{{\[\[}}0], []]>, static_halo_sizes = array<i64>, static_sharded_dims_offsets = array<i64>} : () -> !mesh.sharding
// CHECK-NEXT:     %1 = "mesh.shard"(%arg0, %0) {annotate_for_users} : (tensor<4x8xf32>, !mesh.sharding) -> tensor<4x8xf32>
// CHECK-NEXT:     %2 = "mesh.all_reduce"(%1) {mesh = @one, mesh_axes = array<i16: 0>, reduction = #mesh.partial<max>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:     "func.return"(%2) : (tensor<4x8xf32>) -> ()
// CHECK-NEXT:   }) : () -> ()
// CHECK-NEXT: }) : () -> ()

// CUSTOM:      module {
// CUSTOM-NEXT:   mesh.mesh @mesh0(shape = 2x?)
// CUSTOM-NEXT:   mesh.mesh @one(shape = 1)
// CUSTOM-NEXT:   func.func @f(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
// CUSTOM-NEXT:     %0 = mesh.sharding @mesh0 split_axes = {{\[\[}}0], []] : !mesh.sharding
// CUSTOM-NEXT:     %1 = mesh.shard %arg0 to %0 annotate_for_users : tensor<4x8xf32>
// CUSTOM-NEXT:     %2 = mesh.all_reduce %1 on @one mesh_axes = [0] reduction = <max> : tensor<4x8xf32> -> tensor<4x8xf32>
// CUSTOM-NEXT:     return %2 : tensor<4x8xf32>
// CUSTOM-NEXT:   }
// CUSTOM-NEXT: }

// CANON:      "func.func"() <{function_type = (tensor<4x8xf32>) -> tensor<4x8xf32>, sym_name = "f"}> ({
// CANON-NEXT: ^bb0(%arg0: tensor<4x8xf32>):
// CANON-NEXT:   %0 = "mesh.sharding"()
// CANON-NEXT:   %1 = "mesh.shard"(%arg0, %0) {annotate_for_users}
// CANON-NEXT:   "func.return"(%1) : (tensor<4x8xf32>) -> ()

mesh.mesh @mesh0(shape = 2x?)
mesh.mesh @one(shape = 1)
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mesh.sharding @mesh0 split_axes = [[0], []] : !mesh.sharding
  %0 = mesh.shard %x to %s annotate_for_users : tensor<4x8xf32>
  %1 = mesh.all_reduce %0 on @one mesh_axes = [0] reduction = <max> : tensor<4x8xf32> -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
