"""The Python API: load, parse, print, verify, and run passes in a caller's
own PassManager."""

import pytest
from mlir import ir
from mlir.passmanager import PassManager

import mesh_dialect
from mesh_dialect import MeshCanonicalize

SOURCE = """\
mesh.mesh @m(shape = 2x1)
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mesh.all_reduce %x on @m mesh_axes = [1] : tensor<4xf32> -> tensor<4xf32>
  %1 = mesh.all_reduce %0 on @m mesh_axes = [0] reduction = <max> : tensor<4xf32> -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
"""


def test_load_is_idempotent_on_a_callers_context():
    ctx = ir.Context()
    assert not mesh_dialect.is_loaded(ctx)
    assert mesh_dialect.load_dialect(ctx) is ctx
    assert mesh_dialect.is_loaded(ctx)
    mesh_dialect.load_dialect(ctx)  # a second load changes nothing
    with ctx:
        assert ctx.is_registered_operation("mesh.all_gather")
        assert str(ir.Type.parse("!mesh.sharding")) == "!mesh.sharding"


def test_load_uses_the_current_context():
    with ir.Context() as ctx:
        mesh_dialect.load_dialect()
        assert mesh_dialect.is_loaded(ctx)


def test_parse_and_print_custom_syntax():
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(SOURCE, context=ctx)
    text = mesh_dialect.print_ir(module)
    assert "%0 = mesh.all_reduce %arg0 on @m mesh_axes = [1] : tensor<4xf32> -> tensor<4xf32>" in text
    assert "%1 = mesh.all_reduce %0 on @m mesh_axes = [0] reduction = <max> : tensor<4xf32> -> tensor<4xf32>" in text
    generic = mesh_dialect.print_ir(module, generic=True)
    assert (
        '%0 = "mesh.all_reduce"(%arg0) {mesh = @m, mesh_axes = array<i16: 1>, reduction = #mesh.partial<sum>}'
        in generic
    )


def test_print_with_debug_info_names_the_users_file():
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(SOURCE, filename="model.mlir", context=ctx)
    text = mesh_dialect.print_ir(module, debug_info=True)
    assert 'loc("model.mlir":3:8)' in text  # the first all_reduce: line 3, column 8


def test_parse_error_is_a_diagnostic_with_the_users_position():
    ctx = mesh_dialect.context()
    bad = SOURCE.replace("mesh_axes = [1]", "mesh_axes = [5]")
    with pytest.raises(mesh_dialect.DiagnosticError) as info:
        mesh_dialect.parse(bad, filename="bad.mlir", context=ctx)
    (d,) = info.value.diagnostics
    assert (d.severity, d.filename, d.line, d.col) == ("error", "bad.mlir", 3, 8)
    assert d.message == "'mesh.all_reduce' op mesh axis 5 is out of range for mesh @m of rank 2"
    assert str(info.value).startswith("bad.mlir:3:8: error: 'mesh.all_reduce' op mesh axis 5")


def test_syntax_error_points_into_the_custom_op():
    ctx = mesh_dialect.context()
    bad = SOURCE.replace("reduction = <max>", "reduction = <maximum>")
    with pytest.raises(mesh_dialect.DiagnosticError) as info:
        mesh_dialect.parse(bad, filename="bad.mlir", context=ctx)
    (d,) = info.value.diagnostics
    assert (d.line, d.col) == (4, 62)  # the word after "<"
    assert d.message.startswith("unknown reduction kind 'maximum'")


def test_verify_reports_rules_broken_after_building():
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(SOURCE, context=ctx)
    mesh_dialect.verify(module)  # valid: no exception
    with ctx:
        func = module.regions[0].blocks[0].operations[1]
        reduce = func.regions[0].blocks[0].operations[0]
        reduce.attributes["mesh_axes"] = ir.DenseI16ArrayAttr.get([0, 0])
    with pytest.raises(mesh_dialect.DiagnosticError) as info:
        mesh_dialect.verify(module)
    assert [d.message for d in info.value.diagnostics] == [
        "'mesh.all_reduce' op mesh axis 0 appears more than once in mesh_axes"
    ]


def test_pass_runs_in_a_callers_pass_manager_next_to_upstream_passes():
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(SOURCE, context=ctx)
    with ctx:
        pm = PassManager("builtin.module")
        MeshCanonicalize().add_to(pm)
        pm.add("canonicalize")
        pm.run(module)
    text = mesh_dialect.print_ir(module)
    # The all_reduce over the size-1 axis folds away; the other stays.
    assert "mesh.all_reduce %arg0 on @m mesh_axes = [0] reduction = <max>" in text
    assert text.count("mesh.all_reduce") == 1


