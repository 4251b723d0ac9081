"""Inputs that used to take MLIR's parser down (stack overflow) or that the
parser and the printer disagreed on: the nesting pre-scan, silent parse
failures, and single-threaded contexts."""

from __future__ import annotations

import pytest

import mesh_dialect
from mesh_dialect.ir import asm
from mesh_dialect.ir.asm import MAX_NESTING, nesting


def _errors(text: str, *, unregistered: bool = True) -> list[tuple[int, int, str]]:
    ctx = mesh_dialect.context(allow_unregistered_dialects=unregistered)
    with pytest.raises(mesh_dialect.DiagnosticError) as info:
        mesh_dialect.parse(text, filename="in.mlir", context=ctx)
    return [(d.line, d.col, d.message) for d in info.value.diagnostics]


def _accepted(text: str) -> bool:
    ctx = mesh_dialect.context(allow_unregistered_dialects=True)
    try:
        mesh_dialect.parse(text, filename="in.mlir", context=ctx)
    except mesh_dialect.DiagnosticError:
        return False
    return True


# -- the nesting pre-scan -------------------------------------------------------


def test_integer_set_comparisons_do_not_hide_levels():
    """Each level holds `affine_set<(d0) : (d0 >= 0)>`: the `>` of `>=` used
    to close a level, so 10,000 levels reached MLIR (SIGSEGV)."""
    level = "[affine_set<(d0) : (d0 >= 0)>, "
    text = '"foo.op"() {a = ' + level * 10000 + "1" + "]" * 10000 + "} : () -> ()\n"
    # Levels: the wrapping module, `{`, then one `[` per level: the 997th
    # `[` is level 999, its `affine_set<` 1000 and the `(` after it 1001.
    col = len('"foo.op"() {a = ') + len(level) * 996 + len("[affine_set<") + 1
    assert _errors(text) == [(1, col, "brackets nest deeper than 1000 levels")]


def test_integer_sets_inside_the_limit_are_accepted():
    level = "[affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d0 - 2 == 0)>, "
    text = '"foo.op"() {a = ' + level * 990 + "1" + "]" * 990 + "} : () -> ()\n"
    assert _accepted(text)


def test_a_run_of_unary_minus_signs_is_a_nesting_level_each():
    """30,000 minus signs and no bracket overflowed MLIR's stack."""
    head = "#m = affine_map<(d0) -> ("
    text = head + "-" * 30000 + 'd0)>\n"foo.op"() {a = #m} : () -> ()\n'
    # The alias is wrapped too (1), `<` (2), `(` (3): the 998th sign is level 1001.
    assert _errors(text) == [(1, len(head) + 998, "unary minus signs and brackets nest deeper than 1000 levels")]


def test_minus_signs_and_parentheses_add_up():
    head = "#m = affine_map<(d0) -> ("
    text = head + "-(" * 15000 + "d0" + ")" * 15000 + ')>\n"foo.op"() {a = #m} : () -> ()\n'
    # Level 1001 is the 499th `(` after 499 signs (3 + 499 + 499 = 1001).
    assert _errors(text) == [(1, len(head) + 2 * 498 + 2, "brackets nest deeper than 1000 levels")]


def test_binary_minus_is_not_nesting():
    text = '#m = affine_map<(d0) -> (d0 - 1 - 2 - 3 - 4)>\n"foo.op"() {a = #m} : () -> ()\n'
    assert nesting(text, limit=8) == (3, text.index("- 1"))  # `<`, `(`, the first `-`


def test_minus_signs_inside_the_limit_parse_to_the_simplified_map():
    text = "#m = affine_map<(d0) -> (" + "-" * 991 + 'd0)>\n"foo.op"() {a = #m} : () -> ()\n'
    ctx = mesh_dialect.context(allow_unregistered_dialects=True)
    module = mesh_dialect.parse(text, context=ctx)
    assert mesh_dialect.print_ir(module) == (
        '#map = affine_map<(d0) -> (-d0)>\nmodule {\n  "foo.op"() {a = #map} : () -> ()\n}\n'
    )


def test_arrow_and_comparison_close_nothing():
    assert nesting("x -> y >= z > w", limit=0) == (0, 0)
    assert nesting("<(d0 >= 0)>", limit=0)[0] == 1  # stops past the limit, at `<`
    assert nesting("(a >= b) [", limit=4) == (1, 0)


