// A tosa.maximum or minimum that skips NaNs (nan_mode = IGNORE) is not the
// combiner of the mesh max or min, which propagate them: its all_reduces
// stay as they are.  a's first element is NaN on device 0 and 1e30 on the
// other: the original gives b's all-reduced max there (the maximum skips
// the NaN all_reduce made of a's); reduced after the maximum, it would be
// 1e30.  A NaN-propagating minimum is still combined.
// RUN: mesh-opt --mesh-optimize-collectives %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir --compare-with %s -q --seed 2 | FileCheck %s
// CHECK: match
// IR-LABEL: func.func @f
// IR: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0] reduction = <max>
// IR: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0] reduction = <max>
// IR: tosa.maximum
// IR: %[[M:.*]] = tosa.minimum
// IR-NEXT: mesh.all_reduce %[[M]] on @mesh mesh_axes = [0] reduction = <min>
// IR-NOT: mesh.all_reduce
// IR: return

mesh.mesh @mesh(shape = 2)
func.func @f(%a: tensor<4xf32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = max [0]>},
             %b: tensor<4xf32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = max [0]>},
             %c: tensor<4xf32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = min [0]>},
             %d: tensor<4xf32> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = min [0]>})
    -> (tensor<4xf32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>},
        tensor<4xf32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>}) {
  // a's first element: NaN on device 0, 1e30 on device 1
  %device = mesh.process_linear_index on @mesh : index
  %c0 = arith.constant 0 : index
  %first = arith.cmpi eq, %device, %c0 : index
  %nan = arith.constant 0x7FC00000 : f32
  %big = arith.constant 1.0e30 : f32
  %poison = arith.select %first, %nan, %big : f32
  %e = tensor.empty() : tensor<4xf32>
  %pa = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %at0 = arith.cmpi eq, %i, %c0 : index
    %v = arith.select %at0, %poison, %x : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  %ra = mesh.all_reduce %pa on @mesh mesh_axes = [0] reduction = max : tensor<4xf32> -> tensor<4xf32>
  %rb = mesh.all_reduce %b on @mesh mesh_axes = [0] reduction = max : tensor<4xf32> -> tensor<4xf32>
  %m = tosa.maximum %ra, %rb {nan_mode = #tosa.nan_mode<IGNORE>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %rc = mesh.all_reduce %c on @mesh mesh_axes = [0] reduction = min : tensor<4xf32> -> tensor<4xf32>
  %rd = mesh.all_reduce %d on @mesh mesh_axes = [0] reduction = min : tensor<4xf32> -> tensor<4xf32>
  %n = tosa.minimum %rc, %rd : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %m, %n : tensor<4xf32>, tensor<4xf32>
}
