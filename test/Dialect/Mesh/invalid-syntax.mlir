// Errors in the custom syntax of mesh ops, one per chunk. Errors MLIR's own
// parser finds in the translated text must point where the user wrote the
// offending token: expected-error only checks the line, so the POS run
// checks line and column as well.
// RUN: mesh-opt --split-input-file --verify-diagnostics %s
// RUN: not mesh-opt %s --split-input-file 2>&1 | FileCheck %s --check-prefix=POS

//===----------------------------------------------------------------------===//
// mesh.mesh
//===----------------------------------------------------------------------===//

// POS: invalid-syntax.mlir:[[@LINE+2]]:26: error: expected a dimension list such as 2x?x4, found '2x'
// expected-error@+1 {{expected a dimension list such as 2x?x4, found '2x'}}
mesh.mesh @mesh0(shape = 2xx3)

// -----

// expected-error@+1 {{expected a dimension list such as 2x?x4, found ')'}}
mesh.mesh @mesh0(shape = )

// -----

// expected-error@+1 {{expected a symbol such as @mesh0, found 'mesh0(shape'}}
mesh.mesh mesh0(shape = 2)

//===----------------------------------------------------------------------===//
// Keywords and attribute values of the collectives
//===----------------------------------------------------------------------===//

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @missing_on(%x: tensor<2x2xi8>) -> tensor<2x4xi8> {
  // POS: invalid-syntax.mlir:[[@LINE+2]]:27: error: expected 'on' in 'mesh.all_gather', found '@mesh0'
  // expected-error@+1 {{expected 'on' in 'mesh.all_gather', found '@mesh0'}}
  %0 = mesh.all_gather %x @mesh0 mesh_axes = [1] gather_axis = 1 : tensor<2x2xi8> -> tensor<2x4xi8>
  return %0 : tensor<2x4xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @missing_gather_axis(%x: tensor<2x2xi8>) -> tensor<2x4xi8> {
  // POS: invalid-syntax.mlir:[[@LINE+2]]:53: error: expected 'gather_axis' in 'mesh.all_gather', found ':'
  // expected-error@+1 {{expected 'gather_axis' in 'mesh.all_gather', found ':'}}
  %0 = mesh.all_gather %x on @mesh0 mesh_axes = [1] : tensor<2x2xi8> -> tensor<2x4xi8>
  return %0 : tensor<2x4xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @missing_root(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  // expected-error@+1 {{expected 'root' in 'mesh.broadcast', found ':'}}
  %0 = mesh.broadcast %x on @mesh0 mesh_axes = [1] : (tensor<2x2xi8>) -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @missing_input(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  // expected-error@+1 {{expected an SSA value such as %0, found 'on'}}
  %0 = mesh.all_reduce on @mesh0 mesh_axes = [1] : tensor<2x2xi8> -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @mesh_without_at(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  // expected-error@+1 {{expected a symbol such as @mesh0, found 'mesh0'}}
  %0 = mesh.all_reduce %x on mesh0 mesh_axes = [1] : tensor<2x2xi8> -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @unknown_reduction(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  // POS: invalid-syntax.mlir:[[@LINE+2]]:66: error: unknown reduction kind 'foo'; expected one of sum, max, min, product, average, bitwise_and, bitwise_or, bitwise_xor, generic
  // expected-error@+1 {{unknown reduction kind 'foo'; expected one of sum, max, min, product, average, bitwise_and, bitwise_or, bitwise_xor, generic}}
  %0 = mesh.all_reduce %x on @mesh0 mesh_axes = [1] reduction = <foo> : tensor<2x2xi8> -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

// The optional parts of a sharding in another order than the syntax's.
mesh.mesh @mesh0(shape = 2x2)
func.func @misordered_parts() {
  // POS: invalid-syntax.mlir:[[@LINE+2]]:68: error: 'partial' must come before 'halo_sizes' in 'mesh.sharding'
  // expected-error@+1 {{'partial' must come before 'halo_sizes' in 'mesh.sharding'}}
  %s = mesh.sharding @mesh0 split_axes = [[0]] halo_sizes = [1, 1] partial = sum [1] : !mesh.sharding
  return
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @unknown_partial_kind() {
  // expected-error@+1 {{unknown reduction kind 'foo'; expected one of sum, max, min}}
  %s = mesh.sharding @mesh0 split_axes = [[0]] partial = foo [1] : !mesh.sharding
  return
}

// -----

// The surface spelling of the attribute, on any op.
// expected-error@+1 {{unknown reduction kind 'foo'; expected one of sum, max, min}}
func.func @unknown_surface_reduction() attributes {kind = #mesh.partial<foo>} {
  return
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @unknown_keyword(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  // POS: invalid-syntax.mlir:[[@LINE+2]]:37: error: expected ':' in 'mesh.all_reduce', found 'mesh_axis'
  // expected-error@+1 {{expected ':' in 'mesh.all_reduce', found 'mesh_axis'}}
  %0 = mesh.all_reduce %x on @mesh0 mesh_axis = [1] : tensor<2x2xi8> -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @unknown_keyword_after_optional_groups(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  // expected-error@+1 {{expected ':' in 'mesh.all_reduce', found 'bogus'}}
  %0 = mesh.all_reduce %x on @mesh0 mesh_axes = [1] bogus : tensor<2x2xi8> -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @repeated_keyword(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  // expected-error@+1 {{expected ':' in 'mesh.all_reduce', found 'reduction'}}
  %0 = mesh.all_reduce %x on @mesh0 mesh_axes = [1] reduction = <sum> reduction = <max> : tensor<2x2xi8> -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @bad_list(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  // expected-error@+1 {{expected an integer, found ']'}}
  %0 = mesh.all_reduce %x on @mesh0 mesh_axes = [1, ] : tensor<2x2xi8> -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @bad_integer(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  // expected-error@+1 {{expected an integer, found 'x'}}
  %0 = mesh.shift %x on @mesh0 mesh_axes = [1] shift_axis = 1 offset = x : tensor<2x2xi8> -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @split_axes_not_nested() {
  // expected-error@+1 {{expected '[', found '0]'}}
  %s = mesh.sharding @mesh0 split_axes = [0] : !mesh.sharding
  return
}

// -----

// expected-error@+1 {{custom op 'mesh.bogus_op' is unknown}}
%0 = mesh.bogus_op @mesh0

//===----------------------------------------------------------------------===//
// SSA operands, reported by MLIR's parser at the user's position
//===----------------------------------------------------------------------===//

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @undefined_operand(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  // POS: invalid-syntax.mlir:[[@LINE+2]]:24: error: use of undeclared SSA value name
  // expected-error@+1 {{use of undeclared SSA value name}}
  %0 = mesh.all_reduce %y on @mesh0 mesh_axes = [1] : tensor<2x2xi8> -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

// After an earlier op of the same line was rewritten.
mesh.mesh @mesh0(shape = 2x2)
func.func @undefined_operand_second_on_line(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  // POS: invalid-syntax.mlir:[[@LINE+2]]:109: error: use of undeclared SSA value name
  // expected-error@+1 {{use of undeclared SSA value name}}
  %0 = mesh.all_reduce %x on @mesh0 mesh_axes = [1] : tensor<2x2xi8> -> tensor<2x2xi8> %1 = mesh.all_reduce %q on @mesh0 mesh_axes = [1] : tensor<2x2xi8> -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

// On a continuation line of an op written over several lines.
mesh.mesh @mesh0(shape = 2x2)
func.func @undefined_operand_multiline(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  %0 = mesh.all_reduce
  // POS: invalid-syntax.mlir:[[@LINE+2]]:10: error: use of undeclared SSA value name
  // expected-error@+1 {{use of undeclared SSA value name}}
         %nope on @mesh0
         mesh_axes = [1] : tensor<2x2xi8> -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

// Inside a list mixing static values and SSA values.
mesh.mesh @mesh0(shape = 2x2)
func.func @undefined_dynamic_root(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  // POS: invalid-syntax.mlir:[[@LINE+2]]:66: error: use of undeclared SSA value name
  // expected-error@+1 {{use of undeclared SSA value name}}
  %0 = mesh.broadcast %x on @mesh0 mesh_axes = [0, 1] root = [1, %nope] : (tensor<2x2xi8>, index) -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @undefined_sharding(%t: tensor<4x8xf32>) {
  // POS: invalid-syntax.mlir:[[@LINE+2]]:25: error: use of undeclared SSA value name
  // expected-error@+1 {{use of undeclared SSA value name}}
  %0 = mesh.shard %t to %nos : tensor<4x8xf32>
  return
}

// -----

// The type written for an operand disagrees with its definition.
mesh.mesh @mesh0(shape = 2x2)
// POS: invalid-syntax.mlir:[[@LINE+5]]:24: error: use of value '%x' expects different type than prior uses: 'tensor<2x4xi8>' vs 'tensor<2x2xi8>'
// POS: invalid-syntax.mlir:[[@LINE+2]]:34: note: prior use here
// expected-note@+1 {{prior use here}}
func.func @operand_type_mismatch(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  // expected-error@+1 {{use of value '%x' expects different type than prior uses: 'tensor<2x4xi8>' vs 'tensor<2x2xi8>'}}
  %0 = mesh.all_reduce %x on @mesh0 mesh_axes = [1] : tensor<2x4xi8> -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
// expected-note@+1 {{prior use here}}
func.func @dynamic_halo_type(%i: index) {
  // POS: invalid-syntax.mlir:[[@LINE+2]]:65: error: use of value '%i' expects different type than prior uses: 'i64' vs 'index'
  // expected-error@+1 {{use of value '%i' expects different type than prior uses: 'i64' vs 'index'}}
  %s = mesh.sharding @mesh0 split_axes = [[0]] halo_sizes = [1, %i] : !mesh.sharding
  return
}

// -----

// Inside the attribute dictionary of a custom op.
mesh.mesh @mesh0(shape = 2x2)
func.func @bad_attr_dict(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  // POS: invalid-syntax.mlir:[[@LINE+2]]:60: error: expected attribute value
  // expected-error@+1 {{expected attribute value}}
  %0 = mesh.all_reduce %x on @mesh0 mesh_axes = [1] {foo = } : tensor<2x2xi8> -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @functional_type_operand_count(%x: tensor<2x2xi8>, %r: index) -> tensor<2x2xi8> {
  // POS: invalid-syntax.mlir:[[@LINE+2]]:67: error: 'mesh.broadcast' has 2 operands but its functional type lists 1 operand types
  // expected-error@+1 {{'mesh.broadcast' has 2 operands but its functional type lists 1 operand types}}
  %0 = mesh.broadcast %x on @mesh0 mesh_axes = [1] root = [%r] : (tensor<2x2xi8>) -> tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @functional_type_result_count(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  // expected-error@+1 {{'mesh.broadcast' has 1 result but its functional type lists 0 result types}}
  %0 = mesh.broadcast %x on @mesh0 mesh_axes = [1] root = [0] : (tensor<2x2xi8>) -> ()
  return %0 : tensor<2x2xi8>
}

// -----

// The error is reported at the token found in place of the type.
mesh.mesh @mesh0(shape = 2x2)
func.func @missing_result_type(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  // expected-error@+2 {{expected '->' in 'mesh.all_reduce', found 'return'}}
  %0 = mesh.all_reduce %x on @mesh0 mesh_axes = [1] : tensor<2x2xi8>
  return %0 : tensor<2x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @missing_functional_result_type(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  // expected-error@+2 {{expected non-function type}}
  %0 = mesh.broadcast %x on @mesh0 mesh_axes = [1] root = [0] : (tensor<2x2xi8>) ->
  return %0 : tensor<2x2xi8>
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @missing_type(%t: tensor<4x8xf32>) {
  %s = mesh.sharding @mesh0 split_axes = [[0]] : !mesh.sharding
  // expected-error@+2 {{expected ':' in 'mesh.shard', found 'return'}}
  %0 = mesh.shard %t to %s
  return
}

// -----

mesh.mesh @mesh0(shape = 2x2)
func.func @unclosed_type(%x: tensor<2x2xi8>) -> tensor<2x2xi8> {
  // POS: invalid-syntax.mlir:[[@LINE+2]]:107: error: expected '>' in tensor type
  // expected-error@+1 {{expected '>' in tensor type}}
  %0 = mesh.shift %x on @mesh0 mesh_axes = [1] shift_axis = 1 offset = 1 : tensor<2x2xi8> -> tensor<2x2xi8
  return %0 : tensor<2x2xi8>
}
