// A histogram of bucket numbers a loop computes (a binary search of each
// element among sorted edges, JAX's `searchsorted`, then `one_hot` and a
// sum over the elements): the rows stay split through the loop and after
// it, and the counts are reduced once, where gathering the buckets before
// the one-hot (the plan while the solver's first start fixed the loop's
// carried bounds whole) moved 448 bytes a device.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f histogram -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f histogram -q --seed 2 | FileCheck %s
// RUN: mesh-opt --mesh-analysis %t.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=ANALYSIS
// CHECK: match

mesh.mesh @mesh(shape = 2x4)

// IR-LABEL: func.func @histogram(
// IR-SAME: %arg0: tensor<1x16xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0, 1]]>}
// IR: "stablehlo.while"
// IR-NOT: mesh.
// IR: %[[C:.*]] = "stablehlo.reduce"
// IR: }) : (tensor<1x16x10xi32>, tensor<i32>) -> tensor<10xi32>
// IR-NEXT: mesh.all_reduce %[[C]] on @mesh mesh_axes = [0, 1] : tensor<10xi32> -> tensor<10xi32>
// ANALYSIS-LABEL: @histogram on @mesh
// ANALYSIS: max all_reduce 1 72
func.func @histogram(%x: tensor<8x16xf32>, %edges: tensor<9xf32>) -> tensor<10xi32> {
  %rows = mesh.sharding @mesh split_axes = [[0, 1]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<8x16xf32>
  %zero = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %lo0 = "stablehlo.constant"() <{value = dense<0> : tensor<8x16xi32>}> : () -> tensor<8x16xi32>
  %hi0 = "stablehlo.constant"() <{value = dense<9> : tensor<8x16xi32>}> : () -> tensor<8x16xi32>
  %found:5 = "stablehlo.while"(%edges, %xs, %zero, %lo0, %hi0) ({
  ^bb0(%e: tensor<9xf32>, %v: tensor<8x16xf32>, %i: tensor<i32>, %lo: tensor<8x16xi32>, %hi: tensor<8x16xi32>):
    %trips = "stablehlo.constant"() <{value = dense<4> : tensor<i32>}> : () -> tensor<i32>
    %more = "stablehlo.compare"(%i, %trips) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.return"(%more) : (tensor<i1>) -> ()
  }, {
  ^bb0(%e: tensor<9xf32>, %v: tensor<8x16xf32>, %i: tensor<i32>, %lo: tensor<8x16xi32>, %hi: tensor<8x16xi32>):
    %sum = "stablehlo.add"(%lo, %hi) : (tensor<8x16xi32>, tensor<8x16xi32>) -> tensor<8x16xi32>
    %two = "stablehlo.constant"() <{value = dense<2> : tensor<8x16xi32>}> : () -> tensor<8x16xi32>
    %mid = "stablehlo.divide"(%sum, %two) : (tensor<8x16xi32>, tensor<8x16xi32>) -> tensor<8x16xi32>
    %at = "stablehlo.reshape"(%mid) : (tensor<8x16xi32>) -> tensor<8x16x1xi32>
    %edge = "stablehlo.gather"(%e, %at) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<9xf32>, tensor<8x16x1xi32>) -> tensor<8x16x1xf32>
    %edge2 = "stablehlo.reshape"(%edge) : (tensor<8x16x1xf32>) -> tensor<8x16xf32>
    %below = "stablehlo.compare"(%v, %edge2) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xi1>
    %lo2 = "stablehlo.select"(%below, %lo, %mid) : (tensor<8x16xi1>, tensor<8x16xi32>, tensor<8x16xi32>) -> tensor<8x16xi32>
    %hi2 = "stablehlo.select"(%below, %mid, %hi) : (tensor<8x16xi1>, tensor<8x16xi32>, tensor<8x16xi32>) -> tensor<8x16xi32>
    %one = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %next = "stablehlo.add"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%e, %v, %next, %lo2, %hi2) : (tensor<9xf32>, tensor<8x16xf32>, tensor<i32>, tensor<8x16xi32>, tensor<8x16xi32>) -> ()
  }) : (tensor<9xf32>, tensor<8x16xf32>, tensor<i32>, tensor<8x16xi32>, tensor<8x16xi32>) -> (tensor<9xf32>, tensor<8x16xf32>, tensor<i32>, tensor<8x16xi32>, tensor<8x16xi32>)
  %top = "stablehlo.constant"() <{value = dense<9> : tensor<8x16xi32>}> : () -> tensor<8x16xi32>
  %bucket = "stablehlo.minimum"(%found#4, %top) : (tensor<8x16xi32>, tensor<8x16xi32>) -> tensor<8x16xi32>
  %b3 = "stablehlo.reshape"(%bucket) : (tensor<8x16xi32>) -> tensor<8x16x1xi32>
  %ids = "stablehlo.iota"() <{iota_dimension = 2 : i64}> : () -> tensor<1x1x10xi32>
  %bw = "stablehlo.broadcast_in_dim"(%b3) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<8x16x1xi32>) -> tensor<8x16x10xi32>
  %iw = "stablehlo.broadcast_in_dim"(%ids) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x1x10xi32>) -> tensor<8x16x10xi32>
  %hit = "stablehlo.compare"(%bw, %iw) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8x16x10xi32>, tensor<8x16x10xi32>) -> tensor<8x16x10xi1>
  %ones = "stablehlo.convert"(%hit) : (tensor<8x16x10xi1>) -> tensor<8x16x10xi32>
  %counts = "stablehlo.reduce"(%ones, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%s) : (tensor<i32>) -> ()
  }) : (tensor<8x16x10xi32>, tensor<i32>) -> tensor<10xi32>
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %out = mesh.shard %counts to %whole annotate_for_users : tensor<10xi32>
  return %out : tensor<10xi32>
}
