// A convolution whose rows read through a window (halos) and whose
// channels a filter's explicit cut reaches: propagation gave the input the
// filter's sharded_dims_offsets beside its halos, a mesh.sharding that does
// not verify (a layout holds halos or offsets, never both).  The input now
// keeps its halos alone; where the filter's cut is the default one the
// pieces line up and the partition simulates equal, and where it is
// another partition names the pieces that cannot.  Found by the fuzzer.
// RUN: mesh-opt --sharding-propagation %s | FileCheck %s --check-prefix=PROP
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 1 | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 2 | FileCheck %s --check-prefix=SIM
// RUN: mesh-opt --split-input-file --verify-diagnostics --sharding-propagation --mesh-partition %S/Inputs/offsets-beside-halos-refused.mlir
// PROP: mesh.sharding @mesh split_axes = {{\[\[}}], [0], [], [1]] halo_sizes = [1, 1, 0, 0] : !mesh.sharding
// PROP: mesh.sharding @mesh split_axes = {{\[\[}}], [], [], [1]] sharded_dims_offsets = [0, 1, 2, 3] : !mesh.sharding
// CHECK: mesh.update_halo %arg0 into %{{.*}} on @mesh split_axes = {{\[\[}}], [0], [], [1]] destination_halo_sizes = [1, 1, 0, 0] : tensor<1x2x6x1xi64> -> tensor<1x4x6x1xi64>
// CHECK: linalg.conv_2d_nhwc_fhwc ins(%{{.*}}, %arg1 : tensor<1x3x6x1xi64>, tensor<3x3x1x1xi64>) outs(%{{.*}} : tensor<1x1x6x3xi64>)
// SIM: match

mesh.mesh @mesh(shape = 2x3)

func.func @f(%x: tensor<1x4x6x3xi64>, %w: tensor<3x3x1x3xi64>) -> tensor<1x2x6x3xi64> {
  %s = mesh.sharding @mesh split_axes = [[], [0], [], [1]] : !mesh.sharding
  %xs = mesh.shard %x to %s annotate_for_users : tensor<1x4x6x3xi64>
  %o = mesh.sharding @mesh split_axes = [[], [], [], [1]] sharded_dims_offsets = [0, 1, 2, 3] : !mesh.sharding
  %ws = mesh.shard %w to %o annotate_for_users : tensor<3x3x1x3xi64>
  %c = arith.constant 0 : i64
  %e = tensor.empty() : tensor<1x2x6x3xi64>
  %z = linalg.fill ins(%c : i64) outs(%e : tensor<1x2x6x3xi64>) -> tensor<1x2x6x3xi64>
  %r = linalg.conv_2d_nhwc_fhwc ins(%xs, %ws : tensor<1x4x6x3xi64>, tensor<3x3x1x3xi64>) outs(%z : tensor<1x2x6x3xi64>) -> tensor<1x2x6x3xi64>
  return %r : tensor<1x2x6x3xi64>
}
