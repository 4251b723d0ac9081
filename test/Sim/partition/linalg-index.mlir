// A body that reads its loop index (linalg.index) computes with global
// positions: that loop is not split.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q | FileCheck %s
// CHECK: match

mesh.mesh @mesh(shape = 2)
func.func @iota(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %x0 = mesh.shard %x to %s annotate_for_users : tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x0 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %y = arith.addf %a, %f : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
