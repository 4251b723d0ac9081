// A cache write of one position along a sequence the devices do not divide
// (10 positions over 4 devices: pieces of 2, 2, 3 and 3; 7 over 2: 3 and 4)
// is still done in place: each device moves the clamped start into its own
// piece, whose size it reads from the piece, and writes only if the start
// falls there; a scatter (`cache.at[:, i].set(new)`) moves its index by the
// piece's first position and drops a window landing outside the piece.
// Before, the solver kept these ops to even pieces and traded the sequence
// split for another with two all_to_alls around each write.
// The positions are random in [-8, 8]; test_sim_stablehlo.py writes every
// position of such a split (and reads it, a dynamic_slice of one element).
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-opt --mesh-analysis %t.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BYTES
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 3 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 4 | FileCheck %s
// CHECK: match

mesh.mesh @mesh(shape = 2x2)
func.func @main(%k: tensor<2x10x4xf32>, %kn: tensor<2x1x4xf32>, %v: tensor<2x7x4xf32>, %vn: tensor<2x1x4xf32>, %pos: tensor<i32>,
                %c: tensor<2x10x4xf32>, %at: tensor<1xi32>, %cn: tensor<2x4xf32>)
    -> (tensor<2x10x4xf32>, tensor<2x7x4xf32>, tensor<2x10x4xf32>) {
  %over_both = mesh.sharding @mesh split_axes = [[], [0, 1]] : !mesh.sharding
  %batch_seq = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %ks = mesh.shard %k to %over_both : tensor<2x10x4xf32>
  %vs = mesh.shard %v to %batch_seq : tensor<2x7x4xf32>
  %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %0 = "stablehlo.dynamic_update_slice"(%ks, %kn, %c0, %pos, %c0) : (tensor<2x10x4xf32>, tensor<2x1x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x10x4xf32>
  %1 = "stablehlo.dynamic_update_slice"(%vs, %vn, %c0, %pos, %c0) : (tensor<2x7x4xf32>, tensor<2x1x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x7x4xf32>
  %cs = mesh.shard %c to %over_both : tensor<2x10x4xf32>
  %2 = "stablehlo.scatter"(%cs, %at, %cn) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0, 1], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1]>}> ({
  ^bb0(%old: tensor<f32>, %new: tensor<f32>):
    "stablehlo.return"(%new) : (tensor<f32>) -> ()
  }) : (tensor<2x10x4xf32>, tensor<1xi32>, tensor<2x4xf32>) -> tensor<2x10x4xf32>
  %r0 = mesh.shard %0 to %over_both : tensor<2x10x4xf32>
  %r1 = mesh.shard %1 to %batch_seq : tensor<2x7x4xf32>
  %r2 = mesh.shard %2 to %over_both : tensor<2x10x4xf32>
  return %r0, %r1, %r2 : tensor<2x10x4xf32>, tensor<2x7x4xf32>, tensor<2x10x4xf32>
}

// IR-LABEL: func.func @main(%arg0: tensor<2x?x4xf32> {mesh.sharding = #mesh.sharding<@mesh, {{.*}}, sharded_dims_offsets = [0, 2, 4, 7, 10]>}
// IR-NOT: mesh.all_
// IR: %[[FIRSTS:.*]] = arith.constant dense<[0, 2, 4, 7]> : tensor<4xindex>
// IR: %[[FIRST:.*]] = tensor.extract %[[FIRSTS]][%{{.*}}] : tensor<4xindex>
// IR: %[[HELD:.*]] = tensor.dim %arg0, %{{.*}} : tensor<2x?x4xf32>
// IR: %[[CLAMPED:.*]] = arith.minsi %{{.*}}, %c9 : index
// IR: %[[AT:.*]] = arith.subi %[[CLAMPED]], %[[FIRST]] : index
// IR: arith.cmpi slt, %[[AT]], %[[HELD]] : index
// IR: %[[OLD:.*]] = "stablehlo.dynamic_slice"(%arg0, {{.*}}) {slice_sizes = array<i64: 2, 1, 4>} : (tensor<2x?x4xf32>, {{.*}}) -> tensor<2x1x4xf32>
// IR: %[[NEW:.*]] = arith.select %{{.*}}, %arg1, %[[OLD]] : tensor<2x1x4xf32>
// IR: "stablehlo.dynamic_update_slice"(%arg0, %[[NEW]], {{.*}}) : (tensor<2x?x4xf32>, tensor<2x1x4xf32>, {{.*}}) -> tensor<2x?x4xf32>
// IR: arith.constant dense<[0, 3]> : tensor<2xindex>
// IR: tensor.dim %arg2, %{{.*}} : tensor<1x?x4xf32>
// IR: arith.minsi %{{.*}}, %c6 : index
// IR: "stablehlo.dynamic_update_slice"(%arg2, {{.*}}) : (tensor<1x?x4xf32>, tensor<1x1x4xf32>, {{.*}}) -> tensor<1x?x4xf32>
// IR: %[[SCATTER_FIRSTS:.*]] = arith.constant dense<[0, 2, 4, 7]> : tensor<4xindex>
// IR: %[[SCATTER_FIRST:.*]] = tensor.extract %[[SCATTER_FIRSTS]][%{{.*}}] : tensor<4xindex>
// IR-NOT: tensor.dim %arg5
// IR: %[[WIDE:.*]] = arith.extsi %arg6 : tensor<1xi32> to tensor<1xi64>
// IR: %[[SHIFT:.*]] = arith.index_cast %[[SCATTER_FIRST]] : index to i64
// IR: %[[SHIFTS:.*]] = tensor.splat %[[SHIFT]] : tensor<1xi64>
// IR: %[[MOVED:.*]] = arith.subi %[[WIDE]], %[[SHIFTS]] : tensor<1xi64>
// IR: "stablehlo.scatter"(%arg5, %[[MOVED]], %arg7)
// IR: }) : (tensor<2x?x4xf32>, tensor<1xi64>, tensor<2x4xf32>) -> tensor<2x?x4xf32>
// IR-NOT: mesh.all_

// BYTES: max - 0 {{[0-9,]+}} 13 0
