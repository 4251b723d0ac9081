// stablehlo.gather as JAX exports it (Inputs/export.py): an embedding lookup
// (jnp.take), a gather with batching dimensions and clamped 2-D windows.
// The result's batch loops come from the start indices, an offset loop from
// an operand dimension the slice takes whole (its slice_sizes entry becomes
// the piece's size), and an operand batching dimension shares its indices
// dimension's loop.  The one dimension a single id picks a row from (an
// embedding's vocabulary) is a sum loop: each device looks up the ids whose
// row it holds and gives 0 for the others, and the partial sums meet in one
// all_reduce (Megatron's vocabulary-parallel embedding), which moves less
// than gathering the table here.
// RUN: mesh-opt --sharding-propagation --mesh-partition %S/Inputs/embedding-2d.mlir -o %t.embedding.mlir
// RUN: FileCheck %s --check-prefix=EMBEDDING < %t.embedding.mlir
// RUN: mesh-run %t.embedding.mlir --compare-with %S/Inputs/embedding-2d.mlir -q --seed 1 | FileCheck %s
// RUN: mesh-opt --sharding-propagation --mesh-partition %S/Inputs/gather-batched-2d.mlir -o %t.batched.mlir
// RUN: FileCheck %s --check-prefix=BATCHED < %t.batched.mlir
// RUN: mesh-run %t.batched.mlir --compare-with %S/Inputs/gather-batched-2d.mlir -q --seed 2 | FileCheck %s
// RUN: mesh-opt --sharding-propagation --mesh-partition %S/Inputs/gather-windows-1d.mlir -o %t.windows.mlir 2>/dev/null
// RUN: FileCheck %s --check-prefix=WINDOWS < %t.windows.mlir
// RUN: mesh-run %t.windows.mlir --compare-with %S/Inputs/gather-windows-1d.mlir -q --seed 3 | FileCheck %s
// RUN: mesh-opt --sharding-propagation --mesh-partition %S/Inputs/embedding-vocab-2d.mlir -o %t.vocab.mlir
// RUN: FileCheck %s --check-prefix=VOCAB < %t.vocab.mlir
// RUN: mesh-run %t.vocab.mlir --compare-with %S/Inputs/embedding-vocab-2d.mlir -q --seed 4 | FileCheck %s
// RUN: mesh-opt --sharding-propagation --mesh-partition %S/Inputs/embedding-vocab-uneven-2d.mlir -o %t.uneven.mlir
// RUN: FileCheck %s --check-prefix=UNEVEN < %t.uneven.mlir
// RUN: mesh-run %t.uneven.mlir --compare-with %S/Inputs/embedding-vocab-uneven-2d.mlir -q --seed 5 | FileCheck %s
// RUN: mesh-run %t.uneven.mlir --compare-with %S/Inputs/embedding-vocab-uneven-2d.mlir -q --seed 6 | FileCheck %s
// CHECK: match

// Each device looks up its batch of ids in its columns of the table: no
// collective at all.
// EMBEDDING-LABEL: func.func public @main(
// EMBEDDING-SAME: %arg1: tensor<16x4xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}], [1]]>}
// EMBEDDING-NOT: mesh.all_
// EMBEDDING: "stablehlo.gather"(%arg1, %{{.*}}) <{{{.*}}slice_sizes = array<i64: 1, 4>}> : (tensor<16x4xf32>, tensor<2x3x1xi32>) -> tensor<2x3x4xf32>
// EMBEDDING-NOT: mesh.all_

// BATCHED-LABEL: func.func public @main(
// BATCHED-NOT: mesh.all_
// BATCHED: "stablehlo.gather"(%arg0, %arg1) <{{{.*}}slice_sizes = array<i64: 1, 1, 4>}> : (tensor<2x6x4xf32>, tensor<2x3x1xi32>) -> tensor<2x3x4xf32>
// BATCHED-NOT: mesh.all_