def test_pass_is_a_plain_callable_for_pass_manager_add():
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(SOURCE, context=ctx)
    with ctx:
        pm = PassManager("builtin.module")
        pm.add(MeshCanonicalize(fold_collectives=False), name="MeshCanonicalize", argument="mesh-canonicalize")
        pm.run(module)
    assert mesh_dialect.print_ir(module).count("mesh.all_reduce") == 2


def test_pass_error_does_not_escape_as_a_python_exception():
    class Exploding(mesh_dialect.Pass):
        ARGUMENT = "test-exploding"

        def run(self, module):
            raise RuntimeError("boom")

    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(SOURCE, context=ctx)
    with ctx:
        pm = PassManager("builtin.module")
        Exploding().add_to(pm)
        with pytest.raises(ir.MLIRError) as info:
            pm.run(module)
    assert [d.message for d in info.value.error_diagnostics] == [
        "internal error in pass 'test-exploding': RuntimeError: boom"
    ]


def test_registered_passes_have_options_from_their_fields():
    cls = mesh_dialect.PASSES["mesh-canonicalize"]
    assert [f.name for f in cls.options()] == ["fold_collectives", "fold_queries", "cse", "dce"]
    p = cls.from_options("fold-collectives=false dce=0")
    assert (p.fold_collectives, p.fold_queries, p.cse, p.dce) == (False, True, True, False)
    with pytest.raises(mesh_dialect.transforms.OptionError, match="has no option 'nope'"):
        cls.from_options("nope=1")
    with pytest.raises(mesh_dialect.transforms.OptionError, match="must be true or false, got 'maybe'"):
        cls.from_options("cse=maybe")


def test_readme_builder_example():
    from mesh_dialect.ir import ops

    ctx = mesh_dialect.context()
    with ctx, ir.Location.unknown():
        m = ir.Module.create()
        with ir.InsertionPoint(m.body):
            ops.mesh("mesh0", [2, 4])
            ops.sharding("mesh0", [[0], [1]])
    mesh_dialect.verify(m.operation)
    assert mesh_dialect.print_ir(m.operation) == (
        "module {\n"
        "  mesh.mesh @mesh0(shape = 2x4)\n"
        "  %0 = mesh.sharding @mesh0 split_axes = [[0], [1]] : !mesh.sharding\n"
        "}\n"
    )


def test_pass_options_are_type_checked_from_python():
    with pytest.raises(
        mesh_dialect.transforms.OptionError, match="option 'dce' of pass 'mesh-canonicalize' must be a bool, got 'no'"
    ):
        MeshCanonicalize(dce="no")


def test_parse_without_a_context_says_so():
    with pytest.raises(ValueError, match="parse needs an MLIR context"):
        mesh_dialect.parse("mesh.mesh @m(shape = 2)")


def test_columns_count_characters_after_non_ascii_text():
    ctx = mesh_dialect.context(allow_unregistered_dialects=True)
    with pytest.raises(mesh_dialect.DiagnosticError) as info:
        mesh_dialect.parse('"foo.bar"() {a = "ééééé"} : () -> () é\n', filename="u.mlir", context=ctx)
    (d,) = info.value.diagnostics
    assert (d.line, d.col, d.message) == (1, 38, "unexpected character")


def test_deeply_nested_types_are_refused_before_mlir_sees_them():
    ctx = mesh_dialect.context()
    text = "func.func private @f() -> " + "tuple<" * 5000 + "i32" + ">" * 5000
    with pytest.raises(mesh_dialect.DiagnosticError) as info:
        mesh_dialect.parse(text, filename="deep.mlir", context=ctx)
    (d,) = info.value.diagnostics
    # Inside the wrapping module (a level), the 1000th "<" opens level 1001,
    # at column 26 + 6 * 1000.
    assert (d.line, d.col, d.message) == (1, 6026, "brackets nest deeper than 1000 levels")


def test_verify_reports_every_op_that_breaks_a_rule_and_checks_repeated_ones_once():
    """The verifier skips ops with the signature of one that passed, never
    ones that failed: three identical bad annotations give three errors, and
    an annotation with the same types but another sharding is still checked."""
    text = """mesh.mesh @mesh(shape = 2)
func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  %ok = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %bad = mesh.sharding @mesh split_axes = [[], [0]] : !mesh.sharding
  %a = mesh.shard %x to %ok : tensor<3xf32>
  %b = mesh.shard %a to %ok : tensor<3xf32>
  %c = mesh.shard %b to %bad : tensor<3xf32>
  %d = mesh.shard %c to %bad : tensor<3xf32>
  %e = mesh.shard %d to %bad : tensor<3xf32>
  return %e : tensor<3xf32>
}
"""
    ctx = mesh_dialect.context()
    with pytest.raises(mesh_dialect.DiagnosticError) as info:
        mesh_dialect.parse(text, context=ctx)
    messages = [(d.line, d.message) for d in info.value.diagnostics]
    rule = "'mesh.shard' op sharding splits 2 tensor dimensions but the tensor has rank 1"
    assert messages == [(7, rule), (8, rule), (9, rule)]


