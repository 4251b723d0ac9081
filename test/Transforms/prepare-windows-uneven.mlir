// prepare-windows{pad-uneven}: an hlo window op reading an annotation
// that cuts a dimension it slides along the way XLA cuts a size its devices
// do not divide (pieces of c rows, a shorter last one) runs on its input
// padded to c rows a piece, with the value its own padding holds, and its
// result is sliced back.  Each rewritten function computes what it did.
// RUN: mesh-opt --split-input-file --allow-unregistered-dialect --prepare-windows %s | FileCheck %s
// RUN: mesh-opt --split-input-file --allow-unregistered-dialect --pass-pipeline='builtin.module(prepare-windows{pad-uneven=false})' %s | FileCheck %s --check-prefix=OFF
// RUN: mesh-opt --split-input-file --allow-unregistered-dialect --prepare-windows %s -o %t.mlir
// RUN: mesh-run %t.mlir -f sum_pool --compare-with %s --seed 1 -q --rtol 0 --atol 0 --allow-unregistered-dialect | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f conv_mhlo --compare-with %s --seed 2 -q --rtol 0 --atol 0 --allow-unregistered-dialect | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f max_pool_init --compare-with %s --seed 3 -q --rtol 0 --atol 0 --allow-unregistered-dialect | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f left_alone_too --compare-with %s --seed 4 -q --rtol 0 --atol 0 --allow-unregistered-dialect | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f computed_input --compare-with %s --seed 5 -q --rtol 0 --atol 0 --allow-unregistered-dialect | FileCheck %s --check-prefix=SIM
// SIM: match

// A sum over 3 rows, same padding, of 10 rows cut 3, 3, 3, 1: padded with
// its init to 12, summed there, the first 10 rows kept.
// CHECK-LABEL: func.func @sum_pool
// CHECK:         %[[X:.*]] = mesh.shard %arg0 to %{{.*}} annotate_for_users : tensor<10x16xf32>
// CHECK:         %[[I:.*]] = "stablehlo.constant"
// CHECK:         %[[P:.*]] = "stablehlo.pad"(%[[X]], %[[I]]) {edge_padding_high = array<i64: 2, 0>, edge_padding_low = array<i64: 0, 0>, interior_padding = array<i64: 0, 0>} : (tensor<10x16xf32>, tensor<f32>) -> tensor<12x16xf32>
// CHECK:         %[[W:.*]] = "stablehlo.reduce_window"(%[[P]], %[[I]]) <{padding = dense<{{\[\[}}1, 1], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 1>}>
// CHECK:         }) : (tensor<12x16xf32>, tensor<f32>) -> tensor<12x16xf32>
// CHECK:         %[[S:.*]] = "stablehlo.slice"(%[[W]]) {limit_indices = array<i64: 10, 16>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>} : (tensor<12x16xf32>) -> tensor<10x16xf32>
// CHECK:         return %[[S]]
// OFF-LABEL:   func.func @sum_pool
// OFF-NOT:       stablehlo.pad
// OFF:           "stablehlo.reduce_window"(%{{.*}}, %{{.*}}) <{{.*}}> ({
// OFF:           }) : (tensor<10x16xf32>, tensor<f32>) -> tensor<10x16xf32>
mesh.mesh @mesh4(shape = 4)
func.func @sum_pool(%x: tensor<10x16xf32>) -> tensor<10x16xf32> {
  %s = mesh.sharding @mesh4 split_axes = [[0]] sharded_dims_offsets = [0, 3, 6, 9, 10] : !mesh.sharding
  %a = mesh.shard %x to %s annotate_for_users : tensor<10x16xf32>
  %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %r = "stablehlo.reduce_window"(%a, %z) <{padding = dense<[[1, 1], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %t = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%t) : (tensor<f32>) -> ()
  }) : (tensor<10x16xf32>, tensor<f32>) -> tensor<10x16xf32>
  return %r : tensor<10x16xf32>
}

// -----

