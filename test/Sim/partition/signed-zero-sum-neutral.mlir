// A partial sum made from a whole value keeps the value on one device and
// adds a neutral element on the others.  For floats that element is -0.0:
// +0.0 + -0.0 is +0.0, so a +0.0 filler turned every -0.0 into +0.0.  1/x
// tells the zeros apart.  @from_whole makes the partial from a whole value;
// @split_reduction splits a sum over its reduced loop, keeping its init
// (which holds -0.0) on the first device only.
// RUN: mesh-run %s --function from_whole --global | FileCheck %s --check-prefix=WHOLE
// RUN: mesh-run %s --function split_reduction --global | FileCheck %s --check-prefix=SPLIT
// RUN: mesh-opt --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --function from_whole | FileCheck %s --check-prefix=WHOLE
// RUN: mesh-run %t.mlir --function split_reduction | FileCheck %s --check-prefix=SPLIT
// WHOLE: result 0: tensor<4xf32>
// WHOLE-NEXT: [-inf  inf -inf  0.5]
// SPLIT: result 0: tensor<2xf32>
// SPLIT-NEXT: [-inf  inf]
// IR-LABEL: func.func @from_whole
// IR: scf.if
// IR: arith.constant -0.000000e+00 : f32
// IR: linalg.fill
// IR-LABEL: func.func @split_reduction
// IR: scf.if
// IR: arith.constant -0.000000e+00 : f32
// IR: linalg.fill

#v = affine_map<(d0) -> (d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
mesh.mesh @mesh(shape = 2)

func.func @from_whole() -> tensor<4xf32> {
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %sum = mesh.sharding @mesh split_axes = [[]] partial = sum [0] : !mesh.sharding
  %x = arith.constant dense<[-0.0, 0.0, -0.0, 2.0]> : tensor<4xf32>
  %a = mesh.shard %x to %whole : tensor<4xf32>
  %p = mesh.shard %a to %sum annotate_for_users : tensor<4xf32>
  %q = mesh.shard %p to %sum : tensor<4xf32>
  %w = mesh.shard %q to %whole annotate_for_users : tensor<4xf32>
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%w : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %d = arith.divf %one, %in : f32
    linalg.yield %d : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// Row 0 sums -0.0 terms into a -0.0 init (-0.0); row 1 into a +0.0 init (+0.0).
func.func @split_reduction() -> tensor<2xf32> {
  %whole = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %cols = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %sum = mesh.sharding @mesh split_axes = [[]] partial = sum [0] : !mesh.sharding
  %x = arith.constant dense<-0.0> : tensor<2x4xf32>
  %init = arith.constant dense<[-0.0, 0.0]> : tensor<2xf32>
  %xs = mesh.shard %x to %cols annotate_for_users : tensor<2x4xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%xs : tensor<2x4xf32>) outs(%init : tensor<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %t = arith.addf %in, %acc : f32
    linalg.yield %t : f32
  } -> tensor<2xf32>
  %sp = mesh.shard %s to %sum : tensor<2xf32>
  %w = mesh.shard %sp to %whole annotate_for_users : tensor<2xf32>
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<2xf32>
  %r = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%w : tensor<2xf32>) outs(%e : tensor<2xf32>) {
  ^bb0(%in: f32, %o: f32):
    %d = arith.divf %one, %in : f32
    linalg.yield %d : f32
  } -> tensor<2xf32>
  return %r : tensor<2xf32>
}
