// scf.while carries two sets of values, each with one layout: its inits
// into the condition (the block argument of the condition, and what the
// body yields back), and what the condition hands the body (the body's
// block argument, and the loop's results).  Partition reshards the inits in
// front of the loop and the values handed on at scf.condition and
// scf.yield; both solvers choose the layouts.  A tensor.extract of a
// split or partial value (a stop test on a sum) reads it gathered whole.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir 2>/dev/null
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f while_mm -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f until_small -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f hands_on_another -q --seed 3 | FileCheck %s
// RUN: mesh-opt --pass-pipeline='builtin.module(func.func(sharding-propagation{solver=sweep}), mesh-partition)' %s -o %t.sweep.mlir 2>/dev/null
// RUN: mesh-run %t.sweep.mlir --compare-with %s -f while_mm -q --seed 4 | FileCheck %s
// RUN: mesh-run %t.sweep.mlir --compare-with %s -f until_small -q --seed 5 | FileCheck %s
// RUN: mesh-run %t.sweep.mlir --compare-with %s -f hands_on_another -q --seed 6 | FileCheck %s
// CHECK: match

mesh.mesh @mesh(shape = 2x2)

// A matmul chain in a loop: the carried rows and columns stay split, and
// the contraction's partial sums are reduce-scattered back into the
// carried layout inside the body (propagation refused the loop before:
// scf.while had no rule).
// IR-LABEL: func.func @while_mm(
// IR: scf.while (%{{.*}} = %arg0, %{{.*}} = %{{.*}}) : (tensor<2x4xf32>, index) -> (tensor<2x4xf32>, index)
// IR: scf.condition(%{{.*}}) %{{.*}}, %{{.*}} : tensor<2x4xf32>, index
// IR: mesh.reduce_scatter %{{.*}} on @mesh mesh_axes = [1] scatter_axis = 1 : tensor<2x8xf32> -> tensor<2x4xf32>
// IR: scf.yield %{{.*}}, %{{.*}} : tensor<2x4xf32>, index
func.func @while_mm(%a: tensor<4x8xf32>, %b: tensor<8x8xf32>, %n: index) -> tensor<4x8xf32> {
  %sa = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %sb = mesh.sharding @mesh split_axes = [[1]] : !mesh.sharding
  %a0 = mesh.shard %a to %sa : tensor<4x8xf32>
  %b0 = mesh.shard %b to %sb : tensor<8x8xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %r:2 = scf.while (%x = %a0, %i = %c0) : (tensor<4x8xf32>, index) -> (tensor<4x8xf32>, index) {
    %go = arith.cmpi slt, %i, %n : index
    scf.condition(%go) %x, %i : tensor<4x8xf32>, index
  } do {
  ^bb0(%y: tensor<4x8xf32>, %j: index):
    %e = tensor.empty() : tensor<4x8xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    %m = linalg.matmul ins(%y, %b0 : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
    %t = math.tanh %m : tensor<4x8xf32>
    %j1 = arith.addi %j, %c1 : index
    scf.yield %t, %j1 : tensor<4x8xf32>, index
  }
  return %r#0 : tensor<4x8xf32>
}

// The stop test sums a value split over both axes: the sum is reduced in
// the condition region, on every test, and the body keeps the split.
// IR-LABEL: func.func @until_small(
// IR: scf.while (%{{.*}} = %arg0) : (tensor<2x4xf32>) -> tensor<2x4xf32>
// IR: linalg.reduce
// IR: mesh.all_reduce
// IR: tensor.extract
// IR: scf.condition(%{{.*}}) %{{.*}} : tensor<2x4xf32>
// IR-NOT: = mesh.
// IR: scf.yield %{{.*}} : tensor<2x4xf32>
func.func @until_small(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %s = mesh.sharding @mesh split_axes = [[0, 1]] : !mesh.sharding
  %a0 = mesh.shard %a to %s : tensor<8x4xf32>
  %zero = arith.constant 0.0 : f32
  %ten = arith.constant 10.0 : f32
  %half = arith.constant dense<0.5> : tensor<8x4xf32>
  %r = scf.while (%x = %a0) : (tensor<8x4xf32>) -> (tensor<8x4xf32>) {
    %e = tensor.empty() : tensor<f32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
    %abs = math.absf %x : tensor<8x4xf32>
    %sum = linalg.reduce ins(%abs : tensor<8x4xf32>) outs(%f : tensor<f32>) dimensions = [0, 1]
      (%p: f32, %q: f32) {
        %u = arith.addf %p, %q : f32
        linalg.yield %u : f32
      }
    %v = tensor.extract %sum[] : tensor<f32>
    %go = arith.cmpf ogt, %v, %ten : f32
    scf.condition(%go) %x : tensor<8x4xf32>
  } do {
  ^bb0(%y: tensor<8x4xf32>):
    %h = arith.mulf %y, %half : tensor<8x4xf32>
    scf.yield %h : tensor<8x4xf32>
  }
  return %r : tensor<8x4xf32>
}

// The condition hands the body a value it computes, not its argument.
// IR-LABEL: func.func @hands_on_another(
// IR-NOT: = mesh.
// IR: return
func.func @hands_on_another(%a: tensor<8x4xf32>, %n: index) -> tensor<8x4xf32> {
  %s = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %a0 = mesh.shard %a to %s : tensor<8x4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.while (%x = %a0, %i = %c0) : (tensor<8x4xf32>, index) -> (tensor<8x4xf32>, index) {
    %go = arith.cmpi slt, %i, %n : index
    %x2 = arith.addf %x, %x : tensor<8x4xf32>
    %i1 = arith.addi %i, %c1 : index
    scf.condition(%go) %x2, %i1 : tensor<8x4xf32>, index
  } do {
  ^bb0(%y: tensor<8x4xf32>, %j: index):
    %t = linalg.transpose ins(%y : tensor<8x4xf32>) outs(%y : tensor<8x4xf32>) permutation = [0, 1]
    %m = math.sin %t : tensor<8x4xf32>
    scf.yield %m, %j : tensor<8x4xf32>, index
  }
  return %r#0 : tensor<8x4xf32>
}