@pytest.mark.parametrize(
    "make",
    [
        pytest.param(lambda n: '"foo.op"() {a = ' + "[" * n + "]" * n + "} : () -> ()\n", id="attribute-no-module"),
        pytest.param(
            lambda n: 'module {\n"foo.op"() {a = ' + "[" * n + "]" * n + "} : () -> ()\n}\n", id="attribute-in-module"
        ),
        pytest.param(lambda n: "module {\n" * n + "}\n" * n, id="modules"),
        pytest.param(
            lambda n: '"foo.op"() ' + "({" * (n // 2) + "})" * (n // 2) + " : () -> ()\n", id="generic-regions"
        ),
        pytest.param(lambda n: "func.func private @f() -> " + "tuple<" * n + "i32" + ">" * n + "\n", id="types"),
    ],
)
def test_what_is_accepted_prints_to_what_is_accepted(make):
    """A module 999 levels deep was accepted and its printed form (the
    wrapping module is one more level) refused; custom and generic prints,
    with locations, must parse again near the limit too."""
    for n in range(MAX_NESTING - 6, MAX_NESTING + 2):
        text = make(n)
        if not _accepted(text):
            continue
        ctx = mesh_dialect.context(allow_unregistered_dialects=True)
        module = mesh_dialect.parse(text, context=ctx)
        for generic in (False, True):
            printed = mesh_dialect.print_ir(module, generic=generic, debug_info=True)
            assert _accepted(printed), (n, generic)


def test_refused_once_printed_names_the_deepest_place():
    # 998 `[` in a dict, without a module: 1000 levels as written; its
    # generic print (`"builtin.module"() ({`) has 1001.
    text = '"foo.op"() {a = ' + "[" * 998 + "]" * 998 + "} : () -> ()\n"
    assert _errors(text) == [(1, len('"foo.op"() {a = ') + 998, "brackets nest deeper than 1000 levels once printed")]


# -- parse failures MLIR reports without a word ---------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        pytest.param(
            "mesh.mesh} @m(shape = 2)\n", [(1, 10, "expected a symbol such as @mesh0, found '}'")], id="stray-brace"
        ),
        pytest.param(
            "mesh.mesh=@m(shape = 2)\n",
            [(1, 10, "expected a symbol such as @mesh0, found '=@m(shape'")],
            id="equals-after-name",
        ),
        pytest.param(
            "mesh.mesh @m(shape = 2)\nfunc.func @f() attributes {mesh.shard = 1} {\n  mesh.mesh) @x\n  return\n}\n",
            [(3, 12, "expected a symbol such as @mesh0, found ')'")],
            id="after-an-attribute-named-like-an-op",
        ),
    ],
)
def test_untranslated_custom_op_gets_a_position(text, expected):
    assert _errors(text, unregistered=False) == expected


def test_op_after_a_block_label_is_read_as_an_op():
    """`^bb0(...):` then `mesh.mesh ...` on the next line: the `:` kept the
    op untranslated and MLIR failed with no message at all."""
    text = "  ^bb0(%v: f32, %o: f32):\nmesh.mesh @mesh(shape = 2)\n"
    assert _errors(text, unregistered=False) == [(1, 1, "'builtin.module' op region should have no arguments")]
    text = "func.func @f() {\n  cf.br ^bb1\n^bb1:\n  mesh.mesh @m(shape = 2)\n  return\n}\n"
    module = mesh_dialect.parse(text, context=mesh_dialect.context())
    assert mesh_dialect.print_ir(module) == (
        "module {\n  func.func @f() {\n    cf.br ^bb1\n  ^bb1:  // pred: ^bb0\n"
        "    mesh.mesh @m(shape = 2)\n    return\n  }\n}\n"
    )


# -- threads -------------------------------------------------------------------


def test_contexts_are_single_threaded():
    """Diagnostics from MLIR's worker threads reach Python without the GIL
    (nanobind aborts the process); the contexts the project makes stay on
    one thread."""
    assert mesh_dialect.context().get_num_threads() == 1


def test_errors_from_many_functions_all_arrive():
    one = "func.func @outer{i}() {{\n  func.func @inner() {{\n    return\n  }}\n  return\n}}\n"
    text = "".join(one.format(i=i) for i in range(8))
    message = "'func.func' op symbol's parent must have the SymbolTable trait"
    assert _errors(text, unregistered=False) == [(2 + 6 * i, 3, message) for i in range(8)]


# -- inputs upstream parsers crash on ---------------------------------------------


GENERIC_OP = (
    "func.func @f(%t: tensor<4xf32>) -> tensor<4xf32> {{\n"
    "  %n = linalg.generic {{indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], "
    "iterator_types = [{types}]}} ins(%t : tensor<4xf32>) outs(%t : tensor<4xf32>) {{\n"
    "  ^bb0(%a: f32, %b: f32):\n    linalg.yield %a : f32\n  }} -> tensor<4xf32>\n"
    "  return %n : tensor<4xf32>\n}}\n"
)


