// A table a linalg body reads with tensor.extract (not an operand) is read
// whole on every device.  The cost solver prices that read as an operand
// read whole: here the op making the table runs split, as its input
// arrives, and partition gathers the table in front of the reading op
// (8 elements, what gathering the op's input would cost; the tie goes to
// the op split over more devices).  Before partition could reshard such a
// read, the op making the table had to run whole, and before that it
// followed its input's split and partition refused the body.
// RUN: mesh-opt --sharding-propagation %s | FileCheck %s --check-prefix=PROP
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 6 | FileCheck %s
// CHECK: result 0: max error {{[0-9.e-]+}}
// CHECK-NEXT: match
// PROP-LABEL: func.func @lookup(
// PROP: linalg.generic {{.*}}mesh.sharding_option = #mesh.sharding<@mesh, {{\[\[}}0]]>
// PROP: linalg.generic {{.*}}mesh.sharding_option = #mesh.sharding<@mesh, {{\[\[}}0]]>
// IR-LABEL: func.func @lookup(
// IR: %[[T:.*]] = mesh.all_gather %{{.*}} on @mesh mesh_axes = [0] gather_axis = 0 : tensor<2xi32> -> tensor<8xi32>
// IR: tensor.extract %[[T]][%{{.*}}] : tensor<8xi32>

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
