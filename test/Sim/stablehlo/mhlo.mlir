// mhlo spells its integer lists as dense<...> : tensor<Nxi64>: partition
// writes the local sizes back in that spelling, and the simulator reads it.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q | FileCheck %s
// CHECK: match

// IR-LABEL: func.func @main(%arg0: tensor<4x6xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>})
// IR: "mhlo.slice"(%arg0) {limit_indices = dense<[4, 5]> : tensor<2xi64>, start_indices = dense<[0, 1]> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} : (tensor<4x6xf32>) -> tensor<4x4xf32>
// IR: "mhlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<4x4xf32>
// IR: arith.addf
// IR: "mhlo.dynamic_slice"({{.*}}) {slice_sizes = dense<[4, 2]> : tensor<2xi64>}

mesh.mesh @mesh(shape = 2)
func.func @main(%arg0: tensor<8x6xf32>) -> tensor<8x2xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %x = mesh.shard %arg0 to %s : tensor<8x6xf32>
  %0 = "mhlo.slice"(%x) {start_indices = dense<[0, 1]> : tensor<2xi64>, limit_indices = dense<[8, 5]> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} : (tensor<8x6xf32>) -> tensor<8x4xf32>
  %1 = "mhlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<8x4xf32>
  %2 = "mhlo.add"(%0, %1) : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  %i = "mhlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %3 = "mhlo.dynamic_slice"(%2, %i, %i) {slice_sizes = dense<[8, 2]> : tensor<2xi64>} : (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x2xf32>
  %r = mesh.shard %3 to %s : tensor<8x2xf32>
  "func.return"(%r) : (tensor<8x2xf32>) -> ()
}
