// A linalg.generic whose body yields a linear combination of what it reads
// (sums, integer differences, products and quotients by constants that
// never grow a term) runs on partial sums: each device applies it to its
// own terms, and the devices' results add up to the result on the totals.
// Two contraction-split products summed are reduced once, and a sum
// reduction of a partial value is reduced after it shrinks the value, not
// before.  A body adding a constant, or growing a term, is not linear: its
// operands are reduced first.  Each function is simulated against the
// unpartitioned program (partial arguments get random terms).
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir -f two_products --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f two_products --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f gradients --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f gradients --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f mean_loss --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f mean_loss --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f wrapping --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f wrapping --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f plus_constant --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f doubled --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f same_names --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f same_names --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f half_row_sum --compare-with %s -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f doubled_by_add --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// SIM: match

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#v = affine_map<(i) -> (i)>
#to0 = affine_map<(i) -> ()>
#s = affine_map<() -> ()>
mesh.mesh @mesh(shape = 4)
mesh.mesh @mesh2(shape = 2x2)
mesh.mesh @pair(shape = 2)

// Two row-parallel products added: the sum runs on each device's terms and
// is reduced once (768 bytes received per device, not 1,536).
// CHECK-LABEL: func.func @two_products(
// CHECK: %[[A:.*]] = linalg.matmul
// CHECK-NOT: mesh.all_
// CHECK: %[[B:.*]] = linalg.matmul
// CHECK-NOT: mesh.all_
// CHECK: %[[S:.*]] = linalg.generic {{.*}} ins(%[[A]], %[[B]] : tensor<8x16xf32>, tensor<8x16xf32>)
// CHECK: mesh.all_reduce %[[S]] on @mesh mesh_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
// CHECK-NOT: mesh.all_
// CHECK: return
func.func @two_products(%x: tensor<8x16xf32>, %w1: tensor<16x16xf32>, %y: tensor<8x16xf32>, %w2: tensor<16x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %w1s = mesh.shard %w1 to %rows annotate_for_users : tensor<16x16xf32>
  %w2s = mesh.shard %w2 to %rows annotate_for_users : tensor<16x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %a = linalg.matmul ins(%x, %w1s : tensor<8x16xf32>, tensor<16x16xf32>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
  %b = linalg.matmul ins(%y, %w2s : tensor<8x16xf32>, tensor<16x16xf32>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
  %c = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %r = arith.addf %u, %v : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  %cs = mesh.shard %c to %whole : tensor<8x16xf32>
  return %cs : tensor<8x16xf32>
}

// Gradients arriving as partial sums over axis 1 of a 2x2 mesh, averaged and
// summed per row: the average and the row sum run on terms, and only the
// 8 row sums are reduced (32 bytes, where reducing both gradients first
// moves 528).
// CHECK-LABEL: func.func @gradients(
// CHECK-SAME: %arg0: tensor<4x16xf32> {mesh.sharding = #mesh.sharding<@mesh2, {{\[\[}}0]], partial = sum [1]>}
// CHECK-NOT: mesh.all_reduce
// CHECK: %[[R:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK: mesh.all_reduce %[[R]] on @mesh2 mesh_axes = [1] : tensor<4xf32> -> tensor<4xf32>
// CHECK-NOT: mesh.all_reduce
// CHECK: return
func.func @gradients(%g1: tensor<8x16xf32>, %g2: tensor<8x16xf32>) -> tensor<8xf32> {
  %psum = mesh.sharding @mesh2 split_axes = [[0]] partial = sum [1] : !mesh.sharding
  %whole = mesh.sharding @mesh2 split_axes = [[]] : !mesh.sharding
  %a = mesh.shard %g1 to %psum : tensor<8x16xf32>
  %b = mesh.shard %g2 to %psum : tensor<8x16xf32>
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %t = arith.addf %x, %y : f32
    %h = arith.mulf %t, %half : f32
    linalg.yield %h : f32
  } -> tensor<8x16xf32>
  %e1 = tensor.empty() : tensor<8xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%s : tensor<8x16xf32>) outs(%f1 : tensor<8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %t = arith.addf %x, %acc : f32
    linalg.yield %t : f32
  } -> tensor<8xf32>
  %w = mesh.shard %r to %whole : tensor<8xf32>
  return %w : tensor<8xf32>
}

