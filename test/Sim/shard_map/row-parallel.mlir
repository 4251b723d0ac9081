// A shard_map JAX wrote (Inputs/row-parallel.mlir: x @ w with x split by
// rows over "data" and by columns over "model", w by rows over "model",
// psum over "model"), its arguments laid out as it reads them: imported,
// its body runs per device between a cut of each operand and a gather of
// its result; partitioned, the cut and the gather are the arguments' and
// the result's own layouts, so the only collective is the psum's
// all_reduce.  Run against the imported program (JAX's own numbers are
// checked by test/python/test_shard_map_import.py).
// RUN: mesh-opt --import-shardings %S/Inputs/row-parallel.mlir -o %t.imported.mlir
// RUN: FileCheck %s --check-prefix=IMPORT --input-file=%t.imported.mlir
// RUN: mesh-opt --import-shardings --sharding-propagation --mesh-partition %S/Inputs/row-parallel.mlir -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: mesh-run %t.mlir -f main --compare-with %t.imported.mlir -q --seed 3 | FileCheck %s --check-prefix=SIM

// The import annotates where the per-device code begins and ends with the
// layouts it cuts and puts together: an operand for its first slice, a
// result as produced.
// IMPORT:      %[[X:.*]] = mesh.shard %arg0 to %{{.*}} : tensor<8x16xf32>
// IMPORT:      %[[W:.*]] = mesh.shard %arg1 to %{{.*}} : tensor<16x4xf32>
// IMPORT:      %[[XS:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}0], [1]] : !mesh.sharding
// IMPORT-NEXT: %[[XU:.*]] = mesh.shard %[[X]] to %[[XS]] annotate_for_users : tensor<8x16xf32>
// IMPORT:      %[[XR:.*]] = mesh.all_slice %[[XU]] on @mesh mesh_axes = [0] slice_axis = 0 : tensor<8x16xf32> -> tensor<4x16xf32>
// IMPORT-NEXT: %[[XP:.*]] = mesh.all_slice %[[XR]] on @mesh mesh_axes = [1] slice_axis = 1 : tensor<4x16xf32> -> tensor<4x4xf32>
// IMPORT-NEXT: %[[WU:.*]] = mesh.shard %[[W]] to %{{.*}} annotate_for_users : tensor<16x4xf32>
// IMPORT-NEXT: %[[WP:.*]] = mesh.all_slice %[[WU]] on @mesh mesh_axes = [1] slice_axis = 0 : tensor<16x4xf32> -> tensor<4x4xf32>
// IMPORT-NEXT: %[[D:.*]] = "stablehlo.dot_general"(%[[XP]], %[[WP]])
// IMPORT-NEXT: %[[S:.*]] = mesh.all_reduce %[[D]] on @mesh mesh_axes = [1] : tensor<4x4xf32> -> tensor<4x4xf32>
// IMPORT-NEXT: %[[G:.*]] = mesh.all_gather %[[S]] on @mesh mesh_axes = [0] gather_axis = 0 : tensor<4x4xf32> -> tensor<8x4xf32>
// IMPORT-NEXT: mesh.shard %[[G]] to %{{.*}} : tensor<8x4xf32>
// IMPORT-NOT:  sdy.

// CHECK-LABEL: func.func public @main(
// CHECK-SAME:    %arg0: tensor<4x4xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0], [1]]>}, %arg1: tensor<4x4xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}1]]>})
// CHECK-SAME:    -> (tensor<4x4xf32> {jax.result_info = "result", mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>})
// CHECK-NEXT:    %[[D:.*]] = "stablehlo.dot_general"(%arg0, %arg1)
// CHECK-NEXT:    %[[S:.*]] = mesh.all_reduce %[[D]] on @mesh mesh_axes = [1] : tensor<4x4xf32> -> tensor<4x4xf32>
// CHECK-NEXT:    return %[[S]] : tensor<4x4xf32>

// SIM: match
