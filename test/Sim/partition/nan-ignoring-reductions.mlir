// A max or min that skips NaNs (tosa nan_mode = IGNORE, arith.maxnumf and
// minnumf) is no partial max or min: the mesh reductions propagate NaNs, so
// a device whose piece of a row is all NaN would turn a row the op reduces
// to a number into NaN.  Such a reduced loop stays whole: one all_to_all
// moves its input's split from the columns to the rows it keeps (less than
// gathering the columns); a NaN-propagating max still splits into a partial
// max.  Row 0
// of every input is NaN on the first half of its columns: device 0's piece.
// RUN: mesh-opt --sharding-propagation --mesh-partition %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir --function tosa_max_ignore --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir --function tosa_min_ignore --compare-with %s -q --seed 2 | FileCheck %s
// RUN: mesh-run %t.mlir --function maxnumf --compare-with %s -q --seed 3 | FileCheck %s
// RUN: mesh-run %t.mlir --function minnumf --compare-with %s -q --seed 4 | FileCheck %s
// RUN: mesh-run %t.mlir --function tosa_max_propagate --compare-with %s -q --seed 5 | FileCheck %s
// CHECK: match

#id = affine_map<(i, k) -> (i, k)>
#row = affine_map<(i, k) -> (i)>
mesh.mesh @m(shape = 2)

// x with row 0, columns 0-3, replaced by NaN, split on its columns
func.func private @poisoned(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %first_row = arith.cmpi eq, %i, %c0 : index
    %left = arith.cmpi ult, %k, %c4 : index
    %both = arith.andi %first_row, %left : i1
    %nan = arith.constant 0x7FC00000 : f32
    %v = arith.select %both, %nan, %a : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// IR-LABEL: func.func @tosa_max_ignore
// IR: mesh.all_to_all %{{.*}} on @m mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<4x4xf32> -> tensor<2x8xf32>
// IR-NOT: partial
// IR: return
func.func @tosa_max_ignore(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %y = call @poisoned(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %ys = mesh.shard %y to %s : tensor<4x8xf32>
  %r = tosa.reduce_max %ys {axis = 1 : i32, nan_mode = #tosa.nan_mode<IGNORE>} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  return %r : tensor<4x1xf32>
}

// IR-LABEL: func.func @tosa_min_ignore
// IR: mesh.all_to_all %{{.*}} on @m mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<4x4xf32> -> tensor<2x8xf32>
// IR-NOT: partial
// IR: return
func.func @tosa_min_ignore(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %y = call @poisoned(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %ys = mesh.shard %y to %s : tensor<4x8xf32>
  %r = tosa.reduce_min %ys {axis = 1 : i32, nan_mode = #tosa.nan_mode<IGNORE>} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  return %r : tensor<4x1xf32>
}

// IR-LABEL: func.func @maxnumf
// IR: mesh.all_to_all %{{.*}} on @m mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<4x4xf32> -> tensor<2x8xf32>
// IR-NOT: partial
// IR: return
func.func @maxnumf(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %y = call @poisoned(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %ys = mesh.shard %y to %s : tensor<4x8xf32>
  %nan = arith.constant 0x7FC00000 : f32
  %e = tensor.empty() : tensor<4xf32>
  %init = linalg.fill ins(%nan : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ys : tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maxnumf %acc, %a : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// IR-LABEL: func.func @minnumf
// IR: mesh.all_to_all %{{.*}} on @m mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<4x4xf32> -> tensor<2x8xf32>
// IR-NOT: partial
// IR: return
func.func @minnumf(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %y = call @poisoned(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %ys = mesh.shard %y to %s : tensor<4x8xf32>
  %nan = arith.constant 0x7FC00000 : f32
  %e = tensor.empty() : tensor<4xf32>
  %init = linalg.fill ins(%nan : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.reduce ins(%ys : tensor<4x8xf32>) outs(%init : tensor<4xf32>) dimensions = [1]
    (%a: f32, %acc: f32) {
      %m = arith.minnumf %a, %acc : f32
      linalg.yield %m : f32
    }
  return %r : tensor<4xf32>
}

// IR-LABEL: func.func @tosa_max_propagate
// IR-SAME: partial = max [0]
// IR-NOT: mesh.all_gather
// IR: return
func.func @tosa_max_propagate(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %y = call @poisoned(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = mesh.sharding @m split_axes = [[], [0]] : !mesh.sharding
  %ys = mesh.shard %y to %s : tensor<4x8xf32>
  %r = tosa.reduce_max %ys {axis = 1 : i32} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  return %r : tensor<4x1xf32>
}
