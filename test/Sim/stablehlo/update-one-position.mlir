// A decoder's cache write of one position of a sequence split over the
// devices (`lax.dynamic_update_slice(cache, new, (0, pos, 0))`,
// `cache.at[:, pos].set(new)`) is done in place, as XLA does: each device
// writes its piece only if the position falls in it, instead of gathering
// the cache and slicing it back.  dynamic_update_slice clamps the start so
// that the update fits the whole sequence first, then moves it into the
// piece (a device not holding it writes back what it holds); a scatter's
// index moves by the piece's first position, and a window that leaves the
// piece is dropped whole, as one past either end is.  The positions are
// random in [-8, 8] (8 positions: clamped, or dropped past the ends).
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 3 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 4 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 5 | FileCheck %s
// CHECK: match

mesh.mesh @mesh(shape = 2x2)
func.func @main(%arg0: tensor<2x8x4xf32>, %arg1: tensor<2x1x4xf32>, %arg2: tensor<i32>, %arg3: tensor<2x8x4xf32>, %arg4: tensor<2x4xf32>, %arg5: tensor<1xi32>)
    -> (tensor<2x8x4xf32>, tensor<2x8x4xf32>) {
  %seq = mesh.sharding @mesh split_axes = [[0], [1]] : !mesh.sharding
  %batch = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %cache = mesh.shard %arg0 to %seq : tensor<2x8x4xf32>
  %new = mesh.shard %arg1 to %batch : tensor<2x1x4xf32>
  %cache2 = mesh.shard %arg3 to %seq : tensor<2x8x4xf32>
  %new2 = mesh.shard %arg4 to %batch : tensor<2x4xf32>
  %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %0 = "stablehlo.dynamic_update_slice"(%cache, %new, %c0, %arg2, %c0) : (tensor<2x8x4xf32>, tensor<2x1x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x8x4xf32>
  %1 = "stablehlo.scatter"(%cache2, %arg5, %new2) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0, 1], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1]>, unique_indices = true}> ({
  ^bb0(%old: tensor<f32>, %x: tensor<f32>):
    "stablehlo.return"(%x) : (tensor<f32>) -> ()
  }) : (tensor<2x8x4xf32>, tensor<1xi32>, tensor<2x4xf32>) -> tensor<2x8x4xf32>
  %r0 = mesh.shard %0 to %seq : tensor<2x8x4xf32>
  %r1 = mesh.shard %1 to %seq : tensor<2x8x4xf32>
  return %r0, %r1 : tensor<2x8x4xf32>, tensor<2x8x4xf32>
}

// IR-LABEL: func.func @main(
// IR-NOT: mesh.all_
// IR: %[[P:.*]] = tensor.extract %arg2[] : tensor<i32>
// IR: %[[PI:.*]] = arith.index_cast %[[P]] : i32 to index
// IR: %[[LO:.*]] = arith.maxsi %[[PI]], %{{.*}} : index
// IR: %[[C:.*]] = arith.minsi %[[LO]], %c7 : index
// IR: %[[AT:.*]] = arith.subi %[[C]], %{{.*}} : index
// IR: %[[IN:.*]] = arith.andi
// IR: %[[S:.*]] = tensor.from_elements %{{.*}} : tensor<i32>
// IR: %[[OLD:.*]] = "stablehlo.dynamic_slice"(%arg0, %[[Z:.*]], %[[S]], %[[Z]]) {slice_sizes = array<i64: 1, 1, 4>}
// IR: %[[NEW:.*]] = arith.select %[[IN]], %arg1, %[[OLD]] : tensor<1x1x4xf32>
// IR: "stablehlo.dynamic_update_slice"(%arg0, %[[NEW]], %[[Z]], %[[S]], %[[Z]]) : (tensor<1x4x4xf32>, tensor<1x1x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x4x4xf32>
// IR: %[[WIDE:.*]] = arith.extsi %arg5 : tensor<1xi32> to tensor<1xi64>
// IR: %[[SHIFT:.*]] = tensor.splat %{{.*}} : tensor<1xi64>
// IR: %[[MOVED:.*]] = arith.subi %[[WIDE]], %[[SHIFT]] : tensor<1xi64>
// IR: "stablehlo.scatter"(%arg3, %[[MOVED]], %arg4)
// IR: }) : (tensor<1x4x4xf32>, tensor<1xi64>, tensor<1x4xf32>) -> tensor<1x4x4xf32>
// IR-NOT: mesh.all_
