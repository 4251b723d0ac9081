// MLIR builds the body of a named linalg op itself, without locations: on
// element types it cannot convert between, that body fails verification
// with no position (mlir-opt says <unknown>).  The error names the op, at
// its position, with its element types.
// RUN: mesh-opt --split-input-file --verify-diagnostics %s
// RUN: not mesh-opt --split-input-file %s 2>&1 | FileCheck %s

// bf16 and f16 have the same width: neither extends into the other.
func.func @matmul(%a: tensor<4x4xbf16>, %w: tensor<4x4xf16>, %b: tensor<4x8xf16>, %c: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %ok = linalg.matmul ins(%w, %b : tensor<4x4xf16>, tensor<4x8xf16>) outs(%c : tensor<4x8xf16>) -> tensor<4x8xf16>
  // CHECK: named-op-body-types.mlir:[[@LINE+2]]:3: error: 'linalg.matmul' has no valid body for its element types (bf16, f16 -> f16): 'arith.mulf' op requires the same type for all operands and results
  // expected-error@+1 {{'linalg.matmul' has no valid body for its element types (bf16, f16 -> f16): 'arith.mulf' op requires the same type for all operands and results}}
  %v = linalg.matmul ins(%a, %b : tensor<4x4xbf16>, tensor<4x8xf16>) outs(%ok : tensor<4x8xf16>) -> tensor<4x8xf16>
  return %v : tensor<4x8xf16>
}

// -----

// An elementwise op does not convert at all; mesh ops around it keep the
// position exact.
mesh.mesh @mesh(shape = 2)
func.func @add(%x: tensor<4xf32>, %e: tensor<4xf16>) -> tensor<4xf16> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %y = mesh.shard %x to %s : tensor<4xf32>
  // CHECK: named-op-body-types.mlir:[[@LINE+2]]:3: error: 'linalg.add' has no valid body for its element types (f32, f32 -> f16)
  // expected-error@+1 {{'linalg.add' has no valid body for its element types (f32, f32 -> f16): 'linalg.yield' op type of yield operand 1 ('f32') doesn't match the element type of the enclosing linalg.generic op ('f16')}}
  %r = linalg.add ins(%y, %y : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf16>) -> tensor<4xf16>
  return %r : tensor<4xf16>
}

// -----

// With its indexing maps written out.
func.func @transposed(%a: tensor<8x4xbf16>, %b: tensor<4x8xf16>, %c: tensor<4x8xf16>) -> tensor<4x8xf16> {
  // CHECK: named-op-body-types.mlir:[[@LINE+2]]:3: error: 'linalg.matmul' has no valid body for its element types (bf16, f16 -> f16)
  // expected-error@+1 {{'linalg.matmul' has no valid body for its element types (bf16, f16 -> f16)}}
  %v = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%a, %b : tensor<8x4xbf16>, tensor<4x8xf16>) outs(%c : tensor<4x8xf16>) -> tensor<4x8xf16>
  return %v : tensor<4x8xf16>
}

// -----

// Two ops on one line, the invalid one first: it is parsed alone, and the
// error names its element types.
func.func @first_on_line(%h: tensor<4xf16>, %x: tensor<4xf32>, %e: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: named-op-body-types.mlir:[[@LINE+2]]:3: error: 'linalg.add' has no valid body for its element types (f16, f16 -> f32)
  // expected-error@+1 {{'linalg.add' has no valid body for its element types (f16, f16 -> f32)}}
  %v = linalg.add ins(%h, %h : tensor<4xf16>, tensor<4xf16>) outs(%e : tensor<4xf32>) -> tensor<4xf32> %w = linalg.add ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%v : tensor<4xf32>) -> tensor<4xf32>
  return %w : tensor<4xf32>
}

// -----

// The invalid one second, after a valid one: the position is its own.
func.func @second_on_line(%c: tensor<4xcomplex<f32>>, %x: tensor<4xf32>, %e: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: named-op-body-types.mlir:[[@LINE+2]]:104: error: 'linalg.add' has no valid body for its element types (complex<f32>, complex<f32> -> f32)
  // expected-error@+1 {{'linalg.add' has no valid body for its element types (complex<f32>, complex<f32> -> f32)}}
  %v = linalg.add ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32> %w = linalg.add ins(%c, %c : tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) outs(%v : tensor<4xf32>) -> tensor<4xf32>
  return %w : tensor<4xf32>
}
