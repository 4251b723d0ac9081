// Hlo ops on pieces of different sizes: 8 rows over 3 devices are cut 2, 3,
// 3. Elementwise ops, reduce, transpose, dot_general and a broadcast_in_dim
// along its operand's dimension run on such pieces, typed dynamic along the
// cut (an operand gives each size), so a softmax or a matmul over rows the
// mesh does not divide moves nothing; a contraction cut so sums its partial
// results once. A broadcast's new dimension cannot be typed on such pieces:
// the broadcast stays whole and each device slices its rows. An argmax
// runs on uneven rows, but not along a dimension it picks along cut so: its
// axis moves to the rows (one all_to_all, 48 bytes a device, where
// gathering the columns took 144), and each device picks along whole
// rows of its own. Each function is simulated against the
// unpartitioned program.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir -f exp_sum --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f exp_sum --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f softmax --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f softmax --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f dot_transpose --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f dot_transpose --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f contract --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f contract --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f new_dim --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f new_dim --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f argmax_rows --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f argmax_rows --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir -f argmax_cols --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f argmax_cols --compare-with %s -q --seed 2 | FileCheck %s
// CHECK: match

// IR-LABEL: func.func @exp_sum(
// IR-SAME: tensor<?x6xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]], sharded_dims_offsets = [0, 2, 5, 8]>}
// IR-NEXT: "stablehlo.exponential"(%arg0) : (tensor<?x6xf32>) -> tensor<?x6xf32>
// IR: }) : (tensor<?x6xf32>, tensor<f32>) -> tensor<?xf32>
// IR-NEXT: return %{{.*}} : tensor<?xf32>

// IR-LABEL: func.func @softmax(
// IR-NOT: mesh.all
// IR: "stablehlo.broadcast_in_dim"(%{{.*}}) <{broadcast_dimensions = array<i64: 0>}> : (tensor<?xf32>) -> tensor<?x6xf32>
// IR-NEXT: "stablehlo.subtract"(%arg0, %{{.*}}) : (tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<?x6xf32>
// IR-NOT: mesh.all
// IR: "stablehlo.divide"(%{{.*}}, %{{.*}}) : (tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<?x6xf32>
// IR-NEXT: return

// IR-LABEL: func.func @dot_transpose(
// IR-SAME: -> (tensor<4x?xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}], [0]], sharded_dims_offsets = [0, 2, 5, 8]>})
// IR-NEXT: "stablehlo.dot_general"(%arg0, %arg1) {{.*}} : (tensor<?x6xf32>, tensor<6x4xf32>) -> tensor<?x4xf32>
// IR-NEXT: "stablehlo.transpose"(%{{.*}}) <{permutation = array<i64: 1, 0>}> : (tensor<?x4xf32>) -> tensor<4x?xf32>
// IR-NEXT: return

// IR-LABEL: func.func @contract(
// IR-NEXT: "mhlo.dot_general"(%arg0, %arg1) {{.*}} : (tensor<4x?xf32>, tensor<?x5xf32>) -> tensor<4x5xf32>
// IR-NEXT: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0] : tensor<4x5xf32> -> tensor<4x5xf32>
// IR-NEXT: "mhlo.cosine"

// IR-LABEL: func.func @new_dim(
// IR-NEXT: "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64: 1>}> : (tensor<6xf32>) -> tensor<8x6xf32>
// IR-NOT: mesh.all
// IR: tensor.extract_slice %{{.*}} : tensor<8x6xf32> to tensor<?x6xf32>
// IR-NEXT: "stablehlo.multiply"(%{{.*}}, %arg1) : (tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<?x6xf32>

// IR-LABEL: func.func @argmax_rows(
// IR-NOT: mesh.all
// IR: }) : (tensor<?x6xf32>, tensor<?x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<?xf32>, tensor<?xi32>)

// IR-LABEL: func.func @argmax_cols(
// IR-NOT: mesh.all_gather
// IR: mesh.all_to_all %{{.*}} on @mesh mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<6x3xf32> -> tensor<2x9xf32>
// IR-NOT: mesh.all_gather
// IR: }) : (tensor<2x8xf32>, tensor<2x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
// IR: return %{{.*}} : tensor<2xi32>

mesh.mesh @mesh(shape = 3)

