// stablehlo.sort and chlo.top_k as JAX exports them (Inputs/export.py):
// jnp.sort along the rows, argsort along the columns and a median of a
// matrix split over both mesh axes; a mixture of experts' top-2 routing of
// tokens split over "data" to experts split over "model".  Each may split
// along the dimensions it does not sort or pick from, and gathers the one
// it does.
// RUN: mesh-opt --sharding-propagation --mesh-partition %S/Inputs/sort-2d.mlir -o %t.sort.mlir
// RUN: FileCheck %s --check-prefix=SORT < %t.sort.mlir
// RUN: mesh-run %t.sort.mlir --compare-with %S/Inputs/sort-2d.mlir -q --seed 1 | FileCheck %s
// RUN: mesh-opt --sharding-propagation --mesh-partition %S/Inputs/top-k-2d.mlir -o %t.top-k.mlir
// RUN: FileCheck %s --check-prefix=TOPK < %t.top-k.mlir
// RUN: mesh-run %t.top-k.mlir --compare-with %S/Inputs/top-k-2d.mlir -q --seed 2 | FileCheck %s
// CHECK: match

// The rows' sort and the argsort of the columns (with its iota) both read
// the matrix, and their results are returned whole: the matrix is gathered
// once for both, less than gathering each one's sorted dimension and then
// its result.  The median sorts the rows of the matrix with NaN rows
// masked (a bitwise_or all_reduce over the columns' split finds them): it
// keeps the rows split and gathers the columns only.
// SORT-LABEL: func.func public @main(
// SORT: mesh.all_gather %arg0 on @mesh mesh_axes = [0] gather_axis = 0 : tensor<4x8xf32> -> tensor<8x8xf32>
// SORT-NEXT: mesh.all_gather %{{.*}} on @mesh mesh_axes = [1] gather_axis = 1 : tensor<8x8xf32> -> tensor<8x16xf32>
// SORT-NEXT: "stablehlo.sort"
// SORT: }) : (tensor<8x16xf32>) -> tensor<8x16xf32>
// SORT-NOT: mesh.all_gather
// SORT: "stablehlo.sort"
// SORT: }) : (tensor<8x16xf32>, tensor<8x16xi32>) -> (tensor<8x16xf32>, tensor<8x16xi32>)
// SORT-NOT: mesh.all_gather
// SORT: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [1] reduction = <bitwise_or> : tensor<4xi1> -> tensor<4xi1>
// SORT-NOT: mesh.all_gather
// SORT: mesh.all_gather %{{.*}} on @mesh mesh_axes = [1] gather_axis = 1 : tensor<4x8xf32> -> tensor<4x16xf32>
// SORT-NEXT: "stablehlo.sort"
// SORT: }) : (tensor<4x16xf32>) -> tensor<4x16xf32>

// Each device routes its own tokens over every expert; the experts' split
// is summed once at the end.
// TOPK-LABEL: func.func public @main(
// TOPK-NOT: mesh.all_
// TOPK: "chlo.top_k"(%{{.*}}) <{k = 2 : i64}> : (tensor<8x4xf32>) -> (tensor<8x2xf32>, tensor<8x2xi32>)
// TOPK: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [1] : tensor<8x16xf32> -> tensor<8x16xf32>
// TOPK-NOT: mesh.all_
