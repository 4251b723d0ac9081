// Inputs that took MLIR's parser down or failed without a position: each
// is refused with a diagnostic at the place it goes wrong.
// RUN: mesh-opt --split-input-file --verify-diagnostics --allow-unregistered-dialect %s
// RUN: not mesh-opt --split-input-file --allow-unregistered-dialect %s 2>&1 | FileCheck %s --check-prefix=POS

// A run of unary minus signs nests like brackets (30,000 overflowed the stack).
// POS: parse-limits.mlir:[[@LINE+2]]:1023: error: unary minus signs and brackets nest deeper than 1000 levels
// expected-error@+1 {{unary minus signs and brackets nest deeper than 1000 levels}}
#m = affine_map<(d0) -> (----------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------------d0)>
"foo.op"() {a = #m} : () -> ()

// -----

// linalg's parser casts every iterator type to a string unchecked (SIGABRT).
func.func @f(%t: tensor<4xf32>) -> tensor<4xf32> {
  // POS: parse-limits.mlir:[[@LINE+2]]:108: error: 'linalg.generic' iterator type must be a string
  // expected-error@+1 {{'linalg.generic' iterator type must be a string such as "parallel", got -1}}
  %n = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = [-1]} ins(%t : tensor<4xf32>) outs(%t : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<4xf32>
  return %n : tensor<4xf32>
}

// -----

// A mesh op whose custom syntax cannot be read where it stands: MLIR failed
// without a word ("failed to parse" with no position).
// POS: parse-limits.mlir:[[@LINE+2]]:10: error: expected a symbol such as @mesh0, found '}'
// expected-error@+1 {{expected a symbol such as @mesh0, found '}'}}
mesh.mesh} @m(shape = 2)

// -----

