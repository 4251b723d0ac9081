"""Alias definitions between top-level ops, which upstream mlir-opt takes:
`parse` reads them (they must not land inside the module wrapped around
the ops), and errors keep the positions the user wrote."""

from __future__ import annotations

import pytest

import mesh_dialect

GENERIC = """\
func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%a : tensor<8xf32>) {
  ^bb0(%o: f32):
    linalg.yield %o : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
"""


def _parse(text: str):
    return mesh_dialect.parse(text, context=mesh_dialect.context(), filename="t.mlir")


def _error(text: str) -> tuple[int, int, str]:
    with pytest.raises(mesh_dialect.DiagnosticError) as info:
        _parse(text)
    first = info.value.diagnostics[0]
    return first.line, first.col, first.message


def test_an_alias_between_two_functions_is_read():
    module = _parse("func.func @g() { return }\n#id = affine_map<(i) -> (i)>\n" + GENERIC)
    assert "affine_map<(d0) -> (d0)>" in mesh_dialect.print_ir(module)


def test_mesh_attribute_aliases_after_a_mesh_are_translated():
    text = """\
#first = affine_map<(i) -> (i)>
mesh.mesh @mesh(shape = 4)
#s = #mesh.sharding<@mesh, [[0]]>   // a comment
#p = #mesh.partial<
  max>
!t = tensor<8xf32>
func.func @h(%a: !t) -> !t attributes {k = #p, s = #s} { return %a : !t }
"""
    printed = mesh_dialect.print_ir(_parse(text))
    assert "attributes {k = #mesh.partial<max>, s = #mesh.sharding<@mesh, [[0]]>}" in printed
    assert "(%arg0: tensor<8xf32>) -> tensor<8xf32>" in printed


def test_an_error_inside_a_moved_alias_is_where_it_was_written():
    text = "func.func @g() { return }\n#id = affine_map<(i) ->\n  (j)>\n" + GENERIC
    assert _error(text) == (3, 4, "use of undeclared identifier")
    text = "mesh.mesh @mesh(shape = 4)\n#s = #mesh.sharding<@mesh, [[0]>\nfunc.func @h() { return }\n"
    assert _error(text)[:2] == (2, 32)


def test_errors_after_a_moved_alias_keep_their_positions():
    text = "mesh.mesh @m(shape = 4)\n#p = 1\nfunc.func @h() {\n  %x = arith.constant 1 : i33x\n  return\n}\n"
    assert _error(text) == (4, 26, "expected non-function type")  # as mlir-opt


def test_an_alias_used_before_it_is_written_is_refused_as_mlir_opt_does():
    text = "func.func @g() attributes {b = #bcd} { return }\n#bcd = 2\nfunc.func @q() { return }\n"
    assert _error(text) == (1, 36, "undefined symbol alias id 'bcd'")
    text = "#a = 1\nfunc.func @g() attributes {b = #a} { return }\n#a = 2\nfunc.func @q() { return }\n"
    assert _error(text) == (3, 1, "redefinition of attribute alias id 'a'")


def test_an_alias_inside_a_function_is_still_an_error():
    assert _error("func.func @h() {\n#p = 1\n  return\n}\n")[:2] == (2, 1)