// A window starts anywhere along both dimensions: the column-split operand
// is gathered whole first.
// WINDOWS-LABEL: func.func public @main(
// WINDOWS: mesh.all_gather
// WINDOWS: "stablehlo.gather"({{.*}}slice_sizes = array<i64: 2, 3>}> : (tensor<6x7xf32>, tensor<2x2xi32>) -> tensor<2x2x3xf32>

// VOCAB-LABEL: func.func public @main(
// VOCAB-SAME: %arg1: tensor<8x8xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}1]]>}
// VOCAB-NOT: mesh.all_gather
// VOCAB: arith.extsi %{{.*}} : tensor<2x3x1xi32> to tensor<2x3x1xi64>
// VOCAB: %[[MINE:.*]] = arith.andi
// VOCAB: %[[G:.*]] = "stablehlo.gather"(%arg1, {{.*}}slice_sizes = array<i64: 1, 8>}> : (tensor<8x8xf32>, tensor<2x3x1xi64>) -> tensor<2x3x8xf32>
// VOCAB: %[[M:.*]] = tensor.collapse_shape %[[MINE]] {{\[\[}}0], [1, 2]] : tensor<2x3x1xi1> into tensor<2x3xi1>
// VOCAB: %[[B:.*]] = linalg.broadcast ins(%[[M]] : tensor<2x3xi1>) outs(%{{.*}} : tensor<2x3x8xi1>) dimensions = [2]
// VOCAB: %[[Z:.*]] = arith.constant dense<-0.000000e+00> : tensor<2x3x8xf32>
// VOCAB: %[[S:.*]] = arith.select %[[B]], %[[G]], %[[Z]]
// VOCAB: mesh.all_reduce {{.*}} on @mesh mesh_axes = [1] : tensor<2x3x8xf32> -> tensor<2x3x8xf32>
// VOCAB-NOT: mesh.all_

// A vocabulary the devices do not divide (15 rows: pieces of 7 and 8) is
// looked up where it lies all the same: each device's first row and row
// count come from tables read at its place on the mesh, and the partial
// sums meet in one all_reduce; the table is not gathered.
// UNEVEN-LABEL: func.func public @main(
// UNEVEN-SAME: %arg1: tensor<?x8xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}1]], sharded_dims_offsets = [0, 7, 15]>}
// UNEVEN-NOT: mesh.all_gather
// UNEVEN: %[[AT:.*]] = mesh.process_multi_index on @mesh axes = [1] : index
// UNEVEN: %[[FIRSTS:.*]] = arith.constant dense<[0, 7]> : tensor<2xindex>
// UNEVEN: %[[FIRST:.*]] = tensor.extract %[[FIRSTS]][%[[AT]]]
// UNEVEN: %[[COUNTS:.*]] = arith.constant dense<[7, 8]> : tensor<2xindex>
// UNEVEN: %[[COUNT:.*]] = tensor.extract %[[COUNTS]][%[[AT]]]
// UNEVEN: %[[F:.*]] = arith.index_cast %[[FIRST]] : index to i64
// UNEVEN: %[[FS:.*]] = tensor.splat %[[F]] : tensor<2x3x1xi64>
// UNEVEN: %[[LOCAL:.*]] = arith.subi %{{.*}}, %[[FS]] : tensor<2x3x1xi64>
// UNEVEN: %[[N:.*]] = arith.index_cast %[[COUNT]] : index to i64
// UNEVEN: %[[NS:.*]] = tensor.splat %[[N]] : tensor<2x3x1xi64>
// UNEVEN: arith.cmpi slt, %[[LOCAL]], %[[NS]] : tensor<2x3x1xi64>
// UNEVEN: "stablehlo.gather"(%arg1, %[[LOCAL]]) {{.*}}slice_sizes = array<i64: 1, 8>}> : (tensor<?x8xf32>, tensor<2x3x1xi64>) -> tensor<2x3x8xf32>
// UNEVEN: mesh.all_reduce {{.*}} on @mesh mesh_axes = [1] : tensor<2x3x8xf32> -> tensor<2x3x8xf32>
// UNEVEN-NOT: mesh.all_
