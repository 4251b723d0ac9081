// A value annotated split whose producer is a fill of a fresh init, an empty
// or a splat constant is made again whole (or in any layout) by partition
// instead of being gathered: the cost solver prices that change of layout at
// nothing, so the matmuls below run on rows and move nothing.  A fill whose
// pieces differ in size is moved, not made again: it stays priced.
// RUN: mesh-opt --sharding-propagation %s | FileCheck %s --check-prefix=PROP
// RUN: mesh-opt --pass-pipeline='builtin.module(sharding-propagation{explain=true})' %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir --function split_fill_zero_init --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --function split_fill_2d --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --function fill_for_users --compare-with %s -q --seed 3 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --function generic_fill --compare-with %s -q --seed 4 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --function split_splat --compare-with %s -q --seed 5 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --function fill_in_loop --compare-with %s -q --seed 6 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --function uneven_fill --compare-with %s -q --seed 7 | FileCheck %s --check-prefix=SIM
// SIM: match

#fill = affine_map<(i, j) -> ()>
#id = affine_map<(i, j) -> (i, j)>
mesh.mesh @mesh(shape = 4)
mesh.mesh @mesh2(shape = 2x2)

// x stays row-split, the matmul runs on rows and reads the fill whole, which
// partition makes whole (the split fill it annotated is then unused).  Its
// init is an empty, so the result is not simulated (see the next function).
// EXPLAIN: remark: operand 1 of 'linalg.matmul' is resharded from @mesh split_axes = {{\[\[}}0]] (annotated at {{.*}}) to @mesh split_axes = {{\[\[}}]]: 0 bytes received per device each time;
// PROP-LABEL: func.func @split_fill(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
// PROP-NEXT: %[[ROWS:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}0]] : !mesh.sharding
// PROP-NEXT: %[[WHOLE:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}]] : !mesh.sharding
// PROP-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// PROP-NEXT: %[[E:.*]] = tensor.empty() : tensor<16x16xf32>
// PROP-NEXT: %[[EROWS:.*]] = mesh.shard %[[E]] to %[[ROWS]] annotate_for_users : tensor<16x16xf32>
// PROP-NEXT: %[[F:.*]] = linalg.fill {mesh.sharding_option = #mesh.sharding<@mesh, {{\[\[}}0]]>} ins(%[[ONE]] : f32) outs(%[[EROWS]] : tensor<16x16xf32>) -> tensor<16x16xf32>
// PROP-NEXT: %[[S:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}0]] : !mesh.sharding
// PROP-NEXT: %[[FS:.*]] = mesh.shard %[[F]] to %[[S]] : tensor<16x16xf32>
// PROP-NEXT: %[[XS:.*]] = mesh.shard %arg0 to %[[S]] : tensor<8x16xf32>
// PROP-NEXT: %[[E2:.*]] = tensor.empty() : tensor<8x16xf32>
// PROP-NEXT: %[[FWHOLE:.*]] = mesh.shard %[[FS]] to %[[WHOLE]] annotate_for_users : tensor<16x16xf32>
// PROP-NEXT: %[[E2ROWS:.*]] = mesh.shard %[[E2]] to %[[ROWS]] annotate_for_users : tensor<8x16xf32>
// PROP-NEXT: %[[R:.*]] = linalg.matmul {mesh.sharding_option = #mesh.sharding<@mesh, {{\[\[}}0]]>} ins(%[[XS]], %[[FWHOLE]] : tensor<8x16xf32>, tensor<16x16xf32>) outs(%[[E2ROWS]] : tensor<8x16xf32>) -> tensor<8x16xf32>
// PROP-NEXT: %[[RS:.*]] = mesh.shard %[[R]] to %[[ROWS]] : tensor<8x16xf32>
// PROP-NEXT: return %[[RS]] : tensor<8x16xf32>
// PROP-NEXT: }
// CHECK-LABEL: func.func @split_fill(%arg0: tensor<2x16xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>}) -> (tensor<2x16xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>}) {
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<16x16xf32>
// CHECK-NEXT: %[[F:.*]] = linalg.fill ins(%[[ONE]] : f32) outs(%[[E]] : tensor<16x16xf32>) -> tensor<16x16xf32>
// CHECK-NEXT: %[[E2:.*]] = tensor.empty() : tensor<2x16xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.matmul ins(%arg0, %[[F]] : tensor<2x16xf32>, tensor<16x16xf32>) outs(%[[E2]] : tensor<2x16xf32>) -> tensor<2x16xf32>
// CHECK-NEXT: return %[[R]] : tensor<2x16xf32>
// CHECK-NEXT: }
func.func @split_fill(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<16x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %fs = mesh.shard %f to %s : tensor<16x16xf32>
  %xs = mesh.shard %x to %s : tensor<8x16xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %r = linalg.matmul ins(%xs, %fs : tensor<8x16xf32>, tensor<16x16xf32>) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// The same with a zeroed init, simulated.
// CHECK-LABEL: func.func @split_fill_zero_init(%arg0: tensor<2x16xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>}) -> (tensor<2x16xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>}) {
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<16x16xf32>
// CHECK-NEXT: %[[F:.*]] = linalg.fill ins(%[[ONE]] : f32) outs(%[[E]] : tensor<16x16xf32>) -> tensor<16x16xf32>
// CHECK-NEXT: %[[E2:.*]] = tensor.empty() : tensor<2x16xf32>
// CHECK-NEXT: %[[Z:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E2]] : tensor<2x16xf32>) -> tensor<2x16xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.matmul ins(%arg0, %[[F]] : tensor<2x16xf32>, tensor<16x16xf32>) outs(%[[Z]] : tensor<2x16xf32>) -> tensor<2x16xf32>
// CHECK-NEXT: return %[[R]] : tensor<2x16xf32>
// CHECK-NEXT: }
func.func @split_fill_zero_init(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x16xf32>
  %f = linalg.fill ins(%one : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %fs = mesh.shard %f to %s : tensor<16x16xf32>
  %xs = mesh.shard %x to %s : tensor<8x16xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = linalg.matmul ins(%xs, %fs : tensor<8x16xf32>, tensor<16x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// 2-D mesh: x keeps its rows over axis 0 and columns over axis 1, the
// matmul splits its reduction over axis 1 and reads the fill's rows over
// axis 1, made so from the fill annotated over both axes (a partial result,
// as annotated nowhere: nothing moves).
// PROP-LABEL: func.func @split_fill_2d(
// PROP: linalg.matmul {mesh.sharding_option = #mesh.sharding<@mesh2, {{\[\[}}0], [], [1]]>}
// CHECK-LABEL: func.func @split_fill_2d(%arg0: tensor<4x8xf32> {mesh.sharding = #mesh.sharding<@mesh2, {{\[\[}}0], [1]]>}) -> (tensor<4x16xf32> {mesh.sharding = #mesh.sharding<@mesh2, {{\[\[}}0]], partial = sum [1]>}) {
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<8x16xf32>
// CHECK-NEXT: %[[F:.*]] = linalg.fill ins(%[[ONE]] : f32) outs(%[[E]] : tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: %[[E2:.*]] = tensor.empty() : tensor<4x16xf32>
// CHECK-NEXT: %[[Z:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E2]] : tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.matmul ins(%arg0, %[[F]] : tensor<4x8xf32>, tensor<8x16xf32>) outs(%[[Z]] : tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: return %[[R]] : tensor<4x16xf32>
// CHECK-NEXT: }
func.func @split_fill_2d(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x16xf32>
  %f = linalg.fill ins(%one : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %sf = mesh.sharding @mesh2 split_axes = [[0, 1]] : !mesh.sharding
  %fs = mesh.shard %f to %sf : tensor<16x16xf32>
  %sx = mesh.sharding @mesh2 split_axes = [[0], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %sx : tensor<8x16xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = linalg.matmul ins(%xs, %fs : tensor<8x16xf32>, tensor<16x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// An unannotated fill (whole) annotated split for its users: the
// annotation's value is a fill made split, which partition makes whole again.
// PROP-LABEL: func.func @fill_for_users(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
// PROP-NEXT: %[[ROWS:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}0]] : !mesh.sharding
// PROP-NEXT: %[[WHOLE:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}]] : !mesh.sharding
// PROP-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// PROP-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// PROP-NEXT: %[[E:.*]] = tensor.empty() : tensor<16x16xf32>
// PROP-NEXT: %[[F:.*]] = linalg.fill ins(%[[ONE]] : f32) outs(%[[E]] : tensor<16x16xf32>) -> tensor<16x16xf32>
// PROP-NEXT: %[[S:.*]] = mesh.sharding @mesh split_axes = {{\[\[}}0]] : !mesh.sharding
// PROP-NEXT: %[[FS:.*]] = mesh.shard %[[F]] to %[[S]] annotate_for_users : tensor<16x16xf32>
// PROP-NEXT: %[[XS:.*]] = mesh.shard %arg0 to %[[S]] : tensor<8x16xf32>
// PROP-NEXT: %[[E2:.*]] = tensor.empty() : tensor<8x16xf32>
// PROP-NEXT: %[[Z:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E2]] : tensor<8x16xf32>) -> tensor<8x16xf32>
// PROP-NEXT: %[[FWHOLE:.*]] = mesh.shard %[[FS]] to %[[WHOLE]] annotate_for_users : tensor<16x16xf32>
// PROP-NEXT: %[[ZROWS:.*]] = mesh.shard %[[Z]] to %[[ROWS]] annotate_for_users : tensor<8x16xf32>
// PROP-NEXT: %[[R:.*]] = linalg.matmul {mesh.sharding_option = #mesh.sharding<@mesh, {{\[\[}}0]]>} ins(%[[XS]], %[[FWHOLE]] : tensor<8x16xf32>, tensor<16x16xf32>) outs(%[[ZROWS]] : tensor<8x16xf32>) -> tensor<8x16xf32>
// PROP-NEXT: %[[RS:.*]] = mesh.shard %[[R]] to %[[ROWS]] : tensor<8x16xf32>
// PROP-NEXT: return %[[RS]] : tensor<8x16xf32>
// PROP-NEXT: }
// CHECK-LABEL: func.func @fill_for_users(%arg0: tensor<2x16xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>}) -> (tensor<2x16xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>}) {
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<16x16xf32>
// CHECK-NEXT: %[[F:.*]] = linalg.fill ins(%[[ONE]] : f32) outs(%[[E]] : tensor<16x16xf32>) -> tensor<16x16xf32>
// CHECK-NEXT: %[[E2:.*]] = tensor.empty() : tensor<2x16xf32>
// CHECK-NEXT: %[[Z:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E2]] : tensor<2x16xf32>) -> tensor<2x16xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.matmul ins(%arg0, %[[F]] : tensor<2x16xf32>, tensor<16x16xf32>) outs(%[[Z]] : tensor<2x16xf32>) -> tensor<2x16xf32>
// CHECK-NEXT: return %[[R]] : tensor<2x16xf32>
// CHECK-NEXT: }
func.func @fill_for_users(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x16xf32>
  %f = linalg.fill ins(%one : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %fs = mesh.shard %f to %s annotate_for_users : tensor<16x16xf32>
  %xs = mesh.shard %x to %s : tensor<8x16xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = linalg.matmul ins(%xs, %fs : tensor<8x16xf32>, tensor<16x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// A fill written as a linalg.generic (as linalg-generalize-named-ops makes it).
// CHECK-LABEL: func.func @generic_fill(%arg0: tensor<2x16xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>}) -> (tensor<2x16xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>}) {
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<16x16xf32>
// CHECK-NEXT: %[[F:.*]] = linalg.generic {{.*}} ins(%[[ONE]] : f32) outs(%[[E]] : tensor<16x16xf32>) {
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[IN]] : f32
// CHECK-NEXT: } -> tensor<16x16xf32>
// CHECK-NEXT: %[[E2:.*]] = tensor.empty() : tensor<2x16xf32>
// CHECK-NEXT: %[[Z:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E2]] : tensor<2x16xf32>) -> tensor<2x16xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.matmul ins(%arg0, %[[F]] : tensor<2x16xf32>, tensor<16x16xf32>) outs(%[[Z]] : tensor<2x16xf32>) -> tensor<2x16xf32>
// CHECK-NEXT: return %[[R]] : tensor<2x16xf32>
// CHECK-NEXT: }
func.func @generic_fill(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x16xf32>
  %f = linalg.generic {indexing_maps = [#fill, #id], iterator_types = ["parallel", "parallel"]} ins(%one : f32) outs(%e : tensor<16x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<16x16xf32>
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %fs = mesh.shard %f to %s : tensor<16x16xf32>
  %xs = mesh.shard %x to %s : tensor<8x16xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = linalg.matmul ins(%xs, %fs : tensor<8x16xf32>, tensor<16x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// A splat constant annotated split is made whole again as a constant.
// CHECK-LABEL: func.func @split_splat(%arg0: tensor<2x16xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>}) -> (tensor<2x16xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>}) {
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[W:.*]] = arith.constant dense<5.000000e-01> : tensor<16x16xf32>
// CHECK-NEXT: %[[E2:.*]] = tensor.empty() : tensor<2x16xf32>
// CHECK-NEXT: %[[Z:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E2]] : tensor<2x16xf32>) -> tensor<2x16xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.matmul ins(%arg0, %[[W]] : tensor<2x16xf32>, tensor<16x16xf32>) outs(%[[Z]] : tensor<2x16xf32>) -> tensor<2x16xf32>
// CHECK-NEXT: return %[[R]] : tensor<2x16xf32>
// CHECK-NEXT: }
func.func @split_splat(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.5> : tensor<16x16xf32>
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %ws = mesh.shard %w to %s : tensor<16x16xf32>
  %xs = mesh.shard %x to %s : tensor<8x16xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = linalg.matmul ins(%xs, %ws : tensor<8x16xf32>, tensor<16x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// A fill made in a loop's body, read whole each iteration: made whole there
// (the reduction split over the fill's rows cost a reduce_scatter per trip).
// CHECK-LABEL: func.func @fill_in_loop(%arg0: tensor<2x16xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>}) -> (tensor<2x16xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>}) {
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[C10:.*]] = arith.constant 10 : index
// CHECK-NEXT: %[[LOOP:.*]] = scf.for %{{.*}} = %[[C0]] to %[[C10]] step %[[C1]] iter_args(%[[ACC:.*]] = %arg0) -> (tensor<2x16xf32>) {
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<16x16xf32>
// CHECK-NEXT: %[[F:.*]] = linalg.fill ins(%[[ONE]] : f32) outs(%[[E]] : tensor<16x16xf32>) -> tensor<16x16xf32>
// CHECK-NEXT: %[[E2:.*]] = tensor.empty() : tensor<2x16xf32>
// CHECK-NEXT: %[[Z:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E2]] : tensor<2x16xf32>) -> tensor<2x16xf32>
// CHECK-NEXT: %[[M:.*]] = linalg.matmul ins(%[[ACC]], %[[F]] : tensor<2x16xf32>, tensor<16x16xf32>) outs(%[[Z]] : tensor<2x16xf32>) -> tensor<2x16xf32>
// CHECK-NEXT: scf.yield %[[M]] : tensor<2x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[LOOP]] : tensor<2x16xf32>
// CHECK-NEXT: }
func.func @fill_in_loop(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<8x16xf32>
  %r = scf.for %i = %c0 to %c10 step %c1 iter_args(%acc = %xs) -> (tensor<8x16xf32>) {
    %e = tensor.empty() : tensor<16x16xf32>
    %f = linalg.fill ins(%one : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
    %fs = mesh.shard %f to %rows : tensor<16x16xf32>
    %e2 = tensor.empty() : tensor<8x16xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
    %m = linalg.matmul ins(%acc, %fs : tensor<8x16xf32>, tensor<16x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
    scf.yield %m : tensor<8x16xf32>
  }
  return %r : tensor<8x16xf32>
}

// 10 rows over 4 devices: the fill's pieces differ in size, so partition
// would gather it rather than make it again.  Still priced: x moves to the
// fill's split (an all_to_all of 72 bytes) instead of the fill being
// gathered (576 bytes).
// EXPLAIN: remark: operand 0 of 'linalg.matmul' is resharded from @mesh split_axes = {{\[\[}}0]] (annotated at {{.*}}) to @mesh split_axes = {{\[\[}}], [0]]: 72 bytes received per device each time;
// CHECK-LABEL: func.func @uneven_fill(
// CHECK-NOT: mesh.all_gather
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<?x16xf32>) -> tensor<?x16xf32>
// CHECK-NOT: mesh.all_gather
// CHECK: mesh.all_to_all %{{.*}} on @mesh mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<2x12xf32> -> tensor<8x3xf32>
// CHECK-NOT: mesh.all_gather
// CHECK: linalg.matmul ins(%{{.*}}, %[[F]] : tensor<8x?xf32>, tensor<?x16xf32>) outs(%{{.*}} : tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: return
func.func @uneven_fill(%x: tensor<8x10xf32>) -> tensor<8x16xf32> {
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10x16xf32>
  %f = linalg.fill ins(%one : f32) outs(%e : tensor<10x16xf32>) -> tensor<10x16xf32>
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %fs = mesh.shard %f to %s : tensor<10x16xf32>
  %xs = mesh.shard %x to %s : tensor<8x10xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = linalg.matmul ins(%xs, %fs : tensor<8x10xf32>, tensor<10x16xf32>) outs(%z : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
