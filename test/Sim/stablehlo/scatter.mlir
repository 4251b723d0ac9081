// stablehlo.scatter as JAX exports it (Inputs/export.py): a decoder's cache
// write (`.at[:, pos].set`), an embedding's gradient (a scatter-add of
// repeated ids) and scatter's corner cases (repeated indices set, added and
// maxed with a NaN, indices past either end, batching dimensions).  An input
// dimension an update window covers whole and no index moves splits with
// the updates' window dimension, a batching dimension with its indices'
// and updates' batch: each device scatters its own updates into its own
// piece, the indices untouched.  A dimension an index moves along stays
// whole.  A scatter-add into zeros may also split the updates' tokens, and
// add the pieces with one all_reduce.
// RUN: mesh-opt --sharding-propagation --mesh-partition %S/Inputs/scatter-rows-2d.mlir -o %t.rows.mlir
// RUN: FileCheck %s --check-prefix=ROWS < %t.rows.mlir
// RUN: mesh-run %t.rows.mlir --compare-with %S/Inputs/scatter-rows-2d.mlir -q --seed 1 | FileCheck %s
// RUN: mesh-opt --sharding-propagation --mesh-partition %S/Inputs/scatter-add-2d.mlir -o %t.add.mlir
// RUN: FileCheck %s --check-prefix=ADD < %t.add.mlir
// RUN: mesh-run %t.add.mlir --compare-with %S/Inputs/scatter-add-2d.mlir -q --seed 2 | FileCheck %s
// RUN: mesh-opt --sharding-propagation --mesh-partition %S/Inputs/scatter-sum-2d.mlir -o %t.sum.mlir
// RUN: FileCheck %s --check-prefix=SUM < %t.sum.mlir
// RUN: mesh-run %t.sum.mlir --compare-with %S/Inputs/scatter-sum-2d.mlir -q --seed 4 | FileCheck %s
// RUN: mesh-opt --sharding-propagation --mesh-partition %S/Inputs/scatter-cases-1d.mlir -o %t.cases.mlir 2>/dev/null
// RUN: FileCheck %s --check-prefix=CASES < %t.cases.mlir
// RUN: mesh-run %t.cases.mlir --compare-with %S/Inputs/scatter-cases-1d.mlir -q --seed 3 | FileCheck %s
// CHECK: match

// The cache's batch and features are split like the new row's: each device
// writes its piece of the row into its piece of the cache.
// ROWS-LABEL: func.func public @main(
// ROWS-NOT: mesh.all_
// ROWS: "stablehlo.scatter"(%arg0, %{{.*}}, %arg1)
// ROWS: }) : (tensor<2x16x4xf32>, tensor<1xi32>, tensor<2x4xf32>) -> tensor<2x16x4xf32>
// ROWS-NOT: mesh.all_

// The table's features are split like the gradients' features; the ids and
// the gradients of the batch are gathered (the rows they land on are
// anyone's).
// ADD-LABEL: func.func public @main(
// ADD: mesh.all_gather %{{.*}} on @mesh mesh_axes = [0] gather_axis = 0 : tensor<4x1xi32> -> tensor<8x1xi32>
// ADD: mesh.all_gather %{{.*}} on @mesh mesh_axes = [0] gather_axis = 0 : tensor<4x4xf32> -> tensor<8x4xf32>
// ADD: "stablehlo.scatter"
// ADD: }) : (tensor<16x4xf32>, tensor<8x1xi32>, tensor<8x4xf32>) -> tensor<16x4xf32>
// ADD-NOT: mesh.all_

// The same gradient of a table of 4 rows looked up by 32 tokens: each device
// scatters its own tokens' rows into zeros, and one all_reduce of the
// table's piece adds them, less than gathering the tokens' gradients.
// SUM-LABEL: func.func public @main(
// SUM-NOT: mesh.all_
// SUM: }) : (tensor<4x4xf32>, tensor<16x1xi32>, tensor<16x4xf32>) -> tensor<4x4xf32>
// SUM-NEXT: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0] : tensor<4x4xf32> -> tensor<4x4xf32>
// SUM-NOT: mesh.all_

// The three scatters of repeated ids read one table and one set of
// updates, and their results are returned whole: the updates are gathered
// once for all three (the table is gathered anyway, for the point scatter),
// less than gathering the three results of scattering split features.  The
// batched scatter splits its batch.
// CASES-LABEL: func.func public @main(
// CASES: mesh.all_gather %arg0 on @mesh mesh_axes = [0] gather_axis = 1 : tensor<5x2xf32> -> tensor<5x4xf32>
// CASES: mesh.all_gather %arg1 on @mesh mesh_axes = [0] gather_axis = 1 : tensor<5x2xf32> -> tensor<5x4xf32>
// CASES-NEXT: "stablehlo.scatter"
// CASES: }) : (tensor<5x4xf32>, tensor<5x1xi32>, tensor<5x4xf32>) -> tensor<5x4xf32>
// CASES-NOT: mesh.all_
// CASES: }) : (tensor<5x4xf32>, tensor<5x1xi32>, tensor<5x4xf32>) -> tensor<5x4xf32>
// CASES-NOT: mesh.all_
// CASES: }) : (tensor<5x4xf32>, tensor<5x1xi32>, tensor<5x4xf32>) -> tensor<5x4xf32>
// CASES-NOT: mesh.all_
// CASES: }) : (tensor<2x6x8xf32>, tensor<2x3x1xi32>, tensor<2x3x8xf32>) -> tensor<2x6x8xf32>
