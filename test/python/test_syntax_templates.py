"""Line templates in the custom-syntax translation (ir/syntax.py) change
nothing but speed: on random modules of `mesh` ops (random names, shapes,
attributes and layout; reductions, halos, dynamic values, errors) the
template path gives, byte for byte, the text, offset map and diagnostics of
translating every op on its own, both ways. And the C-level nesting bound
(ir/asm.py `_shallow`) never vouches for text deeper than it says.
"""

from __future__ import annotations

import random
import re

import pytest

import mesh_dialect
from mesh_dialect.ir import asm, syntax
from mesh_dialect.ir.schema import (
    FORMATS,
    OPS_BY_NAME,
    REDUCTION_KINDS,
    AttrDict,
    AttrKind,
    Dims,
    DynList,
    FunctionalType,
    Literal,
    Optional,
    Ref,
    TypeOf,
)
from mesh_dialect.ir.text import MeshSyntaxError

# -- random modules ----------------------------------------------------------

_NAME_STYLES = ("%{i}", "%v{i}", "%arg{i}", "%a_b.c{i}", "%x-{i}", "%$q{i}", "%a_rather_long_value_name_{i}", "%{i}#1")


def _name(rng: random.Random) -> str:
    return rng.choice(_NAME_STYLES).format(i=rng.randrange(30))


def _tensor(rng: random.Random) -> str:
    dims = "x".join(rng.choice(("2", "4", "8", "16", "?")) for _ in range(rng.randint(1, 3)))
    return f"{rng.choice(('tensor', 'tensor', 'memref'))}<{dims}x{rng.choice(('f32', 'i8', 'f64'))}>"


def _ints(rng: random.Random, low: int = 0, high: int = 3) -> str:
    return "[" + ", ".join(str(rng.randint(low, high)) for _ in range(rng.randint(0, 3))) + "]"


def _attr(rng: random.Random, kind: AttrKind) -> str:
    if kind is AttrKind.SYMBOL:
        return rng.choice(("@m", "@mesh0", '@"quoted mesh"'))
    if kind is AttrKind.SYMBOL_NAME:
        return rng.choice(("@m", "@grid_1", '@"q m"'))
    if kind is AttrKind.AXES:
        return _ints(rng)
    if kind in (AttrKind.INDEX, AttrKind.I64):
        return str(rng.randint(-2 if kind is AttrKind.I64 else 0, 3))
    if kind is AttrKind.UNIT:
        return ""
    if kind is AttrKind.REDUCTION:
        r = rng.choice(REDUCTION_KINDS)
        return rng.choice((f"<{r}>", r, f"#mesh.partial<{r}>", f"< {r} >"))
    if kind is AttrKind.AXES_ARRAY:
        return "[" + ", ".join(_ints(rng) for _ in range(rng.randint(1, 3))) + "]"
    raise AssertionError(kind)


def _op(rng: random.Random, name: str) -> str:
    """One op in custom syntax: valid syntax, not necessarily valid IR."""
    op = OPS_BY_NAME[name]
    tokens: list[str] = []
    operand_types: list[str] = []

    def emit(elements) -> None:
        for el in elements:
            if isinstance(el, Literal):
                tokens.append(el.text)
            elif isinstance(el, Optional):
                if rng.random() < 0.6:
                    emit(el.elements)
            elif isinstance(el, Ref):
                value = op.operand(el.name)
                if value is not None:
                    tokens.append(_name(rng))
                    operand_types.append("!mesh.sharding" if value.kind.value == "sharding" else _tensor(rng))
                else:
                    text = _attr(rng, op.attr(el.name).kind)
                    if text:
                        tokens.append(text)
            elif isinstance(el, Dims):
                tokens.append("x".join(rng.choice(("2", "4", "?", "16")) for _ in range(rng.randint(1, 3))))
            elif isinstance(el, DynList):
                items = []
                for _ in range(rng.randint(0, 4)):
                    if rng.random() < 0.4:
                        items.append(_name(rng))
                        operand_types.append(rng.choice(("index", "i64")))
                    else:
                        items.append(str(rng.randint(0, 5)))
                tokens.append("[" + ", ".join(items) + "]")
            elif isinstance(el, TypeOf):
                value = op.operand(el.name) or next(r for r in op.results if r.name == el.name)
                count = rng.randint(1, 3) if value.variadic else 1
                kind = "index" if value.kind.value == "index" else _tensor(rng)
                tokens.append(", ".join([kind] * count))
            elif isinstance(el, FunctionalType):
                tokens.append("(" + ", ".join(operand_types) + ") -> " + _tensor(rng))
            elif isinstance(el, AttrDict):
                if rng.random() < 0.15:
                    tokens.append(rng.choice(("{tag = 7 : i32}", "{keep}", '{note = "%a mesh.shard"}', "{}")))

    emit(FORMATS[name])
    if name == "mesh.sharding" and rng.random() < 0.3:
        tokens = tokens[: tokens.index(":")]  # the result type may be left out
    text = name
    for tok in tokens:
        sep = rng.choice((" ", " ", " ", " ", "  ")) if tok not in ("(", ")") else ""
        text += ("" if text.endswith("(") or tok == ")" else sep) + tok
    return text


