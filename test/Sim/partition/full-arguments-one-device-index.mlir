// mesh-partition{full-arguments=true} keeps an argument split only over
// axes of one device as it came (its piece is the whole), with its whole
// type recorded as every split value's is.  A linalg body reading the index
// of a loop split that way then needs no shift (its device's first element
// is 0); partition refused it, the whole size being unknown.
// RUN: mesh-opt --mesh-partition=full-arguments=true %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s --seed 1 -q | FileCheck %s --check-prefix=SIM
// SIM: match

mesh.mesh @mesh(shape = 1x2)

#id = affine_map<(d0) -> (d0)>

// CHECK-LABEL: func.func @f(
// CHECK-SAME: %[[T:[^:]*]]: tensor<4xi64>) -> (tensor<4xi64> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>})
// CHECK-NEXT: tensor.empty
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[T]] : tensor<4xi64>)
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK-NEXT: %[[C:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK-NEXT: arith.addi %{{.*}}, %[[C]] : i64
func.func @f(%t: tensor<4xi64>) -> tensor<4xi64> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a = mesh.shard %t to %s : tensor<4xi64>
  %b = mesh.shard %a to %s annotate_for_users : tensor<4xi64>
  %e = tensor.empty() : tensor<4xi64>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%b : tensor<4xi64>) outs(%e : tensor<4xi64>) {
  ^bb0(%x: i64, %o: i64):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    %y = arith.addi %x, %c : i64
    linalg.yield %y : i64
  } -> tensor<4xi64>
  %rs = mesh.shard %r to %s : tensor<4xi64>
  return %rs : tensor<4xi64>
}
