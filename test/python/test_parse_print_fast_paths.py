"""The fast paths of parse, verify and print change nothing but speed.

The verifier right after a parse checks one op per line template (ops
filled in from one template have the same name, attributes and types):
it reports what checking by signature reports, and falls back when the
ops it walks do not line up with the translated text. A large module is
printed through MLIR's IR printing into an in-memory file: the text is
`get_asm`'s, also for a module that does not verify. The C-level pre-scans
(resources, nesting, traps) answer as the regexes and counts they replace.
"""

from __future__ import annotations

import itertools
import os
import random
import re
import signal

import pytest
from mlir import ir
from test_syntax_templates import _valid_module

import mesh_dialect
from mesh_dialect.ir import asm, syntax, verifier

# -- the verifier and line templates -----------------------------------------------

_SHARDINGS = (
    "  %s1 = mesh.sharding @m split_axes = [[0]] : !mesh.sharding",
    "  %s2 = mesh.sharding @m split_axes = [[0], [1], [2]] : !mesh.sharding",
    "  %s3 = mesh.sharding @m split_axes = [[0]] partial = max [1] : !mesh.sharding",
    "  %s4 = mesh.sharding @m split_axes = [[0], [0]] : !mesh.sharding",
)
_LINES = (
    # Annotations of one template whose shardings differ (valid, too many
    # dimensions, a max partial of integers, invalid): the template alone
    # must not stand for them.
    "  %a{k} = mesh.shard %x to %s{j} : tensor<2x2xi8>",
    "  %b{k} = mesh.shard %y to %s{j} annotate_for_users : tensor<3x4xf32>",
    "  %c{k} = mesh.all_gather %x on @m mesh_axes = [1] gather_axis = 1 : tensor<2x2xi8> -> tensor<2x8xi8>",
    # Broken, again and again: reported at every op.
    "  %d{k} = mesh.all_gather %x on @m mesh_axes = [1] gather_axis = 1 : tensor<2x2xi8> -> tensor<2x2xi8>",
    "  %e{k} = mesh.all_reduce %y on @m mesh_axes = [5] reduction = <max> : tensor<3x4xf32> -> tensor<3x4xf32>",
    '  %f{k} = "mesh.all_reduce"(%y) {{mesh = @m, mesh_axes = array<i16: 7>, reduction = #mesh.partial<"sum">}}'
    " : (tensor<3x4xf32>) -> tensor<3x4xf32>",
    "  %g{k} = mesh.shift %x on @m mesh_axes = [1] shift_axis = 0 offset = 1 : tensor<2x2xi8> -> tensor<2x2xi8>",
    "  %h{k}:2 = mesh.shard_shape 8x16 %s{j} %n : index, index",
)


def _module(rng: random.Random, ops: int) -> str:
    lines = ["mesh.mesh @m(shape = 2x4)", "func.func @f(%x: tensor<2x2xi8>, %y: tensor<3x4xf32>, %n: index) {"]
    lines += _SHARDINGS
    for k in range(ops):
        lines.append(rng.choice(_LINES).format(k=k, j=rng.randint(1, 4)))
    lines.append("  return\n}\n")
    return "\n".join(lines)


def _violations(module: ir.Operation, order) -> list[tuple[str, str]]:
    return [(str(v.location), v.message) for v in verifier.check(module, order)]