// An mhlo convolution (its lists dense tensors) over 10 rows cut over 8
// devices 2 rows a piece, the last three empty: padded with zeros to 16,
// the pad and slice spelled as mhlo spells them.  The batch (2 over 2)
// divides and is left alone.
// CHECK-LABEL: func.func @conv_mhlo
// CHECK:         %[[X:.*]] = mesh.shard %arg0 to %{{.*}} annotate_for_users : tensor<2x10x4xf32>
// CHECK:         %[[Z:.*]] = "mhlo.constant"() {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
// CHECK:         %[[P:.*]] = "mhlo.pad"(%[[X]], %[[Z]]) {edge_padding_high = dense<[0, 6, 0]> : tensor<3xi64>, edge_padding_low = dense<0> : tensor<3xi64>, interior_padding = dense<0> : tensor<3xi64>} : (tensor<2x10x4xf32>, tensor<f32>) -> tensor<2x16x4xf32>
// CHECK:         %[[C:.*]] = "mhlo.convolution"(%[[P]], %arg1) {{.*}} : (tensor<2x16x4xf32>, tensor<3x4x5xf32>) -> tensor<2x16x5xf32>
// CHECK:         %[[S:.*]] = "mhlo.slice"(%[[C]]) {limit_indices = dense<[2, 10, 5]> : tensor<3xi64>, start_indices = dense<0> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>} : (tensor<2x16x5xf32>) -> tensor<2x10x5xf32>
// CHECK:         return %[[S]]
mesh.mesh @mesh16(shape = 2x8)
func.func @conv_mhlo(%x: tensor<2x10x4xf32>, %k: tensor<3x4x5xf32>) -> tensor<2x10x5xf32> {
  %s = mesh.sharding @mesh16 split_axes = [[0], [1]] sharded_dims_offsets = [0, 1, 2, 0, 2, 4, 6, 8, 10, 10, 10, 10] : !mesh.sharding
  %a = mesh.shard %x to %s annotate_for_users : tensor<2x10x4xf32>
  %y = "mhlo.convolution"(%a, %k) {dimension_numbers = #mhlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64, padding = dense<[[0, 2]]> : tensor<1x2xi64>, window_strides = dense<1> : tensor<1xi64>} : (tensor<2x10x4xf32>, tensor<3x4x5xf32>) -> tensor<2x10x5xf32>
  return %y : tensor<2x10x5xf32>
}

// -----

// A max pool whose init (0) is no identity of max: the padding holds the
// init, so the pad does too, and the rows past the program's end read it
// as before.
// CHECK-LABEL: func.func @max_pool_init
// CHECK:         %[[Z:.*]] = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}>
// CHECK:         "stablehlo.pad"(%{{.*}}, %[[Z]]) {edge_padding_high = array<i64: 0, 1>
// CHECK:         "stablehlo.reduce_window"
// CHECK:         }) : (tensor<3x8xf32>, tensor<f32>) -> tensor<3x8xf32>
// CHECK:         "stablehlo.slice"
mesh.mesh @mesh8(shape = 2x4)
func.func @max_pool_init(%x: tensor<3x7xf32>) -> tensor<3x7xf32> {
  %s = mesh.sharding @mesh8 split_axes = [[], [1]] sharded_dims_offsets = [0, 2, 4, 6, 7] : !mesh.sharding
  %a = mesh.shard %x to %s annotate_for_users : tensor<3x7xf32>
  %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %r = "stablehlo.reduce_window"(%a, %z) <{padding = dense<[[0, 0], [0, 2]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 3>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %t = "stablehlo.maximum"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%t) : (tensor<f32>) -> ()
  }) : (tensor<3x7xf32>, tensor<f32>) -> tensor<3x7xf32>
  return %r : tensor<3x7xf32>
}

// -----

