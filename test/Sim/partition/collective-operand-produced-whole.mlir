// A collective already in the program speaks of one device's data:
// partition takes its operands as they are produced and reshards none
// (a split one is an error).  The solver priced a collective's operand like
// any op's without a rule, gathered whole before it, so the add below ran
// on the rows it reads (as cheap: x is gathered before it or its result
// after) and partition refused the all_reduce of rows.  The operand must be
// produced whole: x is gathered first.  @ref is what the per-device program
// computes (the sum over the 4 devices of x + x).
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir 2>/dev/null
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir -f f --compare-with %s --ref-function ref -q --seed 1 | FileCheck %s --check-prefix=SIM
// SIM: match
// CHECK-LABEL: func.func @f(%arg0: tensor<2x4xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>}) -> (tensor<8x4xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}]]>}) {
// CHECK-NEXT: %[[X:.*]] = mesh.all_gather %arg0 on @mesh mesh_axes = [0] gather_axis = 0 : tensor<2x4xf32> -> tensor<8x4xf32>
// CHECK-NEXT: %[[Y:.*]] = arith.addf %[[X]], %[[X]] : tensor<8x4xf32>
// CHECK-NEXT: %[[R:.*]] = mesh.all_reduce %[[Y]] on @mesh mesh_axes = [0] : tensor<8x4xf32> -> tensor<8x4xf32>
// CHECK-NEXT: return %[[R]] : tensor<8x4xf32>

mesh.mesh @mesh(shape = 4)

func.func @f(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %x0 = mesh.shard %x to %rows : tensor<8x4xf32>
  %y = arith.addf %x0, %x0 : tensor<8x4xf32>
  %r = mesh.all_reduce %y on @mesh mesh_axes = [0] : tensor<8x4xf32> -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

func.func @ref(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %eight = arith.constant dense<8.0> : tensor<8x4xf32>
  %r = arith.mulf %x, %eight : tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}
