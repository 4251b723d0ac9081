// Rings over both mesh axes JAX wrote (Inputs/rings.mlir: ppermute of each
// device's block to the device one and three numbers on, over
// ("data", "model")): imported, each device sends its block straight to
// its successor and receives its predecessor's, a table per ring naming
// them; partitioned, nothing else moves (the result is put together where
// it was cut), so a device receives each ring's block once, 64 bytes in
// all as XLA's collective permutes.
// RUN: mesh-opt --import-shardings %S/Inputs/rings.mlir -o %t.imported.mlir
// RUN: FileCheck %s --check-prefix=IMPORT --input-file=%t.imported.mlir
// RUN: mesh-opt --import-shardings --sharding-propagation --mesh-partition %S/Inputs/rings.mlir -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: mesh-run %t.mlir -f main --compare-with %t.imported.mlir -q --seed 5 | FileCheck %s --check-prefix=SIM

// IMPORT:      %[[B:.*]] = mesh.all_slice %{{.*}} on @mesh mesh_axes = [0, 1] slice_axis = 0 : tensor<16x4xf32> -> tensor<2x4xf32>
// IMPORT:      arith.constant dense<[1, 2, 3, 4, 5, 6, 7, 0]> : tensor<8xindex>
// IMPORT:      arith.constant dense<[7, 0, 1, 2, 3, 4, 5, 6]> : tensor<8xindex>
// IMPORT:      mesh.send %[[B]] on @mesh mesh_axes = [0, 1] destination =
// IMPORT-NEXT: mesh.recv %[[B]] on @mesh mesh_axes = [0, 1] source =
// IMPORT:      arith.constant dense<[3, 4, 5, 6, 7, 0, 1, 2]> : tensor<8xindex>
// IMPORT:      arith.constant dense<[5, 6, 7, 0, 1, 2, 3, 4]> : tensor<8xindex>
// IMPORT-NOT:  mesh.shift
// IMPORT:      %[[G:.*]] = mesh.all_gather %{{.*}} on @mesh mesh_axes = [0, 1] gather_axis = 0 : tensor<2x4xf32> -> tensor<16x4xf32>
// IMPORT-NEXT: mesh.shard %[[G]] to

// CHECK-LABEL: func.func public @main(%arg0: tensor<2x4xf32>
// CHECK-SAME:    -> (tensor<2x4xf32> {{.*}}, tensor<2x4xf32>
// CHECK-NOT:     mesh.all_gather
// CHECK-NOT:     mesh.shift
// CHECK:         return

// SIM: match