@pytest.mark.parametrize("bad", ["-1", "#linalg.iterator_type<parallel>", "[]", "unit"])
def test_linalg_generic_iterator_type_that_is_not_a_string(bad):
    """linalg's parser casts each iterator type to a string unchecked: an
    assertion failure (SIGABRT), in mlir-opt too."""
    text = GENERIC_OP.format(types=bad)
    col = text.split("\n")[1].index(bad) + 1
    message = f"'linalg.generic' iterator type must be a string such as \"parallel\", got {bad}"
    assert _errors(text, unregistered=False) == [(2, col, message)]


def test_linalg_generic_iterator_types_as_strings_and_in_comments_are_fine():
    text = "// linalg.generic {iterator_types = [0]}\n" + GENERIC_OP.format(types='"parallel"')
    module = mesh_dialect.parse(text, context=mesh_dialect.context())
    assert 'iterator_types = ["parallel"]' in mesh_dialect.print_ir(module)


RESOURCES = (
    "mesh.mesh @m(shape = 2)\n"
    "{{-#\n"
    "  dialect_resources: {{\n"
    "    builtin: {{\n"
    '      b0: "0x0400000001000000",\n'
    "      b1: {value}"
)


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("", "the end of the file"),
        ('"0x0400 } } #-}', '"0x0400 } } #-}'),
        ("$ } } #-}", "$"),
        ("@ } } #-}", "@"),
        ("^x } } #-}", "^x"),
        ("# } } #-}", "#"),
        ("12 } } #-}", "12"),
    ],
)
def test_resource_entry_whose_value_does_not_lex(value, shown):
    """MLIR's parser steps over a resource entry's value token without
    checking it lexed (an unclosed string, a stray character, the end of
    the text) and asserts: SIGABRT, in mlir-opt too (found by the fuzzer)."""
    text = RESOURCES.format(value=value)
    col = len("      b1: ") + 1
    assert _errors(text, unregistered=False) == [
        (6, col, f"resource entry 'b1' needs a string or true/false value, got {shown}")
    ]


def test_builtin_blob_aligned_to_zero():
    """A builtin blob whose alignment (its first 4 bytes) is 0 and that holds
    data: MLIR allocates a buffer aligned to 0 and aborts ("out of memory"),
    in mlir-opt too.  Without data, or as another section's string, it is fine."""
    text = RESOURCES.format(value='"0x00000000AABB"\n    }\n  }\n#-}\n')
    message = "resource blob 'b1' must give a power of two as its alignment (its first 4 bytes), got 0"
    assert _errors(text, unregistered=False) == [(6, 11, message)]
    assert _accepted(RESOURCES.format(value='"0x00000000"\n    }\n  }\n#-}\n'))
    external = (
        'mesh.mesh @m(shape = 2)\n{-# external_resources: { mlir_reproducer: { pipeline: "0x00000000AABB" } } #-}\n'
    )
    assert _accepted(external)


def test_resources_with_strings_words_and_comments_are_left_to_mlir():
    """Well-formed entries parse; a word as a value is MLIR's to report."""
    text = RESOURCES.format(value='"0x04000000" // a } { $ comment\n    }\n  }\n#-}\n')
    assert _accepted(text)
    ok = (
        'mesh.mesh @m(shape = 2)\n{-# external_resources: { mlir_reproducer: { pipeline: "x:", '
        '"disable_threading": true } } #-}\n'
    )
    assert _accepted(ok)
    word = RESOURCES.format(value="maybe } } #-}")
    assert _errors(word, unregistered=False) == [(6, 11, "expected hex string blob for key 'b1'")]


REDUCE_OP = (
    "func.func @f(%x: tensor<4x8xi32>, %i: tensor<4xi32>) -> tensor<4xi32> {{\n"
    "  %r = linalg.reduce ins(%x : tensor<4x8xi32>) outs(%i : tensor<4xi32>) dimensions = {dims}\n"
    "    (%in: i32, %acc: i32) {{\n"
    "      %m = arith.maxsi %in, %acc : i32\n"
    "      linalg.yield %m : i32\n"
    "    }}\n"
    "  return %r : tensor<4xi32>\n"
    "}}\n"
)


@pytest.mark.parametrize(
    ("dims", "shown"), [("[(]", "[(]"), ("[1 )]", "[1 )]"), ("[1}", "[1}"), ("[<]", "[<]"), ("[1 {]", "[1 {]")]
)
def test_reduce_dimensions_whose_brackets_do_not_match(dims, shown):
    """A bracket that does not match inside `dimensions = [...]` makes the
    list fail to parse, which MLIR's linalg parser turns into a null
    attribute and an assertion (mlir-opt too; found by mutating a test)."""
    text = REDUCE_OP.format(dims=dims)
    col = text.split("\n")[1].index("[") + 1
    message = f"'linalg.reduce' dimensions must be a flat list of integers, got {shown}"
    assert _errors(text, unregistered=False) == [(2, col, message)]


