// `tensor.concat` (what torch-mlir writes for `torch.cat`) has the rule of
// hlo's concatenate: every dimension but the joined one splits, alike on
// every operand.  It had none, and propagation refused the op next to a
// split operand.  Rows split: each device joins its own rows, nothing
// moves.  The joined dimension split: each operand's split moves to its
// rows (one all_to_all each), the devices join their rows, and the result
// moves back.  Three operands on a 2x2 mesh,
// rows over both axes.  Each is simulated against the unpartitioned program.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir -f rows --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f joined --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f three --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f three --compare-with %s -q --seed 2 | FileCheck %s
// CHECK: match

// IR-LABEL: func.func @rows(
// IR-NOT: mesh.all
// IR: tensor.concat dim(1) %arg0, %arg1 : (tensor<2x6xf32>, tensor<2x10xf32>) -> tensor<2x16xf32>
// IR-NOT: mesh.all
// IR: return

// IR-LABEL: func.func @joined(
// IR-NEXT: mesh.all_to_all %arg0 on @mesh mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<8x2xf32> -> tensor<2x8xf32>
// IR-NEXT: mesh.all_to_all %arg1 on @mesh mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<8x2xf32> -> tensor<2x8xf32>
// IR-NEXT: tensor.concat dim(1) %{{.*}}, %{{.*}} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x16xf32>
// IR-NEXT: mesh.all_to_all %{{.*}} on @mesh mesh_axes = [0] split_axis = 1 concat_axis = 0 : tensor<2x16xf32> -> tensor<8x4xf32>

// IR-LABEL: func.func @three(
// IR-NOT: mesh.all
// IR: tensor.concat dim(1) %arg0, %arg1, %arg2 : (tensor<2x3xf32>, tensor<2x5xf32>, tensor<2x1xf32>) -> tensor<2x9xf32>

#id = affine_map<(i, j) -> (i, j)>
mesh.mesh @mesh(shape = 4)
mesh.mesh @mesh2(shape = 2x2)

func.func @rows(%a: tensor<8x6xf32>, %b: tensor<8x10xf32>) -> tensor<8x16xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %as = mesh.shard %a to %rows annotate_for_users : tensor<8x6xf32>
  %bs = mesh.shard %b to %rows annotate_for_users : tensor<8x10xf32>
  %c = tensor.concat dim(1) %as, %bs : (tensor<8x6xf32>, tensor<8x10xf32>) -> tensor<8x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.exp %v : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

func.func @joined(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>) -> tensor<8x16xf32> {
  %cols = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %as = mesh.shard %a to %cols annotate_for_users : tensor<8x8xf32>
  %bs = mesh.shard %b to %cols annotate_for_users : tensor<8x8xf32>
  %c = tensor.concat dim(1) %as, %bs : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x16xf32>
  %out = mesh.shard %c to %cols : tensor<8x16xf32>
  return %out : tensor<8x16xf32>
}

func.func @three(%a: tensor<8x3xf32>, %b: tensor<8x5xf32>, %d: tensor<8x1xf32>) -> tensor<8x9xf32> {
  %rows = mesh.sharding @mesh2 split_axes = [[0, 1]] : !mesh.sharding
  %as = mesh.shard %a to %rows annotate_for_users : tensor<8x3xf32>
  %bs = mesh.shard %b to %rows annotate_for_users : tensor<8x5xf32>
  %ds = mesh.shard %d to %rows annotate_for_users : tensor<8x1xf32>
  %c = tensor.concat dim(1) %as, %bs, %ds : (tensor<8x3xf32>, tensor<8x5xf32>, tensor<8x1xf32>) -> tensor<8x9xf32>
  %out = mesh.shard %c to %rows : tensor<8x9xf32>
  return %out : tensor<8x9xf32>
}
