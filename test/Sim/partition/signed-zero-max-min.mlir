// Float max and min order -0.0 below +0.0 (arith.maximumf/minimumf,
// stablehlo maximum/minimum; maxnumf/minnumf too, where MLIR leaves the
// choice open), whatever the operand order: numpy's maximum and minimum
// return the second of two equal operands.  1/x tells the zeros apart.  A
// max or min split on the reduced columns becomes a partial max or min and
// a mesh.all_reduce, which must order the zeros the same way: row r of
// @split holds -0.0 in column c where bit c of r is set, else +0.0.  The
// max and the min each read their own matrix: one matrix read by both would
// be gathered once (as many bytes as the two all_reduces, in one collective).
// RUN: mesh-run %s --function scalars | FileCheck %s --check-prefix=SCALARS
// RUN: mesh-run %s --function split --global | FileCheck %s --check-prefix=SPLIT
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --function split | FileCheck %s --check-prefix=SPLIT
// RUN: mesh-run %t.mlir --function split --compare-with %s -q | FileCheck %s
// RUN: mesh-run %t.mlir --function split --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir --function hlo --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir --function hlo | FileCheck %s --check-prefix=HLO
// SCALARS: result 0: f32
// SCALARS-NEXT: inf
// SCALARS-NEXT: result 1: f32
// SCALARS-NEXT: -inf
// SCALARS-NEXT: result 2: f32
// SCALARS-NEXT: inf
// SCALARS-NEXT: result 3: f32
// SCALARS-NEXT: -inf
// SCALARS-NEXT: result 4: f32
// SCALARS-NEXT: inf
// SCALARS-NEXT: result 5: f32
// SCALARS-NEXT: -inf
// SCALARS-NEXT: result 6: f32
// SCALARS-NEXT: inf
// SCALARS-NEXT: result 7: f32
// SCALARS-NEXT: -inf
// SPLIT: result 0: tensor<16xf32>
// SPLIT-NEXT: [ inf inf inf inf inf inf inf inf inf inf inf inf inf inf inf -inf]
// SPLIT-NEXT: result 1: tensor<16xf32>
// SPLIT-NEXT: [ inf -inf -inf -inf -inf -inf -inf -inf -inf -inf -inf -inf -inf -inf -inf -inf]
// HLO: result 0: tensor<4xf32>
// HLO-NEXT: [ inf inf inf -inf]
// HLO-NEXT: result 1: tensor<4xf32>
// HLO-NEXT: [ inf -inf -inf -inf]
// CHECK: match
// IR-LABEL: func.func @split
// IR: mesh.all_reduce {{.*}} reduction = <max>
// IR: mesh.all_reduce {{.*}} reduction = <min>
// IR-LABEL: func.func @hlo
// IR: mesh.all_reduce {{.*}} reduction = <max>
// IR: mesh.all_reduce {{.*}} reduction = <min>

#id = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1) -> (d0)>
#v = affine_map<(d0) -> (d0)>
mesh.mesh @mesh(shape = 2)

// 1/max(-0,+0), 1/max(+0,-0), 1/min(+0,-0), 1/min(-0,+0), then maxnumf and minnumf
func.func @scalars() -> (f32, f32, f32, f32, f32, f32, f32, f32) {
  %pz = arith.constant 0.0 : f32
  %nz = arith.constant -0.0 : f32
  %one = arith.constant 1.0 : f32
  %a = arith.maximumf %nz, %pz : f32
  %b = arith.minimumf %pz, %nz : f32
  %c = arith.maximumf %pz, %nz : f32
  %d = arith.minimumf %nz, %pz : f32
  %e = arith.maxnumf %nz, %pz : f32
  %f = arith.minnumf %pz, %nz : f32
  %g = arith.maxnumf %pz, %nz : f32
  %h = arith.minnumf %nz, %pz : f32
  %ia = arith.divf %one, %a : f32
  %ib = arith.divf %one, %b : f32
  %ic = arith.divf %one, %c : f32
  %id = arith.divf %one, %d : f32
  %ie = arith.divf %one, %e : f32
  %if = arith.divf %one, %f : f32
  %ig = arith.divf %one, %g : f32
  %ih = arith.divf %one, %h : f32
  return %ia, %ib, %ic, %id, %ie, %if, %ig, %ih : f32, f32, f32, f32, f32, f32, f32, f32
}

