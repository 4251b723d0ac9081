// A value carried through a region has one layout across its init, block
// argument, yielded values and result; partition reshards the init and each
// yielded value to it.  Each case ran wrong before: a partial value was
// yielded into a whole result without being reduced.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f loop -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f branch -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f carried_split -q --seed 3 | FileCheck %s
// CHECK: match

mesh.mesh @mesh(shape = 2)
// The minimal case: a matmul of a column-split A and a row-split B, annotated
// partial, accumulated into the loop's whole iter_arg.
// IR-LABEL: func.func @loop(
// IR: scf.for {{.*}} iter_args(%[[ACC:.*]] = %arg2) -> (tensor<4x4xf32>)
// IR: %[[M:.*]] = linalg.matmul
// IR-NEXT: %[[R:.*]] = mesh.all_reduce %[[M]] on @mesh mesh_axes = [0] : tensor<4x4xf32> -> tensor<4x4xf32>
// IR-NEXT: scf.yield %[[R]] : tensor<4x4xf32>
func.func @loop(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %acc0: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %sa = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %sb = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %sp = mesh.sharding @mesh split_axes = [[]] partial = sum [0] : !mesh.sharding
  %a1 = mesh.shard %a to %sa : tensor<4x8xf32>
  %b1 = mesh.shard %b to %sb : tensor<8x4xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %acc0) -> (tensor<4x4xf32>) {
    %m = linalg.matmul ins(%a1, %b1 : tensor<4x8xf32>, tensor<8x4xf32>) outs(%acc : tensor<4x4xf32>) -> tensor<4x4xf32>
    %mp = mesh.shard %m to %sp : tensor<4x4xf32>
    scf.yield %mp : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}

// Two branches yield a partial and a row-split value into a result annotated
// row-split: one reduce_scatter, one value passed as it is.
// IR-LABEL: func.func @branch(
// IR: scf.if
// IR: %[[M:.*]] = linalg.matmul
// IR-NEXT: %[[R:.*]] = mesh.reduce_scatter %[[M]] on @mesh mesh_axes = [0] scatter_axis = 0 : tensor<4x4xf32> -> tensor<2x4xf32>
// IR-NEXT: scf.yield %[[R]] : tensor<2x4xf32>
// IR-NEXT: } else {
// IR-NEXT: scf.yield %{{.*}} : tensor<2x4xf32>
func.func @branch(%p: i1, %a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %sa = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %sb = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %sp = mesh.sharding @mesh split_axes = [[]] partial = sum [0] : !mesh.sharding
  %sr = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a1 = mesh.shard %a to %sa : tensor<4x8xf32>
  %b1 = mesh.shard %b to %sb : tensor<8x4xf32>
  %c1 = mesh.shard %c to %sr : tensor<4x4xf32>
  %r = scf.if %p -> (tensor<4x4xf32>) {
    %z = tensor.empty() : tensor<4x4xf32>
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
    %m = linalg.matmul ins(%a1, %b1 : tensor<4x8xf32>, tensor<8x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
    %mp = mesh.shard %m to %sp : tensor<4x4xf32>
    scf.yield %mp : tensor<4x4xf32>
  } else {
    scf.yield %c1 : tensor<4x4xf32>
  }
  %r1 = mesh.shard %r to %sr : tensor<4x4xf32>
  return %r1 : tensor<4x4xf32>
}

// The block argument is annotated split while the init arrives whole: the
// init is sliced on entry (no communication) and the result leaves split.
// IR-LABEL: func.func @carried_split(%arg0: tensor<4x4xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}]]>}) -> (tensor<2x4xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>})
// IR-NEXT: arith.constant
// IR: %[[I:.*]] = mesh.all_slice %arg0 on @mesh mesh_axes = [0] slice_axis = 0 : tensor<4x4xf32> -> tensor<2x4xf32>
// IR: scf.for {{.*}} iter_args(%{{.*}} = %[[I]]) -> (tensor<2x4xf32>)
// IR-SAME: {
// IR-NOT: mesh.all_
// IR: return
func.func @carried_split(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %sr = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %x) -> (tensor<4x4xf32>) {
    %acc1 = mesh.shard %acc to %sr : tensor<4x4xf32>
    %d = arith.addf %acc1, %acc1 : tensor<4x4xf32>
    %d1 = mesh.shard %d to %sr : tensor<4x4xf32>
    scf.yield %d1 : tensor<4x4xf32>
  }
  return %r : tensor<4x4xf32>
}
