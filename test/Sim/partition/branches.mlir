// The simulator follows `cf.br` and `cf.cond_br` between a function's blocks,
// handing the branch's operands to the successor's arguments all at once (a
// back edge that swaps two of them swaps them), so programs with branches
// are checked against their partitions as any other.
// RUN: mesh-run %s -f counted --global | FileCheck %s --check-prefix=COUNTED
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: mesh-run %t.mlir -f counted --spmd | FileCheck %s --check-prefix=COUNTED
// RUN: mesh-run %t.mlir -f scaled --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %t.mlir -f scaled --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=MATCH
// RUN: mesh-run %s -f both_edges --global | FileCheck %s --check-prefix=EDGES
// RUN: mesh-run %t.mlir -f both_edges --spmd | FileCheck %s --check-prefix=EDGES

// (a, b) becomes (b, a + b) three times: a ends as x + 2y.
// COUNTED: result 0: tensor<4xf32>
// COUNTED-NEXT: [21. 42. 63. 84.]
// MATCH: match
// MATCH-NOT: mismatch

mesh.mesh @mesh(shape = 2)

func.func @counted() -> tensor<4xf32> {
  %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %y = arith.constant dense<[10.0, 20.0, 30.0, 40.0]> : tensor<4xf32>
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  cf.br ^bb1(%c0, %xs, %y : index, tensor<4xf32>, tensor<4xf32>)
^bb1(%i: index, %a: tensor<4xf32>, %b: tensor<4xf32>):
  %go = arith.cmpi slt, %i, %c3 : index
  cf.cond_br %go, ^bb2, ^bb3
^bb2:
  %s = arith.addf %a, %b : tensor<4xf32>
  %n = arith.addi %i, %c1 : index
  cf.br ^bb1(%n, %b, %s : index, tensor<4xf32>, tensor<4xf32>)
^bb3:
  return %a : tensor<4xf32>
}

// A split matmul in each successor of a branch on a random flag.
func.func @scaled(%p: i1, %a: tensor<8x4xf32>, %w: tensor<4x4xf32>) -> tensor<8x4xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %as = mesh.shard %a to %rows : tensor<8x4xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  cf.cond_br %p, ^bb1(%as : tensor<8x4xf32>), ^bb2(%as, %f : tensor<8x4xf32>, tensor<8x4xf32>)
^bb1(%x: tensor<8x4xf32>):
  %m = linalg.matmul ins(%x, %w : tensor<8x4xf32>, tensor<4x4xf32>) outs(%f : tensor<8x4xf32>) -> tensor<8x4xf32>
  cf.br ^bb3(%m : tensor<8x4xf32>)
^bb2(%y: tensor<8x4xf32>, %acc: tensor<8x4xf32>):
  %d = linalg.add ins(%y, %y : tensor<8x4xf32>, tensor<8x4xf32>) outs(%acc : tensor<8x4xf32>) -> tensor<8x4xf32>
  cf.br ^bb3(%d : tensor<8x4xf32>)
^bb3(%r: tensor<8x4xf32>):
  return %r : tensor<8x4xf32>
}

// Both edges of a branch: the first flag is true, the second false
// ([1, 10] - [2, 2], then doubled).
// EDGES: result 0: tensor<2xf32>
// EDGES-NEXT: [-2. 16.]
func.func @both_edges() -> tensor<2xf32> {
  %a0 = arith.constant dense<[1.0, 10.0]> : tensor<2xf32>
  %b = arith.constant dense<2.0> : tensor<2xf32>
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a = mesh.shard %a0 to %rows : tensor<2xf32>
  %t = arith.constant true
  %f = arith.constant false
  cf.cond_br %t, ^bb1(%a, %b : tensor<2xf32>, tensor<2xf32>), ^bb3(%a : tensor<2xf32>)
^bb1(%x: tensor<2xf32>, %y: tensor<2xf32>):
  %d = arith.subf %x, %y : tensor<2xf32>
  cf.cond_br %f, ^bb3(%d : tensor<2xf32>), ^bb2(%d : tensor<2xf32>)
^bb2(%z: tensor<2xf32>):
  %two = arith.addf %z, %z : tensor<2xf32>
  cf.br ^bb3(%two : tensor<2xf32>)
^bb3(%r: tensor<2xf32>):
  return %r : tensor<2xf32>
}