// 16x4 signed zeros (bit c of row r set: -0.0), split on the columns
func.func private @zeros() -> tensor<16x4xf32> {
  %e = tensor.empty() : tensor<16x4xf32>
  %z = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<16x4xf32>) {
  ^bb0(%o: f32):
    %r = linalg.index 0 : index
    %c = linalg.index 1 : index
    %sh = arith.shrui %r, %c : index
    %one = arith.constant 1 : index
    %b = arith.andi %sh, %one : index
    %isset = arith.cmpi eq, %b, %one : index
    %pz = arith.constant 0.0 : f32
    %nz = arith.constant -0.0 : f32
    %v = arith.select %isset, %nz, %pz : f32
    linalg.yield %v : f32
  } -> tensor<16x4xf32>
  return %z : tensor<16x4xf32>
}

func.func private @inverse(%x: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %inv = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %d = arith.divf %one, %a : f32
    linalg.yield %d : f32
  } -> tensor<16xf32>
  return %inv : tensor<16xf32>
}

// 1 / (max over each row), 1 / (min over each row)
func.func @split() -> (tensor<16xf32>, tensor<16xf32>) {
  %z = call @zeros() : () -> tensor<16x4xf32>
  %s = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %z1 = mesh.shard %z to %s : tensor<16x4xf32>
  %y = call @zeros() : () -> tensor<16x4xf32>
  %y1 = mesh.shard %y to %s : tensor<16x4xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %pinf = arith.constant 0x7F800000 : f32
  %e1 = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %m = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "reduction"]}
      ins(%z1 : tensor<16x4xf32>) outs(%f : tensor<16xf32>) {
    ^bb0(%a: f32, %b: f32):
      %mm = arith.maximumf %a, %b : f32
      linalg.yield %mm : f32
  } -> tensor<16xf32>
  %g = linalg.fill ins(%pinf : f32) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %n = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "reduction"]}
      ins(%y1 : tensor<16x4xf32>) outs(%g : tensor<16xf32>) {
    ^bb0(%a: f32, %b: f32):
      %mm = arith.minimumf %b, %a : f32
      linalg.yield %mm : f32
  } -> tensor<16xf32>
  %im = call @inverse(%m) : (tensor<16xf32>) -> tensor<16xf32>
  %in = call @inverse(%n) : (tensor<16xf32>) -> tensor<16xf32>
  %w = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %im1 = mesh.shard %im to %w : tensor<16xf32>
  %in1 = mesh.shard %in to %w : tensor<16xf32>
  return %im1, %in1 : tensor<16xf32>, tensor<16xf32>
}

// stablehlo reduce with maximum and minimum bodies, rows of 4 split in two:
// [+0 +0 +0 +0], [-0 +0 -0 +0], [+0 -0 -0 -0], [-0 -0 -0 -0] for the max,
// the same with the halves swapped for the min (its own constant)
func.func @hlo() -> (tensor<4xf32>, tensor<4xf32>) {
  %x = "stablehlo.constant"() <{value = dense<[[0.0, 0.0, 0.0, 0.0], [-0.0, 0.0, -0.0, 0.0], [0.0, -0.0, -0.0, -0.0], [-0.0, -0.0, -0.0, -0.0]]> : tensor<4x4xf32>}> : () -> tensor<4x4xf32>
  %y = "stablehlo.constant"() <{value = dense<[[0.0, 0.0, 0.0, 0.0], [-0.0, 0.0, -0.0, 0.0], [-0.0, -0.0, 0.0, -0.0], [-0.0, -0.0, -0.0, -0.0]]> : tensor<4x4xf32>}> : () -> tensor<4x4xf32>
  %s = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %x1 = mesh.shard %x to %s : tensor<4x4xf32>
  %y1 = mesh.shard %y to %s : tensor<4x4xf32>
  %ninf = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
  %pinf = "stablehlo.constant"() <{value = dense<0x7F800000> : tensor<f32>}> : () -> tensor<f32>
  %mx = "stablehlo.reduce"(%x1, %ninf) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%r) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
  %mn = "stablehlo.reduce"(%y1, %pinf) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = "stablehlo.minimum"(%b, %a) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%r) : (tensor<f32>) -> ()
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
  %one = "stablehlo.constant"() <{value = dense<1.0> : tensor<4xf32>}> : () -> tensor<4xf32>
  %imx = "stablehlo.divide"(%one, %mx) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %imn = "stablehlo.divide"(%one, %mn) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %w = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %o1 = mesh.shard %imx to %w : tensor<4xf32>
  %o2 = mesh.shard %imn to %w : tensor<4xf32>
  return %o1, %o2 : tensor<4xf32>, tensor<4xf32>
}