def _line(rng: random.Random, op: str) -> str:
    results = "" if op.startswith("mesh.mesh ") else f"{_name(rng).split('#')[0]} = "
    return "  " + results + op


def _mutate(rng: random.Random, line: str) -> str:
    """A syntax error, most of the time."""
    tokens = line.split(" ")
    i = rng.randrange(2, len(tokens)) if len(tokens) > 2 else len(tokens) - 1
    choice = rng.randrange(5)
    if choice == 0:
        del tokens[i]
    elif choice == 1:
        tokens[i] = rng.choice(
            ("oops", "[", "]", "<", "=", ":", "->", "%", "999999999999999999999", "#mesh.partial<x>")
        )
    elif choice == 2:
        tokens.insert(i, rng.choice(("extra", "(", "{", "@")))
    elif choice == 3:
        tokens[i] = tokens[i][:-1] or "x"
    else:
        tokens = tokens[:i]
    return " ".join(tokens)


def random_module(rng: random.Random, ops: int = 60, errors: bool = False) -> str:
    """A module repeating a few op shapes with fresh names, laid out with
    the unusual things that must take the exact path now and then."""
    shapes = [_op(rng, rng.choice(list(FORMATS))) for _ in range(rng.randint(2, 8))]
    lines = ["mesh.mesh @m(shape = 2x4)", "func.func @f(%x0: tensor<8x16xf32>) {"]
    for _ in range(ops):
        shape = rng.choice(shapes)
        # Fresh names, the rest of the line kept: the same template key.
        line = _line(rng, re.sub(r"%[\w$.\-]+(?:#\d+)?", lambda m: _name(rng), shape))
        extra = rng.random()
        if extra < 0.03:
            line += "  // a comment with %names mesh.shard"
        elif extra < 0.05:
            line += ' loc("f.mlir":3:4)'
        elif extra < 0.07 and " : " in line:
            head, _, tail = line.rpartition(" : ")
            line = head + "\n      : " + tail  # an op over two lines
        elif extra < 0.09:
            line += "   "
        elif extra < 0.10:
            line = '  "test.op"() {s = "mesh.shard %x"} : () -> ()'
        elif extra < 0.11:
            lines.append("  // %c = mesh.shard %a to %b : tensor<2xf32>")
        elif extra < 0.12:
            line = "  " + line.strip()[:-1]  # a different key that may not parse
        lines.append(line)
        if rng.random() < 0.04:
            # What follows an op whose trailing parts are optional.
            lines.append(rng.choice(("  {tag = 1}", "  : !mesh.sharding", "  , index", "  halo_sizes = [1]", "")))
    if errors:
        i = rng.randrange(len(lines) // 2, len(lines))
        lines[i] = _mutate(rng, lines[i])
    lines.append("  return\n}")
    return "\n".join(lines) + rng.choice(("\n", ""))


# -- the template path against the exact one -----------------------------------


def _generic(text: str, templates: bool):
    try:
        t = syntax.to_generic(text, insertions=asm.wrapper_insertions(text), templates=templates)
    except MeshSyntaxError as e:
        return ("error", e.offset, e.message)
    return (t.generic, t.offsets.gen, t.offsets.orig, t.untranslated)


@pytest.mark.parametrize("seed", range(150))
def test_to_generic_templates_match_exact(seed):
    rng = random.Random(seed)
    text = random_module(rng, ops=rng.choice((20, 60, 150)), errors=seed % 3 == 0)
    fast = _generic(text, True)
    assert fast == _generic(text, False)
    if fast[0] != "error":
        # Positions map back the same, asked of a fresh translation (the
        # anchors inside templated ops are computed at the first question).
        t = syntax.to_generic(text, insertions=asm.wrapper_insertions(text))
        exact = syntax.to_generic(text, insertions=asm.wrapper_insertions(text), templates=False)
        for line in range(1, len(exact.generic_lines.starts) + 1, 7):
            for col in (1, 5, 12, 40, 90):
                assert t.original_position(line, col) == exact.original_position(line, col)


@pytest.mark.parametrize("seed", range(150))
def test_to_custom_templates_match_exact(seed):
    rng = random.Random(seed)
    text = random_module(rng, ops=rng.choice((20, 60, 150)))
    inputs = [text]
    generic = _generic(text, False)
    if generic[0] != "error":
        inputs.append(generic[0])
        # MLIR's own spelling: attributes sorted, no empty `{}`, one result
        # type without parentheses; an unknown op stays generic.
        inputs.append(
            re.sub(r" \{\}", "", generic[0])
            .replace("-> (!mesh.sharding)", "-> !mesh.sharding")
            .replace("mesh.shift", "mesh.nope")
        )
    for source in inputs:
        for generic_form in (False, True):
            assert syntax.to_custom(source, generic=generic_form) == syntax.to_custom(
                source, generic=generic_form, templates=False
            )


# -- whole parses: diagnostics and printing -------------------------------------

_VALID_OPS = (
    "{r} = mesh.all_gather {x} on @m mesh_axes = [1] gather_axis = 1 : tensor<2x2xi8> -> tensor<2x8xi8>",
    "{r} = mesh.all_reduce {y} on @m mesh_axes = [1, 0] reduction = <max> : tensor<3x4xf32> -> tensor<3x4xf64>",
    "{r} = mesh.all_reduce {y} on @m mesh_axes = [0] reduction = #mesh.partial<min> "
    ": tensor<3x4xf32> -> tensor<3x4xf32>",
    "{r} = mesh.reduce_scatter {z} on @m mesh_axes = [1] reduction = <product> scatter_axis = 0 "
    ": tensor<4x2xi8> -> tensor<1x2xi8>",
    "{r} = mesh.broadcast {x} on @m mesh_axes = [0, 1] root = [1, {i}] : (tensor<2x2xi8>, index) -> tensor<2x2xi8>",
    "{r} = mesh.reduce {y} on @m mesh_axes = [1] reduction = <sum> root = [{i}] "
    ": (tensor<3x4xf32>, index) -> tensor<3x4xf32>",
    "{r} = mesh.shift {x} on @m mesh_axes = [1] shift_axis = 1 offset = -1 rotate : tensor<2x2xi8> -> tensor<2x2xi8>",
    "{r} = mesh.sharding @m split_axes = [[0], [1]] halo_sizes = [1, {h}, {h}, 3] : !mesh.sharding",
    "{r} = mesh.sharding @m split_axes = [[0]] partial = max [1]",
    "{r} = mesh.update_halo {t} into {t} on @m split_axes = [[0], [1]] destination_halo_sizes = [{h}, 1, 0, {h}] "
    ": tensor<6x8xf32> -> tensor<6x8xf32>",
    "{r} = mesh.process_linear_index on @m : index",
)
_BROKEN_OPS = (
    # Verifier errors (positions mapped back through the offset map).
    "{r} = mesh.all_gather {x} on @m mesh_axes = [1] gather_axis = 1 : tensor<2x2xi8> -> tensor<2x2xi8>",
    "{r} = mesh.all_reduce {y} on @m mesh_axes = [5] reduction = <max> : tensor<3x4xf32> -> tensor<3x4xf32>",
    # MLIR's errors: an unknown value, a type that does not match its use.
    "{r} = mesh.shift %undefined on @m mesh_axes = [1] shift_axis = 1 offset = 1 : tensor<2x2xi8> -> tensor<2x2xi8>",
    "{r} = mesh.all_gather {y} on @m mesh_axes = [1] gather_axis = 1 : tensor<2x2xi8> -> tensor<2x8xi8>",
)


def _valid_module(rng: random.Random, ops: int, broken: bool, shapes: tuple[str, ...] = ()) -> str:
    args = {k: f"%{k}{rng.randrange(99)}" for k in "xyzthi"}
    head = (
        f"func.func @f({args['x']}: tensor<2x2xi8>, {args['y']}: tensor<3x4xf32>, {args['z']}: tensor<4x2xi8>, "
        f"{args['t']}: tensor<6x8xf32>, {args['h']}: i64, {args['i']}: index) {{"
    )
    lines = ["mesh.mesh @m(shape = 2x4)", head]
    shapes = shapes or tuple(rng.sample(_VALID_OPS, rng.randint(2, len(_VALID_OPS))))
    for k in range(ops):
        lines.append("  " + rng.choice(shapes).format(r=f"%r{k}_{rng.randrange(9)}", **args))
    if broken:
        lines.insert(rng.randrange(3, len(lines)), "  " + rng.choice(_BROKEN_OPS).format(r="%bad", **args))
    lines.append("  return\n}\n")
    return "\n".join(lines)


def _outcome(text: str, monkeypatch, templates: bool):
    real = syntax.to_generic

    def to_generic(source, **kwargs):
        return real(source, templates=templates, **kwargs)

    monkeypatch.setattr(asm, "to_generic", to_generic)
    ctx = mesh_dialect.context()
    try:
        module = mesh_dialect.parse(text, filename="in.mlir", context=ctx)
    except mesh_dialect.DiagnosticError as e:
        return [(d.filename, d.line, d.col, d.message) for d in e.diagnostics]
    with ctx:
        return [
            syntax.to_custom(module.operation.get_asm(enable_debug_info=debug), generic=generic, templates=templates)
            for debug in (False, True)
            for generic in (False, True)
        ]


@pytest.mark.parametrize("seed", range(40))
def test_parse_and_print_match_exact(seed, monkeypatch):
    rng = random.Random(seed)
    text = _valid_module(rng, ops=rng.choice((10, 40)), broken=seed % 2 == 1)
    fast = _outcome(text, monkeypatch, True)
    assert fast == _outcome(text, monkeypatch, False)
    assert seed % 2 == 1 or isinstance(fast[0], str)  # the valid ones parse


def test_templates_are_used(monkeypatch):
    """The exact parser and printer run about twice per op shape, not once
    per op (a template path that always fell back would pass the others)."""
    calls = {"parse": 0, "print": 0}
    real_parse, real_print = syntax._parse_elements, syntax.print_custom_op

    def parse_elements(cur, op, elements, parsed):
        calls["parse"] += elements is FORMATS[op.full_name]  # not the optional groups inside
        return real_parse(cur, op, elements, parsed)

    def print_custom_op(*args):
        calls["print"] += 1
        return real_print(*args)

    monkeypatch.setattr(syntax, "_parse_elements", parse_elements)
    monkeypatch.setattr(syntax, "print_custom_op", print_custom_op)
    shapes = _VALID_OPS[:5]
    text = _valid_module(random.Random(7), 300, False, shapes)
    module = mesh_dialect.parse(text, context=mesh_dialect.context())
    assert calls["parse"] <= 2 * (len(shapes) + 1)
    printed = mesh_dialect.print_ir(module)
    assert calls["print"] <= 3 * (len(shapes) + 1)
    assert printed.count(" = mesh.") == 300 and '"mesh.' not in printed


# -- the nesting bound ------------------------------------------------------------


def _nested_text(rng: random.Random) -> str:
    pieces = ["(", ")", "[", "]", "{", "}", "<", ">", "->", ">=", "-", " - ", "a", " ", '"(["', "// ((\n", "\n", '"']
    return "".join(rng.choice(pieces) for _ in range(rng.randint(0, 60)))


@pytest.mark.parametrize("seed", range(400))
def test_shallow_bound_is_sound(seed):
    rng = random.Random(seed)
    text = _nested_text(rng)
    extra = rng.randint(0, 1)
    deepest, _ = asm._walk(text, extra, 10**9)
    for bound in range(0, 12):
        if asm._shallow(text, extra, bound):
            assert deepest <= bound, (text, bound)
    # On text without surprises, the bound is exact up to the rounds of pairs.
    assert asm._shallow("(" * 5 + ")" * 5, 0, 5)


def test_large_shallow_module_skips_the_walk(monkeypatch):
    """A 100k-character module is vouched for without the token walk."""
    monkeypatch.setattr(asm, "_walk", None)
    text = _valid_module(random.Random(3), 800, False)
    assert len(text) > 80_000
    assert asm._depth(text) == (1, 0)
