// JAX's mixed precision: bf16 operands, dot_general accumulating in f32
// (preferred_element_type), the result converted back to bf16.  The
// partial f32 sums are reduced before the convert rounds them.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 2 | FileCheck %s
// CHECK: result 0: max error {{[0-9.e-]+}}
// CHECK-NEXT: match
// IR: "stablehlo.dot_general"{{.*}} : (tensor<8x16xbf16>, tensor<16x32xbf16>) -> tensor<8x32xf32>
// IR: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0] : tensor<8x32xf32> -> tensor<8x32xf32>
// IR: "stablehlo.convert"{{.*}} : (tensor<8x32xf32>) -> tensor<8x32xbf16>

mesh.mesh @mesh(shape = 4)

func.func @main(%h: tensor<8x64xbf16>, %w: tensor<64x32xbf16>) -> tensor<8x32xbf16> {
  %cols = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [] : !mesh.sharding
  %h0 = mesh.shard %h to %cols : tensor<8x64xbf16>
  %w0 = mesh.shard %w to %rows : tensor<64x32xbf16>
  %y = "stablehlo.dot_general"(%h0, %w0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x64xbf16>, tensor<64x32xbf16>) -> tensor<8x32xf32>
  %b = "stablehlo.convert"(%y) : (tensor<8x32xf32>) -> tensor<8x32xbf16>
  %b0 = mesh.shard %b to %whole : tensor<8x32xbf16>
  return %b0 : tensor<8x32xbf16>
}
