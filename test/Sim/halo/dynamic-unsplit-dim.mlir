// A whole value cut to halos along a static dimension keeps a dynamic
// dimension it does not cut at its run-time size (tensor.dim): the slice
// had listed the dynamic size's marker as a static size and failed to build.
// A split value given halos along that static dimension keeps it too: the
// planner took any dynamic size (even one no layout cuts) for uneven pieces
// and refused halos there, and update_halo's destination (or the slice a
// narrowing makes) listed the marker.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: %python -c "import numpy as np; r = np.random.default_rng(2); np.save('%t.x.npy', r.standard_normal((5, 4)).astype(np.float32)); np.save('%t.y.npy', r.standard_normal((3, 7, 4)).astype(np.float32))"
// RUN: mesh-run %t.mlir --function rows -i %t.x.npy --compare-with %s -q | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir --function two -i %t.y.npy --compare-with %s -q | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir --function split -i %t.x.npy --compare-with %s -q | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir --function narrowed -i %t.x.npy --compare-with %s -q | FileCheck %s --check-prefix=MATCH
// MATCH: match
// CHECK-LABEL: func.func @rows
// CHECK: %[[D:.*]] = tensor.dim %arg0, %c0 : tensor<?x4xf32>
// CHECK: tensor.extract_slice %arg0[0, %{{.*}}] [%[[D]], %{{.*}}] [1, 1] : tensor<?x4xf32> to tensor<?x?xf32>
// CHECK: tensor.empty(%[[D]]) : tensor<?x3xf32>
// CHECK-LABEL: func.func @two
// CHECK-COUNT-2: tensor.dim %arg0
// CHECK-LABEL: func.func @split
// CHECK: %[[D:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x2xf32>
// CHECK: %[[E:.*]] = tensor.empty(%[[D]]) : tensor<?x4xf32>
// CHECK: mesh.update_halo %arg0 into %[[E]] on @m split_axes = {{\[\[}}], [0]] destination_halo_sizes = [1, 1] : tensor<?x2xf32> -> tensor<?x4xf32>
// CHECK-LABEL: func.func @narrowed
// CHECK: %[[D:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<?x4xf32>
// CHECK: tensor.extract_slice %{{.*}}[0, 1] [%[[D]], 3] [1, 1] : tensor<?x4xf32> to tensor<?x3xf32>

mesh.mesh @m(shape = 2)

func.func @rows(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %s0 = mesh.sharding @m split_axes = [[]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<?x4xf32>
  %s1 = mesh.sharding @m split_axes = [[], [0]] halo_sizes = [1, 0] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}

func.func @two(%arg0: tensor<?x?x4xf32>) -> tensor<?x?x4xf32> {
  %s0 = mesh.sharding @m split_axes = [[]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<?x?x4xf32>
  %s1 = mesh.sharding @m split_axes = [[], [], [0]] halo_sizes = [1, 1] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<?x?x4xf32>
  return %1 : tensor<?x?x4xf32>
}

func.func @split(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %s0 = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<?x4xf32>
  %s1 = mesh.sharding @m split_axes = [[], [0]] halo_sizes = [1, 1] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}

func.func @narrowed(%arg0: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %s0 = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %0 = mesh.shard %arg0 to %s0 : tensor<?x4xf32>
  %s1 = mesh.sharding @m split_axes = [[], [0]] halo_sizes = [1, 1] : !mesh.sharding
  %1 = mesh.shard %0 to %s1 annotate_for_users : tensor<?x4xf32>
  %s2 = mesh.sharding @m split_axes = [[], [0]] halo_sizes = [0, 1] : !mesh.sharding
  %2 = mesh.shard %1 to %s2 annotate_for_users : tensor<?x4xf32>
  return %2 : tensor<?x4xf32>
}
