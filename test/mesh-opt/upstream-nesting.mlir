// Upstream's RUN lines nest sharding-propagation (and the partition pass,
// once named mesh-spmdization) in func.func(...); mesh-opt accepts that
// spelling and runs its own module-level pass of that name, which treats each
// function on its own: the output is the same as with the pass at the top.
// RUN: mesh-opt %s --pass-pipeline='builtin.module(sharding-propagation{traversal=forward}, mesh-partition)' | FileCheck %s
// RUN: mesh-opt %s --pass-pipeline='builtin.module(func.func(sharding-propagation{traversal=forward}), func.func(mesh-partition))' | FileCheck %s
// RUN: mesh-opt %s --pass-pipeline='builtin.module(func.func(sharding-propagation{traversal=forward}, mesh-spmdization))' | FileCheck %s
// Upstream passes around it in the same nesting keep their places.
// RUN: mesh-opt %s --pass-pipeline='builtin.module(func.func(cse, sharding-propagation, canonicalize), mesh-partition)' | FileCheck %s
// RUN: mesh-opt %s --mlir-print-ir-after-all --pass-pipeline='builtin.module(func.func(cse, sharding-propagation, canonicalize), mesh-partition)' 2>&1 >/dev/null | FileCheck %s --check-prefix=SPLIT
// RUN: mesh-opt %s --dump-pass-pipeline --pass-pipeline='builtin.module(func.func(cse, sharding-propagation{traversal=forward}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=DUMP
// Other nestings would not run the same, and are refused.
// RUN: not mesh-opt %s --pass-pipeline='builtin.module(gpu.module(sharding-propagation))' 2>&1 | FileCheck %s --check-prefix=GPU
// RUN: not mesh-opt %s --pass-pipeline='builtin.module(func.func(any(mesh-partition)))' 2>&1 | FileCheck %s --check-prefix=ANY
// RUN: not mesh-opt %s --pass-pipeline='builtin.module(func.func(sharding-propagation{traversal=sideways}))' 2>&1 | FileCheck %s --check-prefix=OPTION

// CHECK-LABEL: func.func @f(
// CHECK-SAME:    %arg0: tensor<4xf32> {mesh.sharding = #mesh.sharding<@m, {{\[\[}}0]]>}
// CHECK-SAME:    %arg1: tensor<4xf32> {mesh.sharding = #mesh.sharding<@m, {{\[\[}}0]]>}
// CHECK-NEXT:    %0 = arith.addf %arg0, %arg1 : tensor<4xf32>
// CHECK-NEXT:    %1 = arith.mulf %0, %0 : tensor<4xf32>
// CHECK-NEXT:    return %1 : tensor<4xf32>
// CHECK-LABEL: func.func @g(
// CHECK-SAME:    %arg0: tensor<3xf32> {mesh.sharding = #mesh.sharding<@m, {{\[\[}}0]]>}
// CHECK-NEXT:    return %arg0 : tensor<3xf32>

// SPLIT:      // -----// IR Dump After func.func(cse) //----- //
// SPLIT:      // -----// IR Dump After sharding-propagation //----- //
// SPLIT:      // -----// IR Dump After func.func(canonicalize) //----- //
// SPLIT:      // -----// IR Dump After mesh-partition //----- //

// DUMP:      Pass Manager with 2 passes:
// DUMP-NEXT: builtin.module(
// DUMP-NEXT:   func.func(
// DUMP-NEXT:     cse
// DUMP-NEXT:   ),
// DUMP-NEXT:   sharding-propagation{solver=cost traversal=forward fixed-point=true explain=false skip-unknown=false}
// DUMP-NEXT: )

// GPU: mesh-opt: pass 'sharding-propagation' runs on the whole module, not in 'gpu.module(...)'; list it at the top level of the pipeline or directly in func.func(...)
// ANY: mesh-opt: pass 'mesh-partition' runs on the whole module, not in 'func.func(any(...))'; list it at the top level of the pipeline or directly in func.func(...)
// OPTION: mesh-opt: option 'traversal' of pass 'sharding-propagation' must be one of forward, backward, forward-backward, backward-forward, got 'sideways'

mesh.mesh @m(shape = 2)
func.func @f(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %a1 = mesh.shard %a to %s : tensor<8xf32>
  %c = arith.addf %a1, %b : tensor<8xf32>
  %d = arith.mulf %c, %c : tensor<8xf32>
  return %d : tensor<8xf32>
}
func.func @g(%a: tensor<6xf32>) -> tensor<6xf32> {
  %s = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %a1 = mesh.shard %a to %s : tensor<6xf32>
  return %a1 : tensor<6xf32>
}