func.func @exp_sum(%x: tensor<8x6xf32>) -> tensor<8xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<8x6xf32>
  %e = "stablehlo.exponential"(%xs) : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %r = "stablehlo.reduce"(%e, %z) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%t) : (tensor<f32>) -> ()
  }) : (tensor<8x6xf32>, tensor<f32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

func.func @softmax(%x: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<8x6xf32>
  %ninf = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
  %m = "stablehlo.reduce"(%xs, %ninf) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%t) : (tensor<f32>) -> ()
  }) : (tensor<8x6xf32>, tensor<f32>) -> tensor<8xf32>
  %mb = "stablehlo.broadcast_in_dim"(%m) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x6xf32>
  %d = "stablehlo.subtract"(%xs, %mb) : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
  %e = "stablehlo.exponential"(%d) : (tensor<8x6xf32>) -> tensor<8x6xf32>
  %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %s = "stablehlo.reduce"(%e, %z) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%t) : (tensor<f32>) -> ()
  }) : (tensor<8x6xf32>, tensor<f32>) -> tensor<8xf32>
  %sb = "stablehlo.broadcast_in_dim"(%s) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x6xf32>
  %y = "stablehlo.divide"(%e, %sb) : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
  return %y : tensor<8x6xf32>
}

func.func @dot_transpose(%x: tensor<8x6xf32>, %w: tensor<6x4xf32>) -> tensor<4x8xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<8x6xf32>
  %y = "stablehlo.dot_general"(%xs, %w) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<8x6xf32>, tensor<6x4xf32>) -> tensor<8x4xf32>
  %t = "stablehlo.transpose"(%y) <{permutation = array<i64: 1, 0>}> : (tensor<8x4xf32>) -> tensor<4x8xf32>
  return %t : tensor<4x8xf32>
}

func.func @contract(%x: tensor<4x8xf32>, %w: tensor<8x5xf32>) -> tensor<4x5xf32> {
  %cols = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %cols : tensor<4x8xf32>
  %ws = mesh.shard %w to %rows : tensor<8x5xf32>
  %y = "mhlo.dot_general"(%xs, %ws) <{dot_dimension_numbers = #mhlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<4x8xf32>, tensor<8x5xf32>) -> tensor<4x5xf32>
  %c = "mhlo.cosine"(%y) : (tensor<4x5xf32>) -> tensor<4x5xf32>
  return %c : tensor<4x5xf32>
}

func.func @new_dim(%v: tensor<6xf32>, %x: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %b = "stablehlo.broadcast_in_dim"(%v) <{broadcast_dimensions = array<i64: 1>}> : (tensor<6xf32>) -> tensor<8x6xf32>
  %bs = mesh.shard %b to %rows : tensor<8x6xf32>
  %xs = mesh.shard %x to %rows : tensor<8x6xf32>
  %y = "stablehlo.multiply"(%bs, %xs) : (tensor<8x6xf32>, tensor<8x6xf32>) -> tensor<8x6xf32>
  return %y : tensor<8x6xf32>
}

func.func @argmax_rows(%x: tensor<8x6xf32>) -> tensor<8xi32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<8x6xf32>
  %i = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<8x6xi32>
  %ninf = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
  %zero = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %r:2 = "stablehlo.reduce"(%xs, %i, %ninf, %zero) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %gt = "stablehlo.compare"(%a, %b) <{comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %nan = "stablehlo.compare"(%a, %a) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %p = "stablehlo.or"(%gt, %nan) : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %eq = "stablehlo.compare"(%a, %b) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %lt = "stablehlo.compare"(%ai, %bi) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %tie = "stablehlo.and"(%eq, %lt) : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %q = "stablehlo.or"(%p, %tie) : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %v = "stablehlo.select"(%p, %a, %b) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %vi = "stablehlo.select"(%q, %ai, %bi) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%v, %vi) : (tensor<f32>, tensor<i32>) -> ()
  }) : (tensor<8x6xf32>, tensor<8x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)
  return %r#1 : tensor<8xi32>
}

func.func @argmax_cols(%x: tensor<6x8xf32>) -> tensor<6xi32> {
  %cols = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %xs = mesh.shard %x to %cols : tensor<6x8xf32>
  %i = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<6x8xi32>
  %ninf = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
  %zero = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %r:2 = "stablehlo.reduce"(%xs, %i, %ninf, %zero) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %gt = "stablehlo.compare"(%a, %b) <{comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %nan = "stablehlo.compare"(%a, %a) <{comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %p = "stablehlo.or"(%gt, %nan) : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %eq = "stablehlo.compare"(%a, %b) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %lt = "stablehlo.compare"(%ai, %bi) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %tie = "stablehlo.and"(%eq, %lt) : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %q = "stablehlo.or"(%p, %tie) : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %v = "stablehlo.select"(%p, %a, %b) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %vi = "stablehlo.select"(%q, %ai, %bi) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%v, %vi) : (tensor<f32>, tensor<i32>) -> ()
  }) : (tensor<6x8xf32>, tensor<6x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<6xf32>, tensor<6xi32>)
  return %r#1 : tensor<6xi32>
}