class _Spy:
    """The templates each `_check_ops` ran with."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.seen: list[list | None] = []
        original = verifier._Verifier._check_ops

        def check_ops(inner, others, functions, one_scope):
            self.seen.append(inner.templates)
            return original(inner, others, functions, one_scope)

        monkeypatch.setattr(verifier._Verifier, "_check_ops", check_ops)


@pytest.mark.parametrize("seed", range(30))
def test_templates_report_what_signatures_report(seed, monkeypatch):
    rng = random.Random(seed)
    text = _module(rng, rng.choice((20, 80)))
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(text, context=ctx, verify=False)
    order = syntax.to_generic(text, insertions=asm.wrapper_insertions(text)).op_order()
    assert order is not None
    spy = _Spy(monkeypatch)
    with ctx:
        fast = _violations(module, order)
        assert fast == _violations(module, None)
    assert spy.seen[0] is not None and any(t is not None for t in spy.seen[0])
    assert len(fast) >= 3


@pytest.mark.parametrize("seed", range(10))
def test_parse_reports_the_same_with_and_without_templates(seed, monkeypatch):
    rng = random.Random(seed)
    text = _module(rng, 60)
    outcomes = []
    real = syntax.to_generic
    for templates in (True, False):

        def to_generic(source, templates=templates, **kwargs):
            return real(source, templates=templates, **kwargs)

        monkeypatch.setattr(asm, "to_generic", to_generic)
        with pytest.raises(mesh_dialect.DiagnosticError) as info:
            mesh_dialect.parse(text, filename="in.mlir", context=mesh_dialect.context())
        outcomes.append([(d.line, d.col, d.message, [n.message for n in d.notes]) for d in info.value.diagnostics])
    assert outcomes[0] == outcomes[1]


def _templates_used(text: str, monkeypatch) -> bool:
    spy = _Spy(monkeypatch)
    ctx = mesh_dialect.context()
    try:
        mesh_dialect.parse(text, context=ctx)
    except mesh_dialect.DiagnosticError:
        pass
    return spy.seen[0] is not None


def test_ops_not_lined_up_are_checked_by_signature(monkeypatch):
    """A string that looks like a generic op name but names none: the
    names no longer line up with the ops, so no template is trusted."""
    rng = random.Random(5)
    text = _module(rng, 40)
    assert _templates_used(text, monkeypatch)
    decoy = text.replace("  return", '  "test.op"() {note = "mesh.all_gather"} : () -> ()\n  return')
    ctx = mesh_dialect.context()
    ctx.allow_unregistered_dialects = True
    module = mesh_dialect.parse(decoy, context=ctx, verify=False)
    translation = syntax.to_generic(decoy, insertions=asm.wrapper_insertions(decoy))
    assert "mesh.all_gather" in translation.op_names
    spy = _Spy(monkeypatch)
    with ctx:
        fast = _violations(module, translation.op_order())
        assert fast == _violations(module, None)
    assert spy.seen[0] is None


def test_an_escaped_string_turns_templates_off():
    """`"mesh\\2Eshard"` may be an op name no list holds: op_order gives up."""
    text = _module(random.Random(1), 30).replace("  return", '  "test.op"() {s = "a\\2Eb"} : () -> ()\n  return')
    translation = syntax.to_generic(text, insertions=asm.wrapper_insertions(text))
    assert translation.escaped and translation.op_order() is None


def test_generic_ops_among_templated_ones_line_up(monkeypatch):
    text = _module(random.Random(2), 40)
    assert '"mesh.all_reduce"(' in text
    assert _templates_used(text, monkeypatch)


# -- printing through a file ----------------------------------------------------


def _by_get_asm(module: ir.Operation, generic: bool, debug: bool, verified: bool = True) -> str:
    text = module.get_asm(print_generic_op_form=generic, enable_debug_info=debug, assume_verified=verified)
    if debug:  # locations in the user's text, as print_ir gives them
        text = asm.remap_printed(text, module.context)
    return syntax.to_custom(text, generic=generic)


def test_large_module_prints_as_get_asm_does(monkeypatch):
    used = []
    real = asm._printed_to_file
    monkeypatch.setattr(asm, "_printed_to_file", lambda *a: used.append(real(*a)) or used[-1])
    text = _valid_module(random.Random(11), 400, False)
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(text, filename="big.mlir", context=ctx)
    with ctx:
        for generic, debug in itertools.product((False, True), repeat=2):
            assert mesh_dialect.print_ir(module, generic=generic, debug_info=debug) == _by_get_asm(
                module, generic, debug
            )
    assert len(used) == 4 and all(u is not None for u in used)


def test_small_or_nested_modules_use_get_asm(monkeypatch):
    monkeypatch.setattr(asm, "_printed_to_file", None)  # would fail if called
    ctx = mesh_dialect.context()
    small = mesh_dialect.parse(_valid_module(random.Random(1), 5, False), context=ctx)
    nested = mesh_dialect.parse("module {\n  module {\n  }\n}\n", context=ctx)
    with ctx:
        assert mesh_dialect.print_ir(small) == _by_get_asm(small, False, False)
        inner = nested.regions[0].blocks[0].operations[0].operation
        assert mesh_dialect.print_ir(inner) == _by_get_asm(inner, False, False)


@pytest.mark.parametrize("name", ["@top", "@a.b$d_1", '@"a-b"', '@"a/b"', '@"two words"', '@"' + "x" * 300 + '"'])
def test_module_names_print_as_get_asm_does(name):
    body = "\n".join(_valid_module(random.Random(4), 300, False).splitlines())
    text = f"module {name} {{\n{body}\n}}\n"
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(text, context=ctx)
    with ctx:
        safe = asm._SAFE_SYMBOL.match(name[1:].strip('"')) is not None
        assert (asm._printed_to_file(module, False, False, True) is not None) == safe
        assert mesh_dialect.print_ir(module, debug_info=True) == _by_get_asm(module, False, True)


def test_a_module_that_does_not_verify_prints_as_get_asm_does():
    """MLIR's printer verifies first (print_ir's default) and prints all
    generic if that fails; with assume_verified get_asm does not, and prints
    it."""
    text = _valid_module(random.Random(8), 300, False)
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(text, context=ctx)
    with ctx:
        func = next(op for op in module.regions[0].blocks[0].operations if op.operation.name == "func.func")
        func.operation.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get([], []))
        with pytest.raises(ir.MLIRError):
            module.verify()
        assert asm._printed_to_file(module, False, False, True) is None
        assert mesh_dialect.print_ir(module, assume_verified=True) == _by_get_asm(module, False, False)
        unverified = mesh_dialect.print_ir(module)  # by default MLIR verifies first
        assert unverified == _by_get_asm(module, False, False, verified=False)
        assert unverified.startswith('"builtin.module"()')


# -- the C-level pre-scans ----------------------------------------------------------

_RESOURCES = re.compile(r"^\{-#", re.M)


@pytest.mark.parametrize("seed", range(200))
def test_resources_start_is_the_regexs(seed):
    rng = random.Random(seed)
    text = "".join(rng.choice(("{-#", "\n", " ", "a", "{", "-#", "#-}", "\n{-#")) for _ in range(rng.randint(0, 30)))
    for pos in range(len(text) + 1):
        m = _RESOURCES.search(text, pos)
        assert asm._resources_start(text, pos) == (m.start() if m else len(text))


@pytest.mark.parametrize("seed", range(100))
def test_nesting_answers_as_before(seed):
    """The count over the first 4096 characters only skips a full count
    that could not have vouched for the text."""
    rng = random.Random(seed)
    pieces = ["(", ")", "[", "]", "{", "}", "<", ">", "->", "-", "a" * rng.choice((1, 50)), "\n", '"(("']
    text = "".join(rng.choice(pieces) for _ in range(rng.choice((10, 300, 3000))))
    extra = rng.randint(0, 1)
    for limit in (8, 40, 1000, 4000):
        bound = limit // 4
        if sum(text.count(c) for c in "[{(<-") + extra <= bound or asm._shallow(text, extra, bound):
            before = (extra, 0)
        else:
            before = asm._walk(text, extra, limit)
        assert asm.nesting(text, extra, limit) == before


def test_traps_keep_their_order():
    """Two traps in one text: the linalg one is reported, as before."""
    text = (
        "%0 = tensor.expand_shape %t [[0, 1], []] output_shape [2, 2] : tensor<4xf32> into tensor<2x2xf32>\n"
        "%1 = linalg.generic {indexing_maps = [], iterator_types = [1]} ins() outs(%o : tensor<f32>) {\n}\n"
    )
    assert asm._reassociation_trap(text) is not None and asm._upstream_trap(text) is not None
    with pytest.raises(mesh_dialect.DiagnosticError) as info:
        mesh_dialect.parse(text, context=mesh_dialect.context())
    assert "iterator type" in info.value.diagnostics[0].message


def _caught_signals() -> str:
    with open("/proc/self/status") as status:
        return next(line for line in status if line.startswith("SigCgt"))


@pytest.mark.skipif(not asm._CAN_PRINT_TO_FILE, reason="printing through a file needs memfd and /proc")
def test_printing_through_a_file_leaves_signal_handlers_alone():
    """MLIR's output file installs LLVM's signal handlers: they are taken
    down again, and a handler of the host's still runs."""
    calls = []
    previous = signal.signal(signal.SIGUSR1, lambda *_: calls.append(1))
    try:
        before = _caught_signals()
        ctx = mesh_dialect.context()
        module = mesh_dialect.parse(_valid_module(random.Random(6), 300, False), context=ctx)
        with ctx:
            assert asm._printed_to_file(module, False, False, True) is not None
        assert _caught_signals() == before
        os.kill(os.getpid(), signal.SIGUSR1)
        assert calls == [1]
    finally:
        signal.signal(signal.SIGUSR1, previous)
