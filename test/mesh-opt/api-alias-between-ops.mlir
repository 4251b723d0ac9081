// An alias defined between two top-level ops, which mlir-opt accepts: the
// ops are wrapped in one module and the alias stays at the top level.
// RUN: mesh-opt %s | FileCheck %s
// RUN: mesh-opt %s | mesh-opt | FileCheck %s

// CHECK:      #map = affine_map<(d0) -> (d0)>
// CHECK:      module {
// CHECK-NEXT:   mesh.mesh @m(shape = 2)
// CHECK-NEXT:   func.func @first() attributes {s = #mesh.sharding<@m, {{\[\[0\]\]}}>} {
// CHECK:        func.func @copy(
// CHECK:          linalg.generic {indexing_maps = [#map]
mesh.mesh @m(shape = 2)
#s = #mesh.sharding<@m, [[0]]>
func.func @first() attributes {s = #s} {
  return
}
#id = affine_map<(i) -> (i)>   // between the two functions
func.func @copy(%a: tensor<8xf32>) -> tensor<8xf32> {
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%a : tensor<8xf32>) {
  ^bb0(%o: f32):
    linalg.yield %o : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