// An op after the file's resources (MLIR: "found: 2" top-level ops, at 0:0).
{-# #-}
// POS: parse-limits.mlir:[[@LINE+2]]:1: error: operations must come before the '{-#' resources of the file
// expected-error@+1 {{operations must come before the '{-#' resources of the file}}
mesh.mesh @c(shape = 2)

// -----

// linalg's parsers read a nested list in `dimensions` or `permutation` as a
// null attribute and abort (found by the fuzzer; mlir-opt aborts too).
func.func @reduce(%a: tensor<2x8xi32>, %f: tensor<2xi32>) -> tensor<2xi32> {
  // POS: parse-limits.mlir:[[@LINE+2]]:86: error: 'linalg.reduce' dimensions must be a flat list of integers, got {{\[\[\[}}1]]]
  // expected-error@+1 {{'linalg.reduce' dimensions must be a flat list of integers, got [[[1]]]}}
  %r = linalg.reduce ins(%a : tensor<2x8xi32>) outs(%f : tensor<2xi32>) dimensions = [[[1]]]
  (%in: i32, %init: i32) {
    %s = arith.addi %in, %init : i32
    linalg.yield %s : i32
  }
  return %r : tensor<2xi32>
}

// -----

func.func @transpose(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) -> tensor<3x2xf32> {
  // POS: parse-limits.mlir:[[@LINE+2]]:92: error: 'linalg.transpose' permutation must be a flat list of integers
  // expected-error@+1 {{'linalg.transpose' permutation must be a flat list of integers, got [[[[0, 1]]]]}}
  %t = linalg.transpose ins(%a : tensor<2x3xf32>) outs(%b : tensor<3x2xf32>) permutation = [[[[0, 1]]]]
  return %t : tensor<3x2xf32>
}

// -----

// linalg.max/min region builders assert on complex elements (found by the
// fuzzer; mlir-opt aborts too).
func.func @max_complex(%a: tensor<4xcomplex<f32>>, %o: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // POS: parse-limits.mlir:[[@LINE+2]]:8: error: 'linalg.max' is not defined on complex elements
  // expected-error@+1 {{'linalg.max' is not defined on complex elements, got tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>}}
  %r = linalg.max ins(%a, %a : tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) outs(%o : tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  return %r : tensor<4xcomplex<f32>>
}

// -----

// linalg.powf's region builder asserts on anything but floats.
func.func @powf_int(%a: tensor<4xi32>, %o: tensor<4xi32>) -> tensor<4xi32> {
  // POS: parse-limits.mlir:[[@LINE+2]]:8: error: 'linalg.powf' needs float elements, got tensor<4xi32>, tensor<4xi32>
  // expected-error@+1 {{'linalg.powf' needs float elements, got tensor<4xi32>, tensor<4xi32>}}
  %r = linalg.powf ins(%a, %a : tensor<4xi32>, tensor<4xi32>) outs(%o : tensor<4xi32>) -> tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

// An empty reassociation group makes MLIR's parser build an empty affine map
// and assert (found by the fuzzer).
func.func @empty_group(%a: tensor<6x4xf32>) -> tensor<2x3x4xf32> {
  // POS: parse-limits.mlir:[[@LINE+2]]:40: error: 'tensor.expand_shape' reassociation groups must not be empty
  // expected-error@+1 {{'tensor.expand_shape' reassociation groups must not be empty, got [[0, 1], []]}}
  %e = tensor.expand_shape %a [[0, 1], []] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
  return %e : tensor<2x3x4xf32>
}

// -----

// So does a negative reassociation index, in either reshape (found by the
// fuzzer; mlir-opt aborts too).
func.func @negative_index(%a: tensor<4x2xf32>) -> tensor<2x2x2xf32> {
  // POS: parse-limits.mlir:[[@LINE+2]]:36: error: 'tensor.expand_shape' reassociation indices must not be negative, got -1
  // expected-error@+1 {{'tensor.expand_shape' reassociation indices must not be negative, got -1}}
  %e = tensor.expand_shape %a [[0, -1], [2]] output_shape [2, 2, 2] : tensor<4x2xf32> into tensor<2x2x2xf32>
  return %e : tensor<2x2x2xf32>
}

// -----

func.func @negative_collapse(%a: tensor<2x2x2xf32>) -> tensor<4x2xf32> {
  // POS: parse-limits.mlir:[[@LINE+2]]:43: error: 'tensor.collapse_shape' reassociation indices must not be negative, got -2
  // expected-error@+1 {{'tensor.collapse_shape' reassociation indices must not be negative, got -2}}
  %c = tensor.collapse_shape %a [[0, 1], [- 2]] : tensor<2x2x2xf32> into tensor<4x2xf32>
  return %c : tensor<4x2xf32>
}

// -----

// An index that wraps MLIR's 32 bits: 2^32 - 1 became -1 and aborted the
// parser, 2^32 became 0 and gave an error about the wrong index (found by
// the fuzzer).
func.func @wrapping_index(%a: tensor<8x8xf32>) -> tensor<2x4x8xf32> {
  // POS: parse-limits.mlir:[[@LINE+2]]:41: error: 'tensor.expand_shape' reassociation indices must be below 2^31, got 4294967295
  // expected-error@+1 {{'tensor.expand_shape' reassociation indices must be below 2^31, got 4294967295}}
  %e = tensor.expand_shape %a [[0, 1], [4294967295]] output_shape [2, 4, 8] : tensor<8x8xf32> into tensor<2x4x8xf32>
  return %e : tensor<2x4x8xf32>
}

// -----

func.func @wrapping_collapse(%a: tensor<2x4x8xf32>) -> tensor<8x8xf32> {
  // POS: parse-limits.mlir:[[@LINE+2]]:38: error: 'tensor.collapse_shape' reassociation indices must be below 2^31, got 4294967296
  // expected-error@+1 {{'tensor.collapse_shape' reassociation indices must be below 2^31, got 4294967296}}
  %c = tensor.collapse_shape %a [[0, 4294967296], [2]] : tensor<2x4x8xf32> into tensor<8x8xf32>
  return %c : tensor<8x8xf32>
}

// -----

// A permutation with no list at all is a null attribute to MLIR's parser.
func.func @no_list(%a: tensor<4x6xf32>, %b: tensor<6x4xf32>) -> tensor<6x4xf32> {
  // POS: parse-limits.mlir:[[@LINE+2]]:91: error: 'linalg.transpose' permutation must be a list of integers such as [0, 1]
  // expected-error@+1 {{'linalg.transpose' permutation must be a list of integers such as [0, 1]}}
  %t = linalg.transpose ins(%a : tensor<4x6xf32>) outs(%b : tensor<6x4xf32>) permutation =]
  return %t : tensor<6x4xf32>
}

// -----

// Valid input the reassociation check must not refuse: a comment inside the
// groups, and an SSA value named like the op whose index list holds a value
// named %c-1 (as MLIR names a constant -1).
func.func @not_negative(%a: tensor<8xf32>) -> (f32, tensor<2x4xf32>) {
  %c-1 = arith.constant 1 : index
  %e = tensor.expand_shape %a [[0, 1]  // was [-1] once, and [] before that
                              ] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  %tensor.collapse_shape = tensor.expand_shape %a [[0, 1]] output_shape [2, 4] : tensor<8xf32> into tensor<2x4xf32>
  %x = tensor.extract %tensor.collapse_shape[%c-1, %c-1] : tensor<2x4xf32>
  return %x, %e : f32, tensor<2x4xf32>
}

// -----

// MLIR's parser steps over a resource entry's value without checking that it
// lexed, and asserts on an unclosed string (found by the fuzzer; mlir-opt
// aborts too).
func.func @resources() {
  return
}
{-#
  dialect_resources: {
    builtin: {
      // POS: parse-limits.mlir:[[@LINE+2]]:13: error: resource entry 'blob' needs a string or true/false value, got "0x0400{{$}}
      // expected-error@+1 {{resource entry 'blob' needs a string or true/false value, got "0x0400}}
      blob: "0x0400
    }
  }
#-}

// -----

// A builtin blob aligned to 0 (its first 4 bytes) that holds data makes MLIR
// ask for a buffer aligned to 0: "out of memory", an abort (mlir-opt too).
func.func @zero_aligned() -> tensor<2xi8> {
  %c = arith.constant dense_resource<blob> : tensor<2xi8>
  return %c : tensor<2xi8>
}
{-#
  dialect_resources: {
    builtin: {
      // POS: parse-limits.mlir:[[@LINE+2]]:13: error: resource blob 'blob' must give a power of two as its alignment (its first 4 bytes), got 0
      // expected-error@+1 {{resource blob 'blob' must give a power of two as its alignment (its first 4 bytes), got 0}}
      blob: "0x00000000AABB"
    }
  }
#-}

// -----

// A result number far past any op's results: MLIR's parser made room for
// that many results of a name not yet defined and ran out of memory
// (SIGABRT, in mlir-opt too; found by the fuzzer).
func.func @f(%i: index) -> i64 {
  // POS: parse-limits.mlir:[[@LINE+2]]:25: error: result number 2147483647 of %j is out of range for this input
  // expected-error@+1 {{result number 2147483647 of %j is out of range for this input}}
  %a = arith.index_cast %j#2147483647 : index to i64
  return %a : i64
}

// -----

// Pads that take a static dimension below 0 (the sum wraps 64 bits, as
// MLIR adds it): MLIR inferred a result type of that size and aborted, in
// the custom syntax's parser and in the generic form's verifier (found by
// the fuzzer).  A dynamic pad entry leaves the size to run time.
func.func @negative_pad(%x: tensor<4x4xf32>, %n: index) -> tensor<4x?xf32> {
  %c = arith.constant 0.0 : f32
  %ok = tensor.pad %x low[0, %n] high[0, -9] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c : f32
  } : tensor<4x4xf32> to tensor<4x?xf32>
  // POS: parse-limits.mlir:[[@LINE+2]]:8: error: 'tensor.pad' result dimension 1 must not be negative, got 4 + 0 + 9223372036854775807 = -9223372036854775805
  // expected-error@+1 {{'tensor.pad' result dimension 1 must not be negative, got 4 + 0 + 9223372036854775807 = -9223372036854775805}}
  %p = tensor.pad %x low[0, 0] high[0, 9223372036854775807] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c : f32
  } : tensor<4x4xf32> to tensor<4x4xf32>
  return %ok : tensor<4x?xf32>
}

// -----

func.func @negative_pad_generic(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %c = arith.constant 0.0 : f32
  // POS: parse-limits.mlir:[[@LINE+2]]:8: error: 'tensor.pad' result dimension 1 must not be negative, got 4 + 0 + -9 = -5
  // expected-error@+1 {{'tensor.pad' result dimension 1 must not be negative, got 4 + 0 + -9 = -5}}
  %p = "tensor.pad"(%x) <{nofold, operandSegmentSizes = array<i32: 1, 0, 0>, static_high = array<i64: 0, -9>, static_low = array<i64: 0, 0>}> ({
  ^bb0(%i: index, %j: index):
    tensor.yield %c : f32
  }) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %p : tensor<4x4xf32>
}
