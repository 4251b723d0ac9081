// A tensor.cast between a dynamic and a static size splits like any
// elementwise op: upstream's canonicalize writes such casts once it knows a
// size (here the cast to 8x16 before the add), and propagation used to find
// no rule for them. Both sides of the cast hold the same piece.
// RUN: %python -c "import numpy as np; r = np.random.default_rng(3); [np.save('%t.%%s.npy' %% n, r.standard_normal((8, 16)).astype(np.float32)) for n in 'ab']"
// RUN: mesh-opt --pass-pipeline="builtin.module(canonicalize, sharding-propagation, mesh-partition)" %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -f rows -i %t.a.npy -i %t.b.npy -q | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -f widen -i %t.a.npy -i %t.b.npy -q | FileCheck %s
// CHECK: match

// IR-LABEL: func.func @rows(%arg0: tensor<2x16xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>}, %arg1: tensor<?x16xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>})
// IR: tensor.cast %arg1 : tensor<?x16xf32> to tensor<2x16xf32>
// IR-NOT: mesh.all_gather
// IR-LABEL: func.func @widen(%arg0: tensor<2x16xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>}, %arg1: tensor<?x16xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>})
// IR: tensor.cast %arg0 : tensor<2x16xf32> to tensor<?x16xf32>
// IR-NOT: mesh.all_gather

#id = affine_map<(i, j) -> (i, j)>
mesh.mesh @mesh(shape = 4)

func.func @rows(%a: tensor<8x16xf32>, %b: tensor<?x16xf32>) -> tensor<8x16xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %as = mesh.shard %a to %s annotate_for_users : tensor<8x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%as, %b : tensor<8x16xf32>, tensor<?x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %x = arith.addf %p, %q : f32
    linalg.yield %x : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

func.func @widen(%a: tensor<8x16xf32>, %b: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %as = mesh.shard %a to %s annotate_for_users : tensor<8x16xf32>
  %c = tensor.cast %as : tensor<8x16xf32> to tensor<?x16xf32>
  %r = arith.addf %c, %b : tensor<?x16xf32>
  return %r : tensor<?x16xf32>
}
