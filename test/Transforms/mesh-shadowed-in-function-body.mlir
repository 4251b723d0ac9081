// RUN: mesh-opt --verify-diagnostics --sharding-propagation %s
// RUN: mesh-opt --verify-diagnostics --mesh-partition %s
// RUN: mesh-opt --verify-diagnostics --test-mesh-resharding %s
// RUN: sed 's/shape = 2)/shape = 2147483647)/' %s | not mesh-opt --test-mesh-resharding 2>&1 | FileCheck %s --check-prefix=HUGE

// A function that defines a mesh under the name of one of the module's: the
// verifier resolves the function's uses to the inner one (2 devices here),
// the passes read the module's (3 devices).  The passes refuse it at the
// inner definition, instead of planning for the wrong mesh and emitting a
// collective the verifier rejects (the test pass listed the pieces of an
// inner mesh of 2147483647 devices until it ran out of memory).
// HUGE: <stdin>:[[# @LINE + 4]]:3: error: mesh @mesh of the module is defined again in a function body
mesh.mesh @mesh(shape = 3)
func.func @shadowed(%arg0: tensor<6xi32>) -> tensor<6xi32> {
  // expected-error@+1 {{mesh @mesh of the module is defined again in a function body: the passes read meshes defined at module level, not in a function body}}
  mesh.mesh @mesh(shape = 2)
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %r = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %a = mesh.shard %arg0 to %s : tensor<6xi32>
  %b = mesh.shard %a to %r annotate_for_users : tensor<6xi32>
  %c = arith.addi %b, %b : tensor<6xi32>
  return %c : tensor<6xi32>
}
