// scf.index_switch carries each result out of every case and the default
// with one layout, as scf.if does: the cases below return a split value,
// an elementwise op of it and a matmul of it, and the result keeps the
// rows' split with no reshard. Simulated on both solvers, each case taken
// (the index comes from the input, clamped to 0..3: 3 is the default).
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-opt --pass-pipeline="builtin.module(sharding-propagation{solver=sweep}, mesh-partition)" %s -o %t.sweep.mlir
// RUN: %python -c "import numpy as np; r = np.random.default_rng(5); [np.save('%t.k%%d.npy' %% k, np.array(k, dtype=np.int64)) for k in range(4)]; np.save('%t.x.npy', r.standard_normal((8, 8)).astype(np.float32))"
// RUN: mesh-run %t.mlir --compare-with %s -i %t.x.npy -i %t.k0.npy -q | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -i %t.x.npy -i %t.k1.npy -q | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -i %t.x.npy -i %t.k2.npy -q | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -i %t.x.npy -i %t.k3.npy -q | FileCheck %s
// RUN: mesh-run %t.sweep.mlir --compare-with %s -i %t.x.npy -i %t.k2.npy -q | FileCheck %s
// RUN: mesh-opt --mesh-analysis %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=COST
// CHECK: match

// IR-LABEL: func.func @switch(%arg0: tensor<4x8xf32> {mesh.sharding = #mesh.sharding<@mesh, {{\[\[}}0]]>}, %arg1: index)
// IR-NOT: mesh.all_gather
// IR: scf.index_switch %arg1 -> tensor<4x8xf32>
// IR: return %{{.*}} : tensor<4x8xf32>
// COST: note: {{.*}}index-switch.mlir:{{[0-9]+}}:8: 'scf.index_switch' on a value known only at run time: the costlier branch is counted

mesh.mesh @mesh(shape = 2)

func.func @switch(%x: tensor<8x8xf32>, %k: index) -> tensor<8x8xf32> {
  %rows = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %xs = mesh.shard %x to %rows : tensor<8x8xf32>
  %w = arith.constant dense<0.5> : tensor<8x8xf32>
  %r = scf.index_switch %k -> tensor<8x8xf32>
  case 0 {
    scf.yield %xs : tensor<8x8xf32>
  }
  case 1 {
    %a = arith.addf %xs, %xs : tensor<8x8xf32>
    scf.yield %a : tensor<8x8xf32>
  }
  case 2 {
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8x8xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
    %m = linalg.matmul ins(%xs, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
    scf.yield %m : tensor<8x8xf32>
  }
  default {
    %n = arith.negf %xs : tensor<8x8xf32>
    scf.yield %n : tensor<8x8xf32>
  }
  %out = mesh.shard %r to %rows : tensor<8x8xf32>
  return %out : tensor<8x8xf32>
}
