"""Generate `ops.py`, the typed Python builders of every `mesh` op, from `schema.OPS`.

    python -m mesh_dialect.ir.gen_ops           # rewrite ops.py
    python -m mesh_dialect.ir.gen_ops --check   # exit 1 when ops.py is stale

The builders are generated rather than written by hand so that adding an op,
an attribute or a default to the schema cannot leave them behind; `--check`
runs in the tests to catch a forgotten regeneration.

Conventions the generator derives from the schema (and documents in the
generated module): result types that the op fixes (index, i64,
`!mesh.sharding`) or that its custom syntax implies from an operand are not
parameters; a `dynlist(...)` pair of static attribute and dynamic operand
group becomes one parameter of ints and Values; attributes with a default
are keyword-only.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .schema import (
    FORMATS,
    OPS,
    AttrDef,
    AttrKind,
    DynList,
    FunctionalType,
    OpDef,
    Optional,
    Ref,
    TypeKind,
    TypeOf,
)

OUTPUT = Path(__file__).with_name("ops.py")
COMMAND = "python -m mesh_dialect.ir.gen_ops"

_FIXED_TYPES = {
    TypeKind.INDEX: "ir.IndexType.get(ctx)",
    TypeKind.I64: "ir.IntegerType.get_signless(64, ctx)",
    TypeKind.SHARDING: 'ir.Type.parse("!mesh.sharding", ctx)',
}
_SHAPED = (TypeKind.TENSOR, TypeKind.TENSOR_OR_MEMREF)

# Attribute kind -> (parameter hint, property hint, encoder, decoder).
_KINDS: dict[AttrKind, tuple[str, str, str, str]] = {
    AttrKind.SYMBOL: ("str", "str", "_symbol_attr", "_read_symbol"),
    AttrKind.SYMBOL_NAME: ("str", "str", "_string_attr", "_read_string"),
    AttrKind.AXES: ("Sequence[int]", "tuple[int, ...]", "_axes_attr", "_read_axes"),
    AttrKind.SHAPE: ("Sequence[int | None]", "tuple[int | None, ...]", "_shape_attr", "_read_shape"),
    AttrKind.STATIC_LIST: ("Sequence[int | ir.Value]", "tuple[int, ...]", "_i64_list_attr", "_read_i64s"),
    AttrKind.INDEX: ("int", "int", "_index_attr", "_read_int"),
    AttrKind.I64: ("int", "int", "_i64_attr", "_read_int"),
    AttrKind.UNIT: ("bool", "bool", "_unit_attr", ""),
    AttrKind.REDUCTION: ("str", "str", "_reduction_attr", "_read_reduction"),
    AttrKind.AXES_ARRAY: (
        "Sequence[Sequence[int]]",
        "tuple[tuple[int, ...], ...]",
        "_axes_array_attr",
        "_read_axes_array",
    ),
}

# Names OpView already uses: a generated accessor must not hide them.
_OPVIEW_NAMES = frozenset(
    "attached attributes build_generic clone context detach_from_parent erase get_asm"
    " is_before_in_block location move_after move_before name operands operation opview"
    " parent parse print regions results successors verify walk write_bytecode".split()
)


def _support_names() -> frozenset[str]:
    """The private helpers `_builders` defines."""
    from . import _builders

    own = _builders.__name__
    return frozenset(
        n
        for n, v in vars(_builders).items()
        if n.startswith("_")
        and not n.startswith("__")
        and not isinstance(v, type(_builders))
        and getattr(v, "__module__", own) == own
    )


_SUPPORT_NAMES = _support_names()

_PRELUDE = '''\
"""Typed builders for every `mesh` op: an OpView subclass and a function each.

Conventions:
- Attributes are plain Python values: the mesh is its symbol's name
  (`"mesh0"` for `@mesh0`: a leading `@` is part of the name), axes are
  sequences of int, reduction kinds are names from
  `schema.REDUCTION_KINDS`, unit attributes are bools, and `None` in a
  `shape` is a dynamic (`?`) dimension.
