// Alias definitions stay at the top level when the file's ops are wrapped in
// a module, before the ops (attribute and type aliases) and after them (the
// #loc lines of --mlir-print-debuginfo output, which reads back unchanged).
// RUN: mesh-opt %s | FileCheck %s
// RUN: mesh-opt %s --mlir-print-debuginfo > %t.mlir
// RUN: mesh-opt %t.mlir --mlir-print-debuginfo | diff - %t.mlir
// RUN: mesh-opt %t.mlir | FileCheck %s

#map = affine_map<(d0, d1) -> (d1, d0)>   // a comment after an alias
!row = tensor<2x4xf32>
#kind = #mesh.partial<max>
mesh.mesh @m(shape = 2)

// CHECK:      #map = affine_map<(d0, d1) -> (d1, d0)>
// CHECK:      func.func @transpose(%arg0: tensor<2x4xf32>, %arg1: tensor<4x2xf32>) -> tensor<4x2xf32> attributes {kind = #mesh.partial<max>} {
// CHECK-NEXT:   %0 = linalg.generic {indexing_maps = [#map, #map1]
func.func @transpose(%a: !row, %b: tensor<4x2xf32>) -> tensor<4x2xf32> attributes {kind = #kind} {
  %0 = linalg.generic {indexing_maps = [#map, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : !row) outs(%b : tensor<4x2xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
