// Partition reshards a value to the loop sharding an op runs with; along a
// loop cut unevenly by the layouts that stay (an annotated result, an
// operand that arrives split), the reshard takes that loop's cut, scaled to
// its dimension's size, instead of the default cut of its own size, which
// would give a device another part of the loop.  Each function was refused
// before ("the pieces around ... do not line up").  Partitioned, then
// simulated against the original on random inputs over several seeds.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir 2>%t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir -f elementwise --compare-with %s -q --seed 0 | FileCheck %s
// RUN: mesh-run %t.mlir -f elementwise --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f generic --compare-with %s -q --seed 0 | FileCheck %s
// RUN: mesh-run %t.mlir -f generic --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f matmul --compare-with %s -q --seed 0 | FileCheck %s
// RUN: mesh-run %t.mlir -f matmul --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f reshapes --compare-with %s -q --seed 0 | FileCheck %s
// RUN: mesh-run %t.mlir -f reshapes --compare-with %s -q --seed 1 | FileCheck %s
// CHECK: match

#id = affine_map<(d0, d1) -> (d0, d1)>

// Both operands arrive whole; the result is annotated in pieces of 3, 2, 2
// (the default cut of 7 over 3 is 2, 2, 3).
// REMARK: operand 0 from split_axes = {{\[\[\]\]}} to split_axes = {{\[\[0\]\]}} sharded_dims_offsets = [0, 3, 5, 7], operand 1 from split_axes = {{\[\[\]\]}} to split_axes = {{\[\[0\]\]}} sharded_dims_offsets = [0, 3, 5, 7] resharded
mesh.mesh @m3(shape = 3)
func.func @elementwise(%x: tensor<7xf32>, %y: tensor<7xf32>) -> tensor<7xf32> {
  %s = mesh.sharding @m3 split_axes = [[0]] sharded_dims_offsets = [0, 3, 5, 7] : !mesh.sharding
  %z = arith.addf %x, %y : tensor<7xf32>
  %z0 = mesh.shard %z to %s : tensor<7xf32>
  return %z0 : tensor<7xf32>
}

// x arrives in rows of 1, 3, 1, 2; y (whole) and the fresh init follow them.
// REMARK: operand 1 from split_axes = {{\[\[\]\]}} to split_axes = {{\[\[0\]\]}} sharded_dims_offsets = [0, 1, 4, 5, 7] resharded
mesh.mesh @m4(shape = 4)
func.func @generic(%x: tensor<7x6xf32>, %y: tensor<7x6xf32>) -> tensor<7x6xf32> {
  %s = mesh.sharding @m4 split_axes = [[0]] sharded_dims_offsets = [0, 1, 4, 5, 7] : !mesh.sharding
  %x0 = mesh.shard %x to %s : tensor<7x6xf32>
  %e = tensor.empty() : tensor<7x6xf32>
  %g = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x0, %y : tensor<7x6xf32>, tensor<7x6xf32>) outs(%e : tensor<7x6xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<7x6xf32>
  %g0 = mesh.shard %g to %s : tensor<7x6xf32>
  return %g0 : tensor<7x6xf32>
}

// A 2x3 mesh: the rows of lhs arrive cut 3, 2 over axis 0; the result is
// annotated with those rows and the default cut of its 7 columns over axis
// 1.  The filled init is rebuilt with both cuts (rows given, columns
// spelled out), rhs is cut by columns as the default does.
// IR-LABEL: func.func @matmul
// IR: arith.constant dense<[3, 2]> : tensor<2xindex>
// IR: arith.constant dense<[2, 2, 3]> : tensor<3xindex>
// IR: tensor.empty(%{{.*}}, %{{.*}}) : tensor<?x?xf32>
mesh.mesh @m23(shape = 2x3)
func.func @matmul(%a: tensor<5x4xf32>, %b: tensor<4x7xf32>) -> tensor<5x7xf32> {
  %sa = mesh.sharding @m23 split_axes = [[0]] sharded_dims_offsets = [0, 3, 5] : !mesh.sharding
  %a0 = mesh.shard %a to %sa : tensor<5x4xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5x7xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<5x7xf32>) -> tensor<5x7xf32>
  %p = linalg.matmul ins(%a0, %b : tensor<5x4xf32>, tensor<4x7xf32>) outs(%f : tensor<5x7xf32>) -> tensor<5x7xf32>
  %so = mesh.sharding @m23 split_axes = [[0], [1]] sharded_dims_offsets = [0, 3, 5, 0, 2, 4, 7] : !mesh.sharding
  %p0 = mesh.shard %p to %so : tensor<5x7xf32>
  return %p0 : tensor<5x7xf32>
}

// Reshapes map dimensions of different sizes to one loop: 6 -> 3x2 with
// the rows annotated 2, 1 reshards x (whole) into 4, 2 elements; 3x2 -> 6
// annotated 2, 4 reshards y's rows into 1, 2 (which is the default cut).
// REMARK: 'tensor.expand_shape' {{.*}}: operand 0 from split_axes = {{\[\[\]\]}} to split_axes = {{\[\[0\]\]}} sharded_dims_offsets = [0, 4, 6] resharded
// REMARK: 'tensor.collapse_shape' {{.*}}: operand 0 from split_axes = {{\[\[\]\]}} to split_axes = {{\[\[0\]\]}} resharded
mesh.mesh @m2(shape = 2)
func.func @reshapes(%x: tensor<6xf32>, %y: tensor<3x2xf32>) -> (tensor<3x2xf32>, tensor<6xf32>) {
  %r = tensor.expand_shape %x [[0, 1]] output_shape [3, 2] : tensor<6xf32> into tensor<3x2xf32>
  %s = mesh.sharding @m2 split_axes = [[0]] sharded_dims_offsets = [0, 2, 3] : !mesh.sharding
  %r0 = mesh.shard %r to %s : tensor<3x2xf32>
  %t = tensor.collapse_shape %y [[0, 1]] : tensor<3x2xf32> into tensor<6xf32>
  %s2 = mesh.sharding @m2 split_axes = [[0]] sharded_dims_offsets = [0, 2, 6] : !mesh.sharding
  %t0 = mesh.shard %t to %s2 : tensor<6xf32>
  return %r0, %t0 : tensor<3x2xf32>, tensor<6xf32>
}