@pytest.mark.parametrize(
    ("dims", "shown"),
    [
        ("[99999999999999999999999]", "99999999999999999999999"),
        ("[0, 9223372036854775808]", "9223372036854775808"),
        ("[-9223372036854775809]", "-9223372036854775809"),
        ("[0xFFFFFFFFFFFFFFFF]", "0xFFFFFFFFFFFFFFFF"),
    ],
)
def test_reduce_dimensions_past_64_bits(dims, shown):
    """An integer past 64 bits in `dimensions = [...]` fails to parse, which
    MLIR's linalg parser turns into a null attribute and an assertion
    (mlir-opt too; found by the fuzzer): refused at the integer."""
    text = REDUCE_OP.format(dims=dims)
    col = text.split("\n")[1].index(shown) + 1
    message = f"'linalg.reduce' dimensions must be 64-bit integers, got {shown}"
    assert _errors(text, unregistered=False) == [(2, col, message)]


@pytest.mark.parametrize(
    "dims",
    [
        "[1]",
        "[ 1 ]",
        "[]",
        "[0x1]",
        "[9223372036854775807]",
        "[01]",
        "[-0x1]",
        "[-9223372036854775808]",
        "[1, // a comment\n 0]",
    ],
)
def test_reduce_dimensions_that_parse_are_left_to_mlir(dims):
    """Lists of integers (hex, spaces, comments, none) pass the check:
    what MLIR then says of them is its own."""
    assert asm._flat_list_trap(REDUCE_OP.format(dims=dims)) is None


# -- top-level ops the wrapping module missed ---------------------------------------


def test_op_on_the_line_of_an_alias_goes_into_the_module():
    """`#b = 2 mesh.mesh @b(...)`: the op was left outside the wrapping
    module, and MLIR's "found: 2" top-level ops came at position 0:0."""
    text = "#a = 1\n#b = 2 mesh.mesh @b(shape = 2)\nmesh.mesh @c(shape = 2)\n"
    module = mesh_dialect.parse(text, context=mesh_dialect.context())
    assert mesh_dialect.print_ir(module) == "module {\n  mesh.mesh @b(shape = 2)\n  mesh.mesh @c(shape = 2)\n}\n"
    text = '#a = 1 "foo.x"() : () -> ()\n"foo.y"() {a = #a} : () -> ()\n'
    ctx = mesh_dialect.context(allow_unregistered_dialects=True)
    module = mesh_dialect.parse(text, context=ctx)
    assert mesh_dialect.print_ir(module) == (
        'module {\n  "foo.x"() : () -> ()\n  "foo.y"() {a = 1 : i64} : () -> ()\n}\n'
    )


def test_op_after_the_resources_has_a_position():
    text = "{-# #-}\n{-# #-}\nmesh.mesh @c(shape = 2)\n"
    assert _errors(text, unregistered=False) == [(3, 1, "operations must come before the '{-#' resources of the file")]


@pytest.mark.parametrize("number", ["2147483647", "99999999999999999999999999999"])
def test_result_number_past_any_op(number):
    """`%v#N` with N past anything the text can define: MLIR's parser made
    room for N results and ran out of memory (SIGABRT, in mlir-opt too;
    found by the fuzzer).  A number the text could reach is MLIR's to judge."""
    text = (
        "func.func @f(%i: index) -> i64 {\n  %a = arith.index_cast %j#"
        + number
        + " : index to i64\n  return %a : i64\n}\n"
    )
    shown = number if len(number) <= 24 else number[:21] + "..."
    assert _errors(text) == [(2, 25, f"result number {shown} of %j is out of range for this input")]
    small = text.replace("%j#" + number, "%j#3")
    assert _errors(small) == [(2, 25, "use of undeclared SSA value name")]
    # in a comment or a string it is no use
    quiet = "// %j#" + number + '\n"foo.op"() {note = "%j#' + number + '"} : () -> ()\n'
    assert _accepted(quiet)


def test_named_op_body_error_has_a_position():
    """MLIR gives the body it builds for a named linalg op no locations:
    an invalid one (element types it cannot convert) is said at the op."""
    text = (
        "func.func @f(%a: tensor<4xbf16>, %b: tensor<4xf16>, %s: tensor<f16>) -> tensor<f16> {\n"
        "  %d = linalg.dot ins(%b, %b : tensor<4xf16>, tensor<4xf16>) outs(%s : tensor<f16>) -> tensor<f16>\n"
        "  %e = linalg.dot ins(%a, %b : tensor<4xbf16>, tensor<4xf16>) outs(%d : tensor<f16>) -> tensor<f16>\n"
        "  return %e : tensor<f16>\n}\n"
    )
    message = (
        "'linalg.dot' has no valid body for its element types (bf16, f16 -> f16): "
        "'arith.mulf' op requires the same type for all operands and results"
    )
    assert _errors(text, unregistered=False) == [(3, 3, message)]
