// A split reduction whose init arrives in its result's partial layout reads
// the init as terms: each device folds its part of the reduction into its
// own terms, nothing is reduced in front of the op, and no remark says an
// operand was resharded.  An init partial over other axes, or of another
// kind, is reduced first as before.
// RUN: mesh-opt --mesh-partition %s -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t.mlir
// RUN: mesh-run %t.mlir -f same --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f same --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f other_axis --compare-with %s -q --seed 3 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f max_terms --compare-with %s -q --seed 4 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f refit --compare-with %s -q --seed 5 | FileCheck %s --check-prefix=SIM
// SIM: match
// REMARK-NOT: remark
// REMARK: remark: the operands of 'linalg.matmul' do not fit the layouts of its results: operand 2 from split_axes = {{\[\[\]\]}} partial = sum [1] to split_axes = {{\[\[\]\]}} resharded
// REMARK-NOT: remark
// REMARK: remark: the operands of 'linalg.matmul' do not fit the layouts of its results: operand 0 from split_axes = {{\[\[\]\]}} to split_axes = {{\[\[\], \[0\]\]}} resharded{{$}}
// REMARK-NOT: remark

// CHECK-LABEL: func.func @same
// CHECK-NOT: = mesh.
// CHECK: linalg.matmul ins(%arg0, %arg1 : tensor<8x4xf32>, tensor<4x8xf32>) outs(%arg2 : tensor<8x8xf32>)
// CHECK-NOT: = mesh.
// CHECK: return
// CHECK-LABEL: func.func @other_axis
// CHECK: mesh.all_reduce %arg2 on @m2 mesh_axes = [1]
// CHECK: linalg.matmul
// CHECK-LABEL: func.func @max_terms
// CHECK-NOT: = mesh.
// CHECK: linalg.reduce
// CHECK-NOT: = mesh.
// CHECK: return
// CHECK-LABEL: func.func @refit
// CHECK-NOT: mesh.all_reduce
// CHECK: mesh.all_slice %arg0
// CHECK-NOT: mesh.all_reduce
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x4xf32>, tensor<4x8xf32>) outs(%arg2 : tensor<8x8xf32>)
// CHECK-NOT: = mesh.
// CHECK: return

mesh.mesh @m(shape = 4)
mesh.mesh @m2(shape = 2x2)

func.func @same(%x: tensor<8x16xf32>, %w: tensor<16x8xf32>, %acc: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %k = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %rows = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %p = mesh.sharding @m split_axes = [[]] partial = sum [0] : !mesh.sharding
  %xs = mesh.shard %x to %k : tensor<8x16xf32>
  %ws = mesh.shard %w to %rows : tensor<16x8xf32>
  %a = mesh.shard %acc to %p : tensor<8x8xf32>
  %m = linalg.matmul ins(%xs, %ws : tensor<8x16xf32>, tensor<16x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  %r = mesh.shard %m to %p : tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

func.func @other_axis(%x: tensor<8x16xf32>, %w: tensor<16x8xf32>, %acc: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %k = mesh.sharding @m2 split_axes = [[], [0]] : !mesh.sharding
  %rows = mesh.sharding @m2 split_axes = [[0]] : !mesh.sharding
  %p0 = mesh.sharding @m2 split_axes = [[]] partial = sum [0] : !mesh.sharding
  %p1 = mesh.sharding @m2 split_axes = [[]] partial = sum [1] : !mesh.sharding
  %xs = mesh.shard %x to %k : tensor<8x16xf32>
  %ws = mesh.shard %w to %rows : tensor<16x8xf32>
  %a = mesh.shard %acc to %p1 : tensor<8x8xf32>
  %m = linalg.matmul ins(%xs, %ws : tensor<8x16xf32>, tensor<16x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  %r = mesh.shard %m to %p0 : tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

func.func @max_terms(%x: tensor<8x16xf32>, %acc: tensor<8xf32>) -> tensor<8xf32> {
  %k = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %p = mesh.sharding @m split_axes = [[]] partial = max [0] : !mesh.sharding
  %xs = mesh.shard %x to %k : tensor<8x16xf32>
  %a = mesh.shard %acc to %p : tensor<8xf32>
  %m = linalg.reduce ins(%xs : tensor<8x16xf32>) outs(%a : tensor<8xf32>) dimensions = [1]
    (%in: f32, %o: f32) {
      %y = arith.maximumf %in, %o : f32
      linalg.yield %y : f32
    }
  %r = mesh.shard %m to %p : tensor<8xf32>
  return %r : tensor<8xf32>
}

// The activations arrive whole: partition re-derives the loop sharding,
// slices them, and still reads the init as it is.
func.func @refit(%x: tensor<8x16xf32>, %w: tensor<16x8xf32>, %acc: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %rows = mesh.sharding @m split_axes = [[0]] : !mesh.sharding
  %p = mesh.sharding @m split_axes = [[]] partial = sum [0] : !mesh.sharding
  %ws = mesh.shard %w to %rows : tensor<16x8xf32>
  %a = mesh.shard %acc to %p : tensor<8x8xf32>
  %m = linalg.matmul ins(%x, %ws : tensor<8x16xf32>, tensor<16x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  %r = mesh.shard %m to %p : tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