// Left as they are: a window moving 2 rows at a time, one that shrinks the
// dimension (no padding), a cut that is not XLA's (2, 2, 3, 3: the pieces
// would move rows to grow to 3 each), the default cut (no offsets), and a
// dimension the pieces divide.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     "stablehlo.pad"
// CHECK:         {{^ *}}return %
mesh.mesh @mesh4b(shape = 4)
func.func @left_alone(%x: tensor<10x8xf32>) -> (tensor<5x8xf32>, tensor<8x8xf32>, tensor<10x8xf32>, tensor<10x8xf32>, tensor<10x8xf32>) {
  %xla = mesh.sharding @mesh4b split_axes = [[0]] sharded_dims_offsets = [0, 3, 6, 9, 10] : !mesh.sharding
  %balanced = mesh.sharding @mesh4b split_axes = [[0]] sharded_dims_offsets = [0, 2, 4, 7, 10] : !mesh.sharding
  %default = mesh.sharding @mesh4b split_axes = [[0]] : !mesh.sharding
  %cols = mesh.sharding @mesh4b split_axes = [[], [0]] sharded_dims_offsets = [0, 2, 4, 6, 8] : !mesh.sharding
  %a = mesh.shard %x to %xla annotate_for_users : tensor<10x8xf32>
  %b = mesh.shard %x to %balanced annotate_for_users : tensor<10x8xf32>
  %c = mesh.shard %x to %default annotate_for_users : tensor<10x8xf32>
  %d = mesh.shard %x to %cols annotate_for_users : tensor<10x8xf32>
  %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %strided = "stablehlo.reduce_window"(%a, %z) <{padding = dense<[[0, 1], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 2, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %t = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%t) : (tensor<f32>) -> ()
  }) : (tensor<10x8xf32>, tensor<f32>) -> tensor<5x8xf32>
  %valid = "stablehlo.reduce_window"(%a, %z) <{window_dimensions = array<i64: 3, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %t = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%t) : (tensor<f32>) -> ()
  }) : (tensor<10x8xf32>, tensor<f32>) -> tensor<8x8xf32>
  %other = "stablehlo.reduce_window"(%b, %z) <{padding = dense<[[1, 1], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %t = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%t) : (tensor<f32>) -> ()
  }) : (tensor<10x8xf32>, tensor<f32>) -> tensor<10x8xf32>
  %plain = "stablehlo.reduce_window"(%c, %z) <{padding = dense<[[1, 1], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %t = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%t) : (tensor<f32>) -> ()
  }) : (tensor<10x8xf32>, tensor<f32>) -> tensor<10x8xf32>
  %even = "stablehlo.reduce_window"(%d, %z) <{padding = dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 3>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %t = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%t) : (tensor<f32>) -> ()
  }) : (tensor<10x8xf32>, tensor<f32>) -> tensor<10x8xf32>
  return %strided, %valid, %other, %plain, %even : tensor<5x8xf32>, tensor<8x8xf32>, tensor<10x8xf32>, tensor<10x8xf32>, tensor<10x8xf32>
}

// -----

// Left as they are too (found by helper-192's review): a bf16 sum whose
// init and result are f32 (a bf16 pad would round the init), a cut of
// pieces wider than XLA's (4, 4, 2, 0 of 10: padding to 16 moves more
// than it saves), and one value two window ops read (each padded alone
// would exchange its own halos, where one reshard serves both).
// CHECK-LABEL: func.func @left_alone_too
// CHECK-NOT:     "stablehlo.pad"
// CHECK:         {{^ *}}return %
mesh.mesh @mesh4c(shape = 4)
func.func @left_alone_too(%x: tensor<10x4xbf16>, %y: tensor<10x4xf32>, %v: tensor<1x10x4xf32>, %k: tensor<3x4x4xf32>) -> (tensor<10x4xf32>, tensor<10x4xf32>, tensor<1x10x4xf32>, tensor<1x10x4xf32>) {
  %xla = mesh.sharding @mesh4c split_axes = [[0]] sharded_dims_offsets = [0, 3, 6, 9, 10] : !mesh.sharding
  %wide = mesh.sharding @mesh4c split_axes = [[0]] sharded_dims_offsets = [0, 4, 8, 10, 10] : !mesh.sharding
  %rows = mesh.sharding @mesh4c split_axes = [[], [0]] sharded_dims_offsets = [0, 3, 6, 9, 10] : !mesh.sharding
  %a = mesh.shard %x to %xla annotate_for_users : tensor<10x4xbf16>
  %b = mesh.shard %y to %wide annotate_for_users : tensor<10x4xf32>
  %c = mesh.shard %v to %rows annotate_for_users : tensor<1x10x4xf32>
  %z = "stablehlo.constant"() <{value = dense<0.5> : tensor<f32>}> : () -> tensor<f32>
  %promoted = "stablehlo.reduce_window"(%a, %z) <{padding = dense<[[1, 1], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %t = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%t) : (tensor<f32>) -> ()
  }) : (tensor<10x4xbf16>, tensor<f32>) -> tensor<10x4xf32>
  %wider = "stablehlo.reduce_window"(%b, %z) <{padding = dense<[[1, 1], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %t = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%t) : (tensor<f32>) -> ()
  }) : (tensor<10x4xf32>, tensor<f32>) -> tensor<10x4xf32>
  %pooled = "stablehlo.reduce_window"(%c, %z) <{padding = dense<[[0, 0], [1, 1], [0, 0]]> : tensor<3x2xi64>, window_dimensions = array<i64: 1, 3, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %t = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%t) : (tensor<f32>) -> ()
  }) : (tensor<1x10x4xf32>, tensor<f32>) -> tensor<1x10x4xf32>
  %conv = "stablehlo.convolution"(%c, %k) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, padding = dense<1> : tensor<1x2xi64>}> : (tensor<1x10x4xf32>, tensor<3x4x4xf32>) -> tensor<1x10x4xf32>
  return %promoted, %wider, %pooled, %conv : tensor<10x4xf32>, tensor<10x4xf32>, tensor<1x10x4xf32>, tensor<1x10x4xf32>
}

