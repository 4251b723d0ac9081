// The pass on mesh-partition's own outputs: the design's MLPs are already
// optimal (one all_gather in, one reduce_scatter out; the 2-D one adds one
// all_reduce before the relu), so nothing changes, the output verifies, and
// the 1-D MLP in linalg still simulates equal to the global program.
// RUN: mesh-opt --split-input-file --allow-unregistered-dialect --sharding-propagation --mesh-partition %S/../../Transforms/mesh-partition.mlir -o %t.part.mlir
// RUN: mesh-opt --split-input-file --allow-unregistered-dialect --sharding-propagation --mesh-partition --mesh-optimize-collectives %S/../../Transforms/mesh-partition.mlir -o %t.opt.mlir
// RUN: diff %t.part.mlir %t.opt.mlir
// RUN: mesh-opt --sharding-propagation --mesh-partition --mesh-optimize-collectives %S/../partition-mlp.mlir -o %t.mlp.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlp.mlir
// RUN: mesh-run %t.mlp.mlir --compare-with %S/../partition-mlp.mlir -q | FileCheck %s
// RUN: mesh-run %t.mlp.mlir --compare-with %S/../partition-mlp.mlir --seed 3 -q | FileCheck %s
// CHECK: result 0: max error {{[0-9.e-]+}}
// CHECK-NEXT: match
// IR: mesh.all_gather %arg0 on @mesh0 mesh_axes = [0] gather_axis = 2
// IR: mesh.reduce_scatter
// IR-NOT: mesh.all_
// A hand-partitioned 2x2 MLP (data and tensor parallel) keeps its one
// all_reduce and its results:
// RUN: mesh-opt --mesh-optimize-collectives %S/../mlp-spmd.mlir -o %t.spmd.mlir
// RUN: mesh-run %t.spmd.mlir --compare-with %S/../Inputs/mlp-global.mlir -q | FileCheck %s
