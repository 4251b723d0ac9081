// A table a linalg body reads with tensor.extract (not an operand) is read
// whole on every device, and nothing can reshard it for that read: the cost
// solver runs the op that makes it whole (its input gathered), where it
// used to follow the input's split and partition then refused the body.
// RUN: mesh-opt --sharding-propagation %s | FileCheck %s --check-prefix=PROP
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 6 | FileCheck %s
// CHECK: result 0: max error {{[0-9.e-]+}}
// CHECK-NEXT: match
// PROP-LABEL: func.func @lookup(
// PROP: linalg.generic {{.*}}mesh.sharding_option = #mesh.sharding<@mesh, []>
// PROP: linalg.generic {{.*}}mesh.sharding_option = #mesh.sharding<@mesh, {{\[\[}}0]]>

mesh.mesh @mesh(shape = 4)
func.func @lookup(%x: tensor<8xi32>, %table: tensor<8xi32>) -> tensor<8xi32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %x0 = mesh.shard %x to %rows annotate_for_users : tensor<8xi32>
  %t0 = mesh.shard %table to %rows annotate_for_users : tensor<8xi32>
  %e0 = tensor.empty() : tensor<8xi32>
  %scaled = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%t0 : tensor<8xi32>) outs(%e0 : tensor<8xi32>) {
  ^bb0(%a: i32, %o: i32):
    %c3 = arith.constant 3 : i32
    %y = arith.muli %a, %c3 : i32
    linalg.yield %y : i32
  } -> tensor<8xi32>
  %e = tensor.empty() : tensor<8xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x0 : tensor<8xi32>) outs(%e : tensor<8xi32>) {
  ^bb0(%a: i32, %o: i32):
    %i = linalg.index 0 : index
    %c7 = arith.constant 7 : index
    %k = arith.subi %c7, %i : index
    %t = tensor.extract %scaled[%k] : tensor<8xi32>
    %y = arith.addi %a, %t : i32
    linalg.yield %y : i32
  } -> tensor<8xi32>
  %rs = mesh.shard %r to %rows : tensor<8xi32>
  return %rs : tensor<8xi32>
}
