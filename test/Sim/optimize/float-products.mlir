// Products of floats are never regrouped: neither reassociated
// (mulf(R(a), R(b)) -> R(a * b)) nor split into a reduce_scatter over some
// of the reduced axes and an all_reduce over the others.  Regrouped, the
// partial products of terms like 1e30 and 1e-30 reach infinity and zero in
// f32, and infinity times zero is NaN, where the terms multiplied in device
// order give 1.  Products of integers wrap alike in any order and are still
// rewritten.  The functions are per-device programs: each device reads its
// own terms from a table.
// RUN: mesh-opt --mesh-optimize-collectives %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run %t.mlir -f split_f32 --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f reassociate_f32 --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f split_i32 --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run %t.mlir -f reassociate_i32 --compare-with %s -q --seed 1 | FileCheck %s
// CHECK: match

mesh.mesh @mesh(shape = 2x2)
mesh.mesh @pair(shape = 2)

// IR-LABEL: func.func @split_f32
// IR: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [0, 1] reduction = <product> : tensor<8xf32> -> tensor<8xf32>
// IR-NEXT: mesh.all_slice
// IR-NOT: reduce_scatter
// IR: return
func.func @split_f32(%x: tensor<8xf32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>}) -> (tensor<4xf32> {mesh.sharding = #mesh.sharding<@mesh, [[0]]>}) {
  %i = mesh.process_linear_index on @mesh : index
  %t = arith.constant dense<[1.0e30, 1.0e-30, 1.0e30, 1.0e-30]> : tensor<4xf32>
  %v = tensor.extract %t[%i] : tensor<4xf32>
  %a = tensor.splat %v : tensor<8xf32>
  %0 = mesh.all_reduce %a on @mesh mesh_axes = [0, 1] reduction = <product> : tensor<8xf32> -> tensor<8xf32>
  %1 = mesh.all_slice %0 on @mesh mesh_axes = [0] slice_axis = 0 : tensor<8xf32> -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// IR-LABEL: func.func @reassociate_f32
// IR: mesh.all_reduce
// IR: mesh.all_reduce
// IR: arith.mulf
// IR: return
func.func @reassociate_f32(%x: tensor<2xf32> {mesh.sharding = #mesh.sharding<@pair, [[]]>}) -> (tensor<2xf32> {mesh.sharding = #mesh.sharding<@pair, [[]]>}) {
  %i = mesh.process_linear_index on @pair : index
  %ta = arith.constant dense<[[1.0e30, 3.0], [1.0e-30, 0.5]]> : tensor<2x2xf32>
  %tb = arith.constant dense<[[2.0e30, 2.0], [5.0e-31, 4.0]]> : tensor<2x2xf32>
  %a = tensor.extract_slice %ta[%i, 0] [1, 2] [1, 1] : tensor<2x2xf32> to tensor<2xf32>
  %b = tensor.extract_slice %tb[%i, 0] [1, 2] [1, 1] : tensor<2x2xf32> to tensor<2xf32>
  %ra = mesh.all_reduce %a on @pair mesh_axes = [0] reduction = <product> : tensor<2xf32> -> tensor<2xf32>
  %rb = mesh.all_reduce %b on @pair mesh_axes = [0] reduction = <product> : tensor<2xf32> -> tensor<2xf32>
  %r = arith.mulf %ra, %rb : tensor<2xf32>
  return %r : tensor<2xf32>
}

// IR-LABEL: func.func @split_i32
// IR: mesh.reduce_scatter %{{.*}} on @mesh mesh_axes = [0] reduction = <product> scatter_axis = 0 : tensor<8xi32> -> tensor<4xi32>
// IR-NEXT: mesh.all_reduce %{{.*}} on @mesh mesh_axes = [1] reduction = <product> : tensor<4xi32> -> tensor<4xi32>
func.func @split_i32(%x: tensor<8xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>}) -> (tensor<4xi32> {mesh.sharding = #mesh.sharding<@mesh, [[0]]>}) {
  %i = mesh.process_linear_index on @mesh : index
  %t = arith.constant dense<[65537, 3, -7, 100000]> : tensor<4xi32>
  %v = tensor.extract %t[%i] : tensor<4xi32>
  %a = tensor.splat %v : tensor<8xi32>
  %0 = mesh.all_reduce %a on @mesh mesh_axes = [0, 1] reduction = <product> : tensor<8xi32> -> tensor<8xi32>
  %1 = mesh.all_slice %0 on @mesh mesh_axes = [0] slice_axis = 0 : tensor<8xi32> -> tensor<4xi32>
  return %1 : tensor<4xi32>
}

// IR-LABEL: func.func @reassociate_i32
// IR: %[[P:.*]] = arith.muli
// IR-NEXT: mesh.all_reduce %[[P]] on @pair mesh_axes = [0] reduction = <product>
// IR-NOT: mesh.all_reduce
// IR: return
func.func @reassociate_i32(%x: tensor<2xi32> {mesh.sharding = #mesh.sharding<@pair, [[]]>}) -> (tensor<2xi32> {mesh.sharding = #mesh.sharding<@pair, [[]]>}) {
  %i = mesh.process_linear_index on @pair : index
  %ta = arith.constant dense<[[65537, 3], [-70000, 5]]> : tensor<2x2xi32>
  %tb = arith.constant dense<[[123457, 2], [99, -4]]> : tensor<2x2xi32>
  %a = tensor.extract_slice %ta[%i, 0] [1, 2] [1, 1] : tensor<2x2xi32> to tensor<2xi32>
  %b = tensor.extract_slice %tb[%i, 0] [1, 2] [1, 1] : tensor<2x2xi32> to tensor<2xi32>
  %ra = mesh.all_reduce %a on @pair mesh_axes = [0] reduction = <product> : tensor<2xi32> -> tensor<2xi32>
  %rb = mesh.all_reduce %b on @pair mesh_axes = [0] reduction = <product> : tensor<2xi32> -> tensor<2xi32>
  %r = arith.muli %ra, %rb : tensor<2xi32>
  return %r : tensor<2xi32>
}
