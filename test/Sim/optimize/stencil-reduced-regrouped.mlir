// stencil-by-halo also rewrites an hlo reduce of the rows all_to_alls
// gathered, whose one reader all-reduces it (`_stencil_reduced`): each
// device then reduces its own rows, and the all_reduce adds those up.
// That regroups the terms, so it is refused where regrouping changes the
// result (found by a review; each was a silent mismatch):
// - an all_reduce that converts (i32 terms summed into i64): a device's
//   own rows wrap in i32 where the rows the all_to_alls dealt out do not;
// - a sum of floats narrower than 32 bits (the rule every other regrouping
//   follows): 60000 + 60000 is inf in f16 where 60000 - 60000 is 0.
// An i32 sum the all_reduce keeps in i32 is still rewritten (wrapping
// sums regroup exactly).  Each device reads its own piece from a table.
// RUN: mesh-opt --allow-unregistered-dialect --mesh-optimize-collectives %s -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f widened --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f sum_f16 --compare-with %s -q --seed 1 | FileCheck %s
// RUN: mesh-run --allow-unregistered-dialect %t.mlir -f sum_i32 --compare-with %s -q --seed 1 | FileCheck %s
// CHECK: match
// CHECK-NOT: MISMATCH
// IR-LABEL: func.func @widened(
// IR: mesh.all_to_all
// IR-LABEL: func.func @sum_f16(
// IR: mesh.all_to_all
// IR-LABEL: func.func @sum_i32(
// IR-NOT: mesh.all_to_all
// IR: mesh.all_reduce

mesh.mesh @m(shape = 2)

func.func @widened(%unused: tensor<2x2xi32> {mesh.sharding = #mesh.sharding<@m, [[], [0]]>}) -> (tensor<i64> {mesh.sharding = #mesh.sharding<@m, [[]]>}) {
  %i = mesh.process_linear_index on @m : index
  %t = arith.constant dense<[[[1500000000, 0], [1500000000, 0]], [[0, 0], [0, 0]]]> : tensor<2x2x2xi32>
  %x = tensor.extract_slice %t[%i, 0, 0] [1, 2, 2] [1, 1, 1] : tensor<2x2x2xi32> to tensor<2x2xi32>
  %0 = mesh.all_to_all %x on @m mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<2x2xi32> -> tensor<1x4xi32>
  %1 = "stablehlo.slice"(%0) <{limit_indices = array<i64: 1, 3>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<1x4xi32>) -> tensor<1x3xi32>
  %z = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %2 = "stablehlo.reduce"(%1, %z) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%s) : (tensor<i32>) -> ()
  }) : (tensor<1x3xi32>, tensor<i32>) -> tensor<i32>
  %3 = mesh.all_reduce %2 on @m mesh_axes = [0] : tensor<i32> -> tensor<i64>
  return %3 : tensor<i64>
}

func.func @sum_f16(%unused: tensor<2x2xf16> {mesh.sharding = #mesh.sharding<@m, [[], [0]]>}) -> (tensor<f16> {mesh.sharding = #mesh.sharding<@m, [[]]>}) {
  %i = mesh.process_linear_index on @m : index
  %t = arith.constant dense<[[[60000.0, 0.0], [60000.0, 0.0]], [[-60000.0, 0.0], [-60000.0, 0.0]]]> : tensor<2x2x2xf16>
  %x = tensor.extract_slice %t[%i, 0, 0] [1, 2, 2] [1, 1, 1] : tensor<2x2x2xf16> to tensor<2x2xf16>
  %0 = mesh.all_to_all %x on @m mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<2x2xf16> -> tensor<1x4xf16>
  %1 = "stablehlo.slice"(%0) <{limit_indices = array<i64: 1, 3>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<1x4xf16>) -> tensor<1x3xf16>
  %z = "stablehlo.constant"() <{value = dense<0.0> : tensor<f16>}> : () -> tensor<f16>
  %2 = "stablehlo.reduce"(%1, %z) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%a: tensor<f16>, %b: tensor<f16>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f16>, tensor<f16>) -> tensor<f16>
    "stablehlo.return"(%s) : (tensor<f16>) -> ()
  }) : (tensor<1x3xf16>, tensor<f16>) -> tensor<f16>
  %3 = mesh.all_reduce %2 on @m mesh_axes = [0] : tensor<f16> -> tensor<f16>
  return %3 : tensor<f16>
}

func.func @sum_i32(%unused: tensor<2x2xi32> {mesh.sharding = #mesh.sharding<@m, [[], [0]]>}) -> (tensor<i32> {mesh.sharding = #mesh.sharding<@m, [[]]>}) {
  %i = mesh.process_linear_index on @m : index
  %t = arith.constant dense<[[[1500000000, 7], [1500000000, 0]], [[5, 0], [0, 3]]]> : tensor<2x2x2xi32>
  %x = tensor.extract_slice %t[%i, 0, 0] [1, 2, 2] [1, 1, 1] : tensor<2x2x2xi32> to tensor<2x2xi32>
  %0 = mesh.all_to_all %x on @m mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<2x2xi32> -> tensor<1x4xi32>
  %1 = "stablehlo.slice"(%0) <{limit_indices = array<i64: 1, 3>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<1x4xi32>) -> tensor<1x3xi32>
  %z = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %2 = "stablehlo.reduce"(%1, %z) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%s) : (tensor<i32>) -> ()
  }) : (tensor<1x3xi32>, tensor<i32>) -> tensor<i32>
  %3 = mesh.all_reduce %2 on @m mesh_axes = [0] : tensor<i32> -> tensor<i32>
  return %3 : tensor<i32>
}
