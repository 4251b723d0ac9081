// tensor.empty under the cost solver: an unannotated one makes a value
// every device holds whole (no option, no layout of its own); one whose
// result is annotated, or that has an option, takes a loop sharding like
// any op with a rule.  Partitioned, each computes what the original does.
// RUN: mesh-opt --sharding-propagation %s | FileCheck %s
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: mesh-run %t.mlir --function annotated_empty --compare-with %s -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --function empty_with_option --compare-with %s -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --function plain_empty --compare-with %s -q | FileCheck %s --check-prefix=SIM
// SIM: match

// CHECK-LABEL: func.func @annotated_empty
// CHECK: %[[E:.*]] = tensor.empty() {mesh.sharding_option = #mesh.sharding<@m, {{\[\[}}0]]>} : tensor<4x8xf32>
// CHECK-NEXT: %[[ES:.*]] = mesh.shard %[[E]] to %{{.*}} : tensor<4x8xf32>
// CHECK: linalg.generic {{.*}} outs(%[[ES]] : tensor<4x8xf32>) attrs =  {mesh.sharding_option = #mesh.sharding<@m, {{\[\[}}0]]>}

// CHECK-LABEL: func.func @empty_with_option
// CHECK: %[[E:.*]] = tensor.empty() {mesh.sharding_option = #mesh.sharding<@m, {{\[\[}}0]]>} : tensor<4x8xf32>
// CHECK-NEXT: %[[ES:.*]] = mesh.shard %[[E]] to %{{.*}} : tensor<4x8xf32>
// CHECK-NEXT: %[[U:.*]] = mesh.shard %[[ES]] to %{{.*}} annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[U]] : tensor<4x8xf32>) attrs =  {mesh.sharding_option = #mesh.sharding<@m, {{\[\[}}], [0]]>}

// CHECK-LABEL: func.func @plain_empty
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT: %[[U:.*]] = mesh.shard %[[E]] to %{{.*}} annotate_for_users : tensor<4x8xf32>
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[U]] : tensor<4x8xf32>) attrs =  {mesh.sharding_option = #mesh.sharding<@m, {{\[\[}}], [0]]>}

#id = affine_map<(i, j) -> (i, j)>
mesh.mesh @m(shape = 2)
func.func @annotated_empty(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %e = tensor.empty() : tensor<4x8xf32>
  %es = mesh.shard %e to %s : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%es : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.addf %a, %a : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

func.func @empty_with_option(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x8xf32>
  %e = tensor.empty() {mesh.sharding_option = #mesh.sharding<@m, [[0]]>} : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%xs : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.addf %a, %a : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

func.func @plain_empty(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %s : tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%xs : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.addf %a, %a : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