- A static list that may hold SSA values (`root`, `halo_sizes`, ...) is one
  sequence of ints and `ir.Value`s: the Values become the dynamic operands
  and their static entries `schema.DYNAMIC`. Its properties are `X` (the
  mixed list), `static_X` and `dynamic_X`.
- Result types are parameters only when the op leaves them open: index,
  i64 and `!mesh.sharding` results are fixed, and `shard` / `update_halo`
  results take the type of `src` / `destination`, as the custom syntax
  implies. `shard_shape` has one result per `shape` entry; `mesh_shape` and
  `process_multi_index` have one per entry of `axes`, or, when `axes` is
  empty (all axes), `num_results` of them: the mesh rank is not known
  without resolving the symbol.
- The context comes from `loc`, else from the block of `ip` (or of the
  current insertion point), else from the current location or context:
  one of them is enough. Without `loc`, the current location is used when
  it is in that context, else an unknown location.
- Values the C++ side would reject by aborting (an unloaded dialect, an
  out-of-range integer, an unknown reduction kind) raise ValueError or
  TypeError here first.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence  # noqa: F401 - used by the generated signatures

from mlir import ir
from mlir.dialects._ods_common import _cext

{support_imports}
# PyGlobals maps an op to its OpView class only after importing a module
# `<search prefix>.<dialect namespace>`; make this module that module.
sys.modules.setdefault(f"{__name__}.mesh", sys.modules[__name__])
if __name__ not in _cext.globals.dialect_search_modules:
    _cext.globals.append_dialect_search_prefix(__name__)

