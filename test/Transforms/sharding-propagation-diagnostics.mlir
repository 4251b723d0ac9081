// RUN: mesh-opt --split-input-file --verify-diagnostics --allow-unregistered-dialect --pass-pipeline='builtin.module(sharding-propagation{solver=sweep explain=true})' %s
// Without explain the same input propagates silently (solver=sweep here; the cost solver is in sharding-propagation-cost.mlir); a barrier op then
// passes with skip-unknown:
// RUN: mesh-opt --split-input-file --allow-unregistered-dialect --pass-pipeline='builtin.module(sharding-propagation{solver=sweep skip-unknown=true})' %s | FileCheck %s

mesh.mesh @mesh(shape = 2x2)

// Two annotations ask for different row splits: the first operand wins (as
// upstream's search decides) and the second is resharded; the remark names
// both annotations.
// CHECK-LABEL: func.func @conflict
// CHECK: %[[B:.*]] = mesh.shard %arg1 to
// CHECK: %[[B2:.*]] = mesh.shard %[[B]] to %{{.*}} annotate_for_users
// CHECK: tosa.add %{{.*}}, %[[B2]] {mesh.sharding_option = #mesh.sharding<@mesh, {{\[\[}}0]]>}
func.func @conflict(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %s1 = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
  %a0 = mesh.shard %a to %s0 : tensor<4x8xf32>
  %b0 = mesh.shard %b to %s1 : tensor<4x8xf32>
  // expected-remark-re@+1 {{operand 1 of 'tosa.add' is resharded from @mesh split_axes = {{\[\[}}1]] (annotated at {{.*}}sharding-propagation-diagnostics.mlir:19:9) to @mesh split_axes = {{\[\[}}0]]: 'tosa.add' follows the annotation at {{.*}}sharding-propagation-diagnostics.mlir:18:9}}
  %c = tosa.add %a0, %b0 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// -----

mesh.mesh @mesh(shape = 2x2)

// Both annotations target the op and disagree: the result's wins. The
// operand's annotation cannot be annotated again (that is undefined), so
// the op reads the argument through a new annotation.
// CHECK-LABEL: func.func @both_target_the_op
// CHECK-DAG: %[[ROWS:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}0]] :
// CHECK-DAG: %[[BOTH:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}0], [1]] :
// CHECK: mesh.shard %arg0 to %[[ROWS]] annotate_for_users
// CHECK-NEXT: %[[A:.*]] = mesh.shard %arg0 to %[[BOTH]] annotate_for_users
// CHECK-NEXT: tosa.tanh %[[A]] {mesh.sharding_option = #mesh.sharding<@mesh, {{\[\[}}0], [1]]>}
func.func @both_target_the_op(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s0 = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %s1 = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %a0 = mesh.shard %a to %s0 annotate_for_users : tensor<4x8xf32>
  // expected-remark-re@+1 {{operand 0 of 'tosa.tanh' is resharded from @mesh split_axes = {{\[\[}}0]] (annotated at {{.*}}:41:9) to @mesh split_axes = {{\[\[}}0], [1]]: 'tosa.tanh' follows the annotation at {{.*}}:44:9}}
  %c = tosa.tanh %a0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %c0 = mesh.shard %c to %s1 : tensor<4x8xf32>
  return %c0 : tensor<4x8xf32>
}

// -----

mesh.mesh @mesh(shape = 2)

// An op with no rule next to a sharded value stops the pass, unless
// skip-unknown makes it a barrier.
// CHECK-LABEL: func.func @unknown
// CHECK: "foo.bar"
func.func @unknown(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a0 = mesh.shard %a to %s : tensor<4x8xf32>
  %t = tosa.tanh %a0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // expected-error@+1 {{no sharding rule for 'foo.bar' but its operand 0 is sharded (@mesh split_axes = [[0]]); register a rule (mesh_dialect.interfaces.register_rule) or use skip-unknown to treat it as a barrier}}
  %d = "foo.bar"(%t) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}

// -----

mesh.mesh @mesh(shape = 2)

// An op whose kind has a rule that does not take this one (a reshape of
// dynamic sizes) is not told to register a rule.
// CHECK-LABEL: func.func @rule_does_not_cover
// CHECK: tensor.expand_shape
func.func @rule_does_not_cover(%a: tensor<?x8xf32>, %q: index) -> tensor<?x4x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a1 = mesh.shard %a to %s : tensor<?x8xf32>
  // expected-error@+1 {{no sharding rule covers this 'tensor.expand_shape' (the rule of its kind does not take its sizes, attributes or types) but its operand 0 is sharded (@mesh split_axes = [[0]]); annotate that value whole next to it, or use skip-unknown to treat it as a barrier}}
  %r = tensor.expand_shape %a1 [[0, 1], [2]] output_shape [%q, 4, 8] : tensor<?x8xf32> into tensor<?x4x8xf32>
  return %r : tensor<?x4x8xf32>
}

// -----

mesh.mesh @mesh(shape = 2)

// An op with no rule between replicated values is no obstacle.
// CHECK-LABEL: func.func @unknown_replicated
func.func @unknown_replicated(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %a0 = mesh.shard %a to %s : tensor<4x8xf32>
  %t = tosa.tanh %a0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %d = "foo.bar"(%t) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}