// -----

// A window op reading a value computed from annotated ones (a pooling of
// a sum, as JAX writes `pool(h) + h` into a convolution) takes the one
// uneven XLA cut the function's annotations give its size; where they
// give that size two cuts (10 over one axis of a 2x4 mesh, 3, 3, 3, 1, and
// over both, 2 a piece), the op is left alone.
// CHECK-LABEL: func.func @computed_input
// CHECK:         %[[S:.*]] = "stablehlo.negate"
// CHECK:         "stablehlo.pad"(%[[S]], %{{.*}}) {edge_padding_high = array<i64: 2, 0>
// CHECK:         "stablehlo.reduce_window"
// CHECK:         }) : (tensor<12x4xf32>, tensor<f32>) -> tensor<12x4xf32>
// CHECK-LABEL: func.func @two_cuts_of_one_size
// CHECK-NOT:     "stablehlo.pad"
// CHECK:         {{^ *}}return %
mesh.mesh @mesh8b(shape = 2x4)
func.func @computed_input(%x: tensor<10x4xf32>) -> tensor<10x4xf32> {
  %s = mesh.sharding @mesh8b split_axes = [[1]] sharded_dims_offsets = [0, 3, 6, 9, 10] : !mesh.sharding
  %a = mesh.shard %x to %s annotate_for_users : tensor<10x4xf32>
  %n = "stablehlo.negate"(%a) : (tensor<10x4xf32>) -> tensor<10x4xf32>
  %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %r = "stablehlo.reduce_window"(%n, %z) <{padding = dense<[[1, 1], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %t = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%t) : (tensor<f32>) -> ()
  }) : (tensor<10x4xf32>, tensor<f32>) -> tensor<10x4xf32>
  return %r : tensor<10x4xf32>
}
func.func @two_cuts_of_one_size(%x: tensor<10x4xf32>, %y: tensor<10x4xf32>) -> tensor<10x4xf32> {
  %s = mesh.sharding @mesh8b split_axes = [[1]] sharded_dims_offsets = [0, 3, 6, 9, 10] : !mesh.sharding
  %t8 = mesh.sharding @mesh8b split_axes = [[0, 1]] sharded_dims_offsets = [0, 2, 4, 6, 8, 10, 10, 10, 10] : !mesh.sharding
  %a = mesh.shard %x to %s annotate_for_users : tensor<10x4xf32>
  %b = mesh.shard %y to %t8 annotate_for_users : tensor<10x4xf32>
  %n = "stablehlo.add"(%a, %b) : (tensor<10x4xf32>, tensor<10x4xf32>) -> tensor<10x4xf32>
  %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %r = "stablehlo.reduce_window"(%n, %z) <{padding = dense<[[1, 1], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 1>}> ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %t = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%t) : (tensor<f32>) -> ()
  }) : (tensor<10x4xf32>, tensor<f32>) -> tensor<10x4xf32>
  return %r : tensor<10x4xf32>
}