'''


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def _literal(value: object) -> str:
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, tuple) and not value:
        return "()"
    if isinstance(value, (bool, int)) or value is None:
        return repr(value)
    raise ValueError(f"no literal for default {value!r}")


def _walk(elements: tuple) -> Iterator[object]:
    """Every format element, including those inside optional groups."""
    for el in elements:
        if isinstance(el, Optional):
            yield el
            yield from _walk(el.elements)
        else:
            yield el


@dataclass
class _Param:
    name: str
    hint: str
    default: str | None = None  # a Python literal; None when required
    keyword: bool = False


@dataclass
class _OpPlan:
    """What the generator decided for one op, derived only from the schema."""

    op: OpDef
    dynlists: dict[str, str]  # static attr -> dynamic operand group
    result_types: dict[str, str]  # result name -> type expression
    result_count: tuple[str, bool] | None  # see _variadic_count
    params: list[_Param]
    together: list[tuple[str, ...]]  # optional attrs that must be given together

    @property
    def class_name(self) -> str:
        return _camel(self.op.name) + "Op"

    def list_name(self, attr: str) -> str:
        """The parameter/property name of a dynlist: the attr without `static_`."""
        return attr.removeprefix("static_")


def _plan(op: OpDef) -> _OpPlan:
    formats = FORMATS[op.full_name]
    elements = list(_walk(formats))
    dynlists = {el.attr: el.operands for el in elements if isinstance(el, DynList)}
    typed = {el.name for el in elements if isinstance(el, TypeOf)}
    functional = any(isinstance(el, FunctionalType) for el in elements)
    folded = set(dynlists.values())

    params: list[_Param] = []
    result_types: dict[str, str] = {}
    result_count = None
    for r in op.results:
        if r.kind in _FIXED_TYPES:
            result_types[r.name] = _FIXED_TYPES[r.kind]
            if r.variadic:
                result_count = _variadic_count(op)
            continue
        if r.variadic:
            raise ValueError(f"{op.full_name}: variadic {r.kind} results are not supported")
        # A shaped operand whose type the syntax does not spell is the result's.
        implied = [o for o in op.operands if o.kind in _SHAPED and not o.variadic and o.name not in typed]
        if implied and not functional:
            result_types[r.name] = f"{implied[0].name}.type"
        else:
            params.append(_Param(f"{r.name}_type", "ir.Type"))
            what = json.dumps(f"{op.full_name}: {r.name}_type")
            result_types[r.name] = f"_type({what}, {r.name}_type, ctx)"

    for o in op.operands:
        if o.name not in folded:
            params.append(_Param(o.name, "Sequence[ir.Value]" if o.variadic else "ir.Value"))

    keyword: list[_Param] = []
    for a in op.attrs:
        hint = _KINDS[a.kind][0]
        name = _plan_name(a, dynlists)
        if a.default is not None:
            keyword.append(_Param(name, hint, _literal(a.default), keyword=True))
        elif a.required:
            params.append(_Param(name, hint))
        else:
            keyword.append(_Param(name, f"{hint} | None", "None", keyword=True))
    if result_count and result_count[1]:
        keyword.append(_Param("num_results", "int | None", "None", keyword=True))

    together = []
    for el in formats:
        if isinstance(el, Optional) and op.attr(el.anchor) is not None:
            names = [el.anchor] + [
                s.name for s in el.elements if isinstance(s, Ref) and s.name != el.anchor and op.attr(s.name)
            ]
            members = [n for n in names if not op.attr(n).required]
            if len(members) > 1:
                together.append(tuple(members))
    return _OpPlan(op, dynlists, result_types, result_count, params + keyword, together)


def _plan_name(a: AttrDef, dynlists: dict[str, str]) -> str:
    return a.name.removeprefix("static_") if a.name in dynlists else a.name


def _variadic_count(op: OpDef) -> tuple[str, bool]:
    """How many variadic index results: one per entry of the op's shape or
    axes (the attribute named here); empty axes mean all mesh axes, whose
    number the caller gives (the flag)."""
    for a in op.attrs:
        if a.kind is AttrKind.SHAPE:
            return a.name, False
        if a.kind is AttrKind.AXES:
            return a.name, a.default == ()
    raise ValueError(f"{op.full_name}: cannot tell how many results to build")


def _signature(plan: _OpPlan, first: str | None) -> list[str]:
    lines = [f"        {first}," if first else None]
    star = False
    for p in plan.params:
        if p.keyword and not star:
            lines.append("        *,")
            star = True
        default = f" = {p.default}" if p.default is not None else ""
        lines.append(f"        {p.name}: {p.hint}{default},")
    if not star:
        lines.append("        *,")
    lines.append("        loc: ir.Location | None = None,")
    lines.append("        ip: ir.InsertionPoint | None = None,")
    return [line for line in lines if line]


_WIDTH = 110


def _wrap(indent: int, head: str, args: list[str], tail: str) -> list[str]:
    """`head` + comma-separated `args` + `tail`, on one line when it fits,
    else one argument a line (the layout ruff format would pick)."""
    pad = " " * indent
    line = pad + head + ", ".join(args) + tail
    if len(line) <= _WIDTH:
        return [line]
    return [pad + head] + [f"{pad}    {a}," for a in args] + [pad + tail]


def _emit_init(plan: _OpPlan) -> list[str]:
    op = plan.op
    q = json.dumps
    name = op.full_name
    segmented = op.needs_segment_sizes
    out = ["", "    def __init__("] + _signature(plan, "self") + ["    ) -> None:"]
    out.append(f"        ctx = _context({q(name)}, loc, ip)")

    # Dynamic lists first: their Values are operands.
    for attr, group in plan.dynlists.items():
        pname = plan.list_name(attr)
        out += _wrap(8, f"{attr}, {group} = _split_dynamic(", [q(f"{name}: {pname}"), pname, "ctx"], ")")
    for group in plan.together:
        given = " + ".join(f"({g} is not None)" if op.attr(g).default is None else f"bool({g})" for g in group)
        msg = f"{name}: {', '.join(group)} must be given together"
        out.append(f"        if {given} not in (0, {len(group)}):")
        out.append(f"            raise ValueError({q(msg)})")

    out.append("        attributes: dict[str, ir.Attribute] = {}")
    for a in op.attrs:
        pname = _plan_name(a, plan.dynlists)
        value = a.name if a.name in plan.dynlists else pname
        args = [q(f"{name}: {pname}"), value, "ctx"]
        if a.required:
            out += _wrap(8, f"attributes[{q(a.name)}] = {_KINDS[a.kind][2]}(", args, ")")
            continue
        if a.kind is AttrKind.UNIT or a.default is not None:
            out.append(f"        if {value}:")
        else:
            out.append(f"        if {pname} is not None:")
        out += _wrap(12, f"attributes[{q(a.name)}] = {_KINDS[a.kind][2]}(", args, ")")

    operands = []
    for o in op.operands:
        what = q(f"{name}: {o.name}")
        if not o.variadic:
            operands.append(f"_value({what}, {o.name}, ctx)")
            continue
        item = o.name
        if o.name not in plan.dynlists.values():
            item = f"[_value({what}, v, ctx) for v in _sequence({what}, {o.name})]"
        operands.append(item if segmented else f"*{item}")
    out += _wrap(8, "operands = [", operands, "]")

    results = []
    for r in op.results:
        t = plan.result_types[r.name]
        if not r.variadic:
            results.append(t)
            continue
        axes, by_caller = plan.result_count
        count = f"len({axes})"
        if by_caller:
            msg = f"{name}: num_results must be len({axes}) when {axes} is given"
            out.append(f"        if {axes} and num_results not in (None, len({axes})):")
            out.append(f"            raise ValueError({q(msg)})")
            msg = f"{name}: pass num_results (the mesh rank) when {axes} is empty"
            out.append(f"        if not {axes} and num_results is None:")
            out.append(f"            raise ValueError({q(msg)})")
            count = f"len({axes}) if {axes} else _count({q(name + ': num_results')}, num_results)"
        out.append(f"        count = {count}")
        results.append(f"*[{t}] * count")
    if len(results) == 1 and results[0].startswith("*"):
        out.append(f"        results = {results[0][1:]}")
    else:
        out += _wrap(8, "results = [", results, "]")
    segs = "self._ODS_OPERAND_SEGMENTS" if segmented else "None"
    out.append("        super().__init__(")
    out.append(f"            self.OPERATION_NAME, self._ODS_REGIONS, {segs}, None,")
    out.append("            results=results, operands=operands, attributes=attributes,")
    out.append("            loc=_location(loc, ctx), ip=ip,")
    out.append("        )")
    return out


def _emit_accessors(plan: _OpPlan) -> list[str]:
    op = plan.op
    q = json.dumps
    name = op.full_name
    out: list[str] = []
    members: set[str] = set()

    def prop(pname: str, hint: str, body: str, doc: str | None = None) -> None:
        if pname in members or pname in _OPVIEW_NAMES:
            raise ValueError(f"{name}: accessor {pname!r} clashes with another one or with OpView")
        members.add(pname)
        out.extend(["", "    @property", f"    def {pname}(self) -> {hint}:"])
        if doc:
            out.append(f'        """{doc}"""')
        out.append(f"        return {body}")

    # Operands: by position, or through operandSegmentSizes with several variadic groups.
    variadic_seen = False
    for i, o in enumerate(op.operands):
        if op.needs_segment_sizes:
            body = f"_segment(self, {i})" if o.variadic else f"_segment(self, {i})[0]"
        elif variadic_seen or (o.variadic and i != len(op.operands) - 1):
            raise ValueError(f"{name}: operands after a variadic group need segment sizes")
        elif o.variadic:
            body = f"list(self.operation.operands[{i}:])"
            variadic_seen = True
        else:
            body = f"self.operation.operands[{i}]"
        hint = "list[ir.Value]" if o.variadic else "ir.Value"
        attr = next((a for a, g in plan.dynlists.items() if g == o.name), None)
        prop(o.name if attr is None else f"dynamic_{plan.list_name(attr)}", hint, body)

    # The result; a variadic one replaces OpView.result (a single value) with a list.
    for r in op.results:
        if r.name != "result" or len(op.results) != 1:
            raise ValueError(f"{name}: only one result, named 'result', is supported")
        members.add("result")
        out += ["", "    @property"]
        if r.variadic:
            out.append("    def result(self) -> list[ir.Value]:  # type: ignore[override]")
            out.append('        """All results: how many depends on the attributes."""')
            out.append("        return list(self.operation.results)")
        else:
            out += ["    def result(self) -> ir.Value:", "        return self.operation.result"]

    for a in op.attrs:
        hint, decoder = _KINDS[a.kind][1], _KINDS[a.kind][3]
        if a.kind is AttrKind.UNIT:
            prop(a.name, "bool", f"{q(a.name)} in self.operation.attributes")
            continue
        if a.required:
            read = f"{decoder}(self.operation.attributes[{q(a.name)}])"
        else:
            if a.default is None:
                hint = f"{hint} | None"
            read = f"{_literal(a.default)} if (attr := _attr(self, {q(a.name)})) is None else {decoder}(attr)"
        if a.name not in plan.dynlists:
            prop(a.name, hint, read)
            continue
        lname = plan.list_name(a.name)
        prop(f"static_{lname}", hint, read, "The static entries, with schema.DYNAMIC for each operand.")
        members.add(lname)
        out += ["", "    @property", f"    def {lname}(self) -> list[int | ir.Value]:"]
        args = [q(f"{name}: {lname}"), f"self.static_{lname}", f"self.dynamic_{lname}"]
        out += _wrap(8, "return _merge_dynamic(", args, ")")
    return out


def _emit_class(plan: _OpPlan) -> list[str]:
    op = plan.op
    out = [
        "",
        "",
        "@_cext.register_operation(_Dialect)",
        f"class {plan.class_name}(ir.OpView):",
        f'    """{op.summary}"""',
        "",
        f"    OPERATION_NAME = {json.dumps(op.full_name)}",
        "    _ODS_REGIONS = (0, True)",
    ]
    if op.needs_segment_sizes:
        spec = ", ".join("-1" if o.variadic else "1" for o in op.operands)
        out.append(f"    _ODS_OPERAND_SEGMENTS = [{spec}]")
    return out + _emit_init(plan) + _emit_accessors(plan)


def _emit_function(plan: _OpPlan) -> list[str]:
    op = plan.op
    fn = op.name
    if not op.results:
        ret, tail, what = plan.class_name, "", "the op: it has no result"
    elif op.results[0].variadic:
        ret, tail, what = "list[ir.Value]", ".result", "its results"
    else:
        ret, tail, what = "ir.Value", ".result", "its result"
    out = ["", "", f"def {fn}("]
    out += [line[4:] for line in _signature(plan, None)]
    out.append(f") -> {ret}:")
    out.append(f'    """Build `{op.full_name}` and return {what}."""')
    args = [f"{p.name}={p.name}" for p in plan.params] + ["loc=loc", "ip=ip"]
    out += _wrap(4, f"return {plan.class_name}(", args, f"){tail}")
    return out


def generate() -> str:
    plans = [_plan(op) for op in OPS]
    header = [
        f"# Generated by `{COMMAND}` from mesh_dialect.ir.schema.OPS: do not edit.",
        f"# Regenerate after changing the schema; `{COMMAND} --check` fails when stale.",
    ]
    body: list[str] = []
    for plan in plans:
        body += _emit_class(plan)
        body += _emit_function(plan)
    names = [p.class_name for p in plans] + [p.op.name for p in plans]
    exports = ["", "", "__all__ = ["] + [f"    {json.dumps(n)}," for n in names] + ["]"]
    text = "\n".join(body + exports) + "\n"
    # Import exactly the shared helpers the generated code calls.
    used = sorted(set(re.findall(r"\b(_[A-Za-z]\w*)\b", text)) & _SUPPORT_NAMES, key=str.lower)
    imports = "from ._builders import (\n" + "".join(f"    {n},\n" for n in used) + ")\n"
    return "\n".join(header) + "\n" + _PRELUDE.replace("{support_imports}", imports) + text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description="Generate mesh_dialect/ir/ops.py.")
    parser.add_argument("--check", action="store_true", help="exit 1 if ops.py is stale")
    args = parser.parse_args(argv)
    text = generate()
    if args.check:
        current = OUTPUT.read_text() if OUTPUT.exists() else None
        if current != text:
            print(f"{OUTPUT} is stale: run `{COMMAND}`", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
