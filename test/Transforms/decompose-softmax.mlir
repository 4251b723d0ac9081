// decompose-softmax: each linalg.softmax on tensors becomes a max
// reduction (arith.maximumf from -inf, which a split may leave partial), an
// exp of the difference, a sum and a division, at the softmax's location;
// the simulator gives both programs the same bits (test_decompose_softmax.py
// checks NaN and infinite rows too).
// RUN: mesh-opt --decompose-softmax %s | FileCheck %s
// RUN: mesh-opt --decompose-softmax --mlir-print-debuginfo %s | FileCheck %s --check-prefix=LOC
// RUN: mesh-opt --decompose-softmax --mlir-print-debuginfo %s | FileCheck %s --check-prefix=ONLY-HERE
// ONLY-HERE-NOT: loc("-"
// RUN: mesh-opt --decompose-softmax %s -o %t.mlir
// RUN: mesh-run %t.mlir -f rows --compare-with %s --seed 1 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f columns_bf16 --compare-with %s --seed 2 -q | FileCheck %s --check-prefix=SIM
// RUN: mesh-run %t.mlir -f dynamic_middle -i %S/Inputs/softmax-3x5x4.npy --compare-with %s -q | FileCheck %s --check-prefix=SIM
// SIM: match

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1) -> (d1)>

// CHECK-LABEL: func.func @rows(
// CHECK-SAME: %[[X:.*]]: tensor<6x32xf32>
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<6x32xf32>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<6xf32>
// CHECK: %[[LOW:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[M0:.*]] = linalg.fill ins(%[[LOW]] : f32) outs(%[[E]] : tensor<6xf32>)
// CHECK: %[[M:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<6x32xf32>) outs(%[[M0]] : tensor<6xf32>)
// CHECK: arith.maximumf
// CHECK: %[[P:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[M]] : tensor<6x32xf32>, tensor<6xf32>) outs(%[[INIT]] : tensor<6x32xf32>)
// CHECK: arith.subf
// CHECK: math.exp
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[S0:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<6xf32>)
// CHECK: %[[S:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[P]] : tensor<6x32xf32>) outs(%[[S0]] : tensor<6xf32>)
// CHECK: arith.addf
// CHECK: %[[Q:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[P]], %[[S]] : tensor<6x32xf32>, tensor<6xf32>) outs(%[[INIT]] : tensor<6x32xf32>)
// CHECK: arith.divf
// CHECK-NOT: linalg.softmax
// CHECK: return %[[Q]]
// (the printer defines the softmax's location before the module)
// LOC: #[[L:loc[0-9]+]] = loc("{{.*}}decompose-softmax.mlir":[[@LINE+7]]:8)
// LOC-LABEL: func.func @rows
// LOC: arith.constant 0xFF800000 : f32 loc(#[[L]])
// LOC: arith.maximumf {{.*}} loc(#[[L]])
// LOC: } -> tensor<6xf32> loc(#[[L]])
func.func @rows(%x: tensor<6x32xf32>) -> tensor<6x32xf32> {
  %e = tensor.empty() : tensor<6x32xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<6x32xf32>) outs(%e : tensor<6x32xf32>) -> tensor<6x32xf32>
  return %p : tensor<6x32xf32>
}

// Along the first dimension, in bf16 (-inf is 0xFF80).
// CHECK-LABEL: func.func @columns_bf16(
// CHECK: arith.constant 0xFF80 : bf16
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[COL]]], iterator_types = ["reduction", "parallel"]}
// CHECK-NOT: linalg.softmax
// CHECK: return
func.func @columns_bf16(%x: tensor<6x8xbf16>) -> tensor<6x8xbf16> {
  %e = tensor.empty() : tensor<6x8xbf16>
  %p = linalg.softmax dimension(0) ins(%x : tensor<6x8xbf16>) outs(%e : tensor<6x8xbf16>) -> tensor<6x8xbf16>
  return %p : tensor<6x8xbf16>
}

// A dynamic dimension of the rows: their tensor is sized from the input.
// CHECK-LABEL: func.func @dynamic_middle(
// CHECK-SAME: %[[X:.*]]: tensor<3x?x4xf16>
// CHECK: tensor.empty(%{{.*}}) : tensor<3x?x4xf16>
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: %[[N:.*]] = tensor.dim %[[X]], %[[ONE]] : tensor<3x?x4xf16>
// CHECK: tensor.empty(%[[N]]) : tensor<3x?xf16>
// CHECK: arith.constant 0xFC00 : f16
// CHECK-NOT: linalg.softmax
// CHECK: return
func.func @dynamic_middle(%x: tensor<3x?x4xf16>) -> tensor<3x?x4xf16> {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c1 : tensor<3x?x4xf16>
  %e = tensor.empty(%n) : tensor<3x?x4xf16>
  %p = linalg.softmax dimension(2) ins(%x : tensor<3x?x4xf16>) outs(%e : tensor<3x?x4xf16>) -> tensor<3x?x4xf16>
  return %p : tensor<3x?x4xf16>
}