def test_positions_of_a_module_do_not_move_when_another_context_parses_the_same_name():
    """Printed locations and verifier positions of a parsed module stay in
    its own text after another module of the same (default) file name is
    parsed in another context, with a line the translation rewrites."""
    text = (
        "mesh.mesh @m(shape = 2x4)\n"
        "func.func @f(%a: tensor<8x16xf32>) -> tensor<8x16xf32> {\n"
        "  %s = mesh.sharding @m split_axes = [[7]] : !mesh.sharding\n"
        "  %b = mesh.shard %a to %s : tensor<8x16xf32>\n"
        "  return %b : tensor<8x16xf32>\n"
        "}\n"
    )
    other = "module {\n  mesh.mesh @x(shape = 4) mesh.mesh @y(shape = 2)\n}\n"
    module = mesh_dialect.parse(text, context=mesh_dialect.context(), verify=False)
    printed = mesh_dialect.print_ir(module, debug_info=True)
    assert 'loc("<string>":3:8)' in printed
    mesh_dialect.parse(other, context=mesh_dialect.context())
    assert mesh_dialect.print_ir(module, debug_info=True) == printed
    with pytest.raises(mesh_dialect.DiagnosticError) as info:
        mesh_dialect.verify(module)
    first = info.value.diagnostics[0]
    assert (first.line, first.col) == (3, 8)
    assert first.message == "'mesh.sharding' op mesh axis 7 is out of range for mesh @m of rank 2"


def test_a_known_dialect_named_only_in_a_string_or_comment_leaves_the_context_as_it_was():
    """`parse` lets the caller's context accept unregistered dialects only
    for text holding stablehlo/mhlo/chlo/sdy ops or attributes, not for a
    string or comment that names one."""
    ctx = mesh_dialect.context()
    mesh_dialect.parse('func.func @f() attributes {note = "stablehlo.add"} {\n  return  // sdy.mesh\n}\n', context=ctx)
    assert not ctx.allow_unregistered_dialects
    with pytest.raises(ir.MLIRError):
        ir.Module.parse('"bogus.op"() : () -> ()', ctx)
    mesh_dialect.parse(
        "func.func @g(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
        '  %b = "stablehlo.add"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>\n'
        "  return %b : tensor<2xf32>\n}\n",
        context=ctx,
    )
    assert ctx.allow_unregistered_dialects


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda c: mesh_dialect.parse(b"module {}", context=c),
            "parse takes the module's text as a str (decode bytes first), got bytes",
        ),
        (lambda c: mesh_dialect.parse(None, context=c), "parse takes the module's text as a str, got NoneType"),
        (lambda c: mesh_dialect.parse("module {}", context="c"), "parse's context must be an ir.Context, got str"),
        (
            lambda c: mesh_dialect.parse("module {}", filename=None, context=c),
            "parse's filename must be a str, got NoneType",
        ),
        (
            lambda c: mesh_dialect.print_ir("module {}"),
            "print_ir takes an ir.Operation, an op view or an ir.Module, got str",
        ),
        (lambda c: mesh_dialect.verify(None), "verify takes an ir.Operation, an op view or an ir.Module, got NoneType"),
        (lambda c: mesh_dialect.load_dialect("c"), "load_dialect takes an ir.Context, got str"),
        (
            lambda c: mesh_dialect.pass_manager(None, context=c),
            "pass_manager takes the pipeline as a str, got NoneType",
        ),
        (
            lambda c: mesh_dialect.register_pass(int),
            "register_pass takes a subclass of mesh_dialect.transforms.Pass, got <class 'int'>",
        ),
    ],
)
def test_public_calls_name_an_argument_of_the_wrong_kind(call, message):
    with pytest.raises(TypeError) as info:
        call(mesh_dialect.context())
    assert str(info.value) == message


def test_parse_of_text_with_a_lone_surrogate_is_a_located_diagnostic():
    with pytest.raises(mesh_dialect.DiagnosticError) as info:
        mesh_dialect.parse('func.func @f() attributes {a = "\udc80"} {\n  return\n}\n', context=mesh_dialect.context())
    (d,) = info.value.diagnostics
    assert (d.line, d.col) == (1, 33)
    assert d.message == "text is not valid Unicode: lone surrogate '\\udc80' has no UTF-8 encoding"