// A mean over every element of a row-parallel product: both sums run on
// terms, and only the total is reduced (a scalar: 24 bytes, where reducing
// the product moves 768).  The division by a constant could run on terms
// too, but costs the same after the reduction, which a tie prefers.
// CHECK-LABEL: func.func @mean_loss(
// CHECK-NOT: mesh.all_
// CHECK: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0] : tensor<f32> -> tensor<f32>
// CHECK-NOT: mesh.all_
// CHECK: arith.divf
// CHECK-NOT: mesh.all_
// CHECK: return
func.func @mean_loss(%x: tensor<8x16xf32>, %w: tensor<16x16xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 128.0 : f32
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [] : !mesh.sharding
  %ws = mesh.shard %w to %rows annotate_for_users : tensor<16x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %a = linalg.matmul ins(%x, %ws : tensor<8x16xf32>, tensor<16x16xf32>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
  %e1 = tensor.empty() : tensor<8xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<8x16xf32>) outs(%f1 : tensor<8xf32>) {
  ^bb0(%u: f32, %acc: f32):
    %r = arith.addf %u, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %e2 = tensor.empty() : tensor<f32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<f32>) -> tensor<f32>
  %t = linalg.generic {indexing_maps = [#v, #to0], iterator_types = ["reduction"]} ins(%s : tensor<8xf32>) outs(%f2 : tensor<f32>) {
  ^bb0(%u: f32, %acc: f32):
    %r = arith.addf %u, %acc : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  %e3 = tensor.empty() : tensor<f32>
  %m = linalg.generic {indexing_maps = [#s, #s], iterator_types = []} ins(%t : tensor<f32>) outs(%e3 : tensor<f32>) {
  ^bb0(%u: f32, %o: f32):
    %r = arith.divf %u, %n : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  %ms = mesh.shard %m to %whole : tensor<f32>
  return %ms : tensor<f32>
}

// Integers: a difference of two row-parallel products runs on terms, and
// the body's promise of no signed wrap, which holds of the totals only, is
// dropped.
// CHECK-LABEL: func.func @wrapping(
// CHECK-NOT: mesh.all_
// CHECK: arith.subi %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : i32
// CHECK: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0] : tensor<8x16xi32> -> tensor<8x16xi32>
// CHECK-NOT: mesh.all_
// CHECK: return
func.func @wrapping(%x: tensor<8x16xi32>, %w1: tensor<16x16xi32>, %w2: tensor<16x16xi32>) -> tensor<8x16xi32> {
  %zero = arith.constant 0 : i32
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %w1s = mesh.shard %w1 to %rows annotate_for_users : tensor<16x16xi32>
  %w2s = mesh.shard %w2 to %rows annotate_for_users : tensor<16x16xi32>
  %e = tensor.empty() : tensor<8x16xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<8x16xi32>) -> tensor<8x16xi32>
  %a = linalg.matmul ins(%x, %w1s : tensor<8x16xi32>, tensor<16x16xi32>) outs(%f : tensor<8x16xi32>) -> tensor<8x16xi32>
  %b = linalg.matmul ins(%x, %w2s : tensor<8x16xi32>, tensor<16x16xi32>) outs(%f : tensor<8x16xi32>) -> tensor<8x16xi32>
  %c = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<8x16xi32>, tensor<8x16xi32>) outs(%e : tensor<8x16xi32>) {
  ^bb0(%u: i32, %v: i32, %o: i32):
    %r = arith.subi %u, %v overflow<nsw> : i32
    linalg.yield %r : i32
  } -> tensor<8x16xi32>
  %cs = mesh.shard %c to %whole : tensor<8x16xi32>
  return %cs : tensor<8x16xi32>
}

// A constant added to a partial sum would be added once per device: the
// product is reduced before the add.
// CHECK-LABEL: func.func @plus_constant(
// CHECK: %[[A:.*]] = linalg.matmul
// CHECK-NOT: linalg.generic
// CHECK: mesh.all_reduce %[[A]] on @mesh mesh_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
// CHECK: linalg.generic
// CHECK-NOT: mesh.all_
// CHECK: return
func.func @plus_constant(%x: tensor<8x16xf32>, %w: tensor<16x16xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %ws = mesh.shard %w to %rows annotate_for_users : tensor<16x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %a = linalg.matmul ins(%x, %ws : tensor<8x16xf32>, tensor<16x16xf32>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
  %e1 = tensor.empty() : tensor<8xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<8x16xf32>) outs(%f1 : tensor<8xf32>) {
  ^bb0(%u: f32, %acc: f32):
    %p = arith.addf %u, %one : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %s : tensor<8xf32>
}

// A factor of 2 could take a term to infinity where its total stays finite:
// the product is reduced before the doubling.
// CHECK-LABEL: func.func @doubled(
// CHECK: %[[A:.*]] = linalg.matmul
// CHECK-NEXT: mesh.all_reduce %[[A]] on @mesh mesh_axes = [0] : tensor<8x16xf32> -> tensor<8x16xf32>
// CHECK: linalg.generic
// CHECK-NOT: mesh.all_
// CHECK: return
func.func @doubled(%x: tensor<8x16xf32>, %w: tensor<16x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %ws = mesh.shard %w to %rows annotate_for_users : tensor<16x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %a = linalg.matmul ins(%x, %ws : tensor<8x16xf32>, tensor<16x16xf32>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
  %d = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%u: f32, %o: f32):
    %r = arith.mulf %u, %two : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  return %d : tensor<8x16xf32>
}

// Two adds of one signature but for what they read: the first adds two
// products (linear), the second adds a scalar argument to a product, which
// would be added once per device.  Only the first runs on terms.
// CHECK-LABEL: func.func @same_names(
// CHECK: %[[A:.*]] = linalg.matmul
// CHECK: %[[B:.*]] = linalg.matmul
// CHECK-NOT: mesh.all_
// CHECK: %[[S:.*]] = linalg.generic {{.*}} ins(%[[A]], %[[B]]
// CHECK: %[[R:.*]] = mesh.all_reduce %[[S]]
// CHECK: linalg.generic {{.*}} ins(%[[R]], %[[R]]
// CHECK-NOT: mesh.all_
// CHECK: return
func.func @same_names(%x: tensor<8x16xf32>, %w1: tensor<16x16xf32>, %w2: tensor<16x16xf32>, %q: f32) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %w1s = mesh.shard %w1 to %rows annotate_for_users : tensor<16x16xf32>
  %w2s = mesh.shard %w2 to %rows annotate_for_users : tensor<16x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %a = linalg.matmul ins(%x, %w1s : tensor<8x16xf32>, tensor<16x16xf32>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
  %b = linalg.matmul ins(%x, %w2s : tensor<8x16xf32>, tensor<16x16xf32>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
  %c = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %r = arith.addf %u, %v : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  %d = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%c, %c : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %r = arith.addf %u, %q : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  return %d : tensor<8x16xf32>
}

// f16 is not run on terms: a device's sum of its own terms can overflow
// where the total does not.  Here the row-parallel product's terms are
// +40000 on one device and -40000 on the other (every total 0): summing a
// row of terms gives +inf and -inf, whose all_reduce is NaN.  The product
// is not left partial into the row sum (here the solver gathers the weight,
// which moves fewer bytes than reducing the product).
// CHECK-LABEL: func.func @half_row_sum(
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK-NOT: mesh.all_
// CHECK: return
func.func @half_row_sum() -> tensor<2xf16> {
  %zero = arith.constant 0.0 : f16
  %w = arith.constant dense<[[40000.0, 40000.0], [-40000.0, -40000.0]]> : tensor<2x2xf16>
  %rows = mesh.sharding @pair split_axes = [[0]] : !mesh.sharding
  %ws = mesh.shard %w to %rows annotate_for_users : tensor<2x2xf16>
  %ones = arith.constant dense<1.0> : tensor<2x2xf16>
  %e = tensor.empty() : tensor<2x2xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<2x2xf16>) -> tensor<2x2xf16>
  %a = linalg.matmul ins(%ones, %ws : tensor<2x2xf16>, tensor<2x2xf16>) outs(%f : tensor<2x2xf16>) -> tensor<2x2xf16>
  %e1 = tensor.empty() : tensor<2xf16>
  %f1 = linalg.fill ins(%zero : f16) outs(%e1 : tensor<2xf16>) -> tensor<2xf16>
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<2x2xf16>) outs(%f1 : tensor<2xf16>) {
  ^bb0(%u: f16, %acc: f16):
    %t = arith.addf %u, %acc : f16
    linalg.yield %t : f16
  } -> tensor<2xf16>
  return %r : tensor<2xf16>
}

// A term added to itself doubles, as a product by 2 would: not run on terms.
// CHECK-LABEL: func.func @doubled_by_add(
// CHECK: %[[A:.*]] = linalg.matmul
// CHECK-NEXT: mesh.all_reduce %[[A]]
// CHECK: linalg.generic
// CHECK-NOT: mesh.all_
// CHECK: return
func.func @doubled_by_add(%x: tensor<8x16xf32>, %w: tensor<16x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %ws = mesh.shard %w to %rows annotate_for_users : tensor<16x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %a = linalg.matmul ins(%x, %ws : tensor<8x16xf32>, tensor<16x16xf32>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
  %d = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%u: f32, %o: f32):
    %t = arith.addf %u, %u : f32
    linalg.yield %t : f32
  } -> tensor<8x16xf32>
  return %d : tensor<8x16xf32>
}
