"""Differential testing of `sharding-propagation` against upstream MLIR's.

Our `solver=sweep` searches options as upstream does (see `interfaces.choice`), so on programs
both passes understand they should mostly agree, and every place where they
do not is either a deliberate improvement or a bug.  This module makes that
question mechanical:

- `to_upstream` renames our IR text to upstream's `shard` spelling;
- `run_ours` / `run_upstream_propagation` run each pass in its own context
  (upstream's C++ pass needs a plain context where `shard` is registered;
  ours needs the IRDL `mesh` dialect, and the two never share a context);
- `value_shardings` reads, from either output, the layout every operand of
  every op sees and every result is produced in, normalized so the two
  spellings compare equal;
- `compare` / `differential` list the places where they differ.

The two outputs are not compared textually: upstream writes a sharding op
per annotation and an `annotate_for_users` shard for every operand, ours
shares sharding ops and reshards only where layouts differ.  What matters is
the layout each value has where it is produced and where it is used.

It also takes our per-device programs to upstream's MPI lowering:
`export_upstream` writes one in upstream's spelling for
`mlir-opt --convert-shard-to-mpi` (`python -m mesh_dialect.interop.upstream`
from the command line).
"""

from __future__ import annotations

import ast
import math
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass

from mlir import ir, passmanager

from .. import context as mesh_context
from .. import parse as mesh_parse
from .. import print_ir
from .. import verify as mesh_verify
from ..ir._builders import _read_axes_array
from ..ir.asm import remap_location
from ..ir.diagnostics import DiagnosticError
from ..ir.schema import DYNAMIC
from ..transforms.base import PassFailed
from ..transforms.propagation.sharding_propagation import TRAVERSALS, ShardingPropagation

ShardingKey = tuple[str, tuple[tuple[int, ...], ...], tuple[int, ...], str | None]
"""A normalized sharding: (mesh name, split axes without trailing empty
entries, partial axes, partial type or None when not partial).  Halo sizes
and offsets are left out: neither pass infers them."""


class NotExpressible(ValueError):
    """Our IR uses something upstream's dialect cannot spell (partial
    shardings, generic-form mesh ops, mesh attributes), so the program is
    outside what the two passes can be compared on."""


class PassFailure(Exception):
    """One side's propagation failed (or, for upstream in a child process,
    aborted); `side` is "ours" or "upstream", `message` its first error
    with source positions removed, so it can be written in a table."""

    def __init__(self, side: str, message: str) -> None:
        super().__init__(f"{side}: {message}")
        self.side = side
        self.message = message


# ---------------------------------------------------------------------------
# Renaming our text to upstream's spelling

# Strings and comments are copied as they are; only code is renamed.
_SEGMENTS = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*')
# A name may not continue another token: `%mesh.shard`, `@mesh.x` or
# `foo.mesh.shard` are left alone.
_START = r"(?<![\w.$%@#!^-])"
_OPTION = r"mesh\.sharding_option\s*=\s*#mesh\.sharding<[^<>]*>"
_RENAMES: tuple[tuple[re.Pattern[str], str], ...] = (
    # our inferred loop shardings have no upstream counterpart: dropped
    # (with linalg's `attrs =` when it held nothing else)
    (re.compile(r"\s*\battrs\s*=\s*\{\s*" + _OPTION + r"\s*\}"), ""),
    (re.compile(r"\s*\{\s*" + _OPTION + r"\s*\}"), ""),
    (re.compile(r",\s*" + _OPTION), ""),
    (re.compile(_OPTION + r"\s*,\s*"), ""),
    (re.compile(r"!mesh\.sharding\b"), "!shard.sharding"),
    (re.compile(_START + r"mesh\.mesh_shape\b"), "shard.grid_shape"),
    (re.compile(_START + r"mesh\.mesh\b"), "shard.grid"),
    (re.compile(_START + r"mesh\.(?=[a-z_]+\b)"), "shard."),
)
_MESH_KEYWORDS: tuple[tuple[re.Pattern[str], str], ...] = (
    # keywords of mesh ops: renamed on lines holding one (`_MESH_CODE`), so
    # that a user's own attribute of that name on another op stays
    (re.compile(r"\bmesh_axes(?=\s*=)"), "grid_axes"),
    (re.compile(r"\breduction\s*=\s*<\s*(\w+)\s*>"), r"reduction = \1"),
)
_MESH_CODE = re.compile(_START + r"(?:mesh\.[a-z_]+\b|#mesh\.)")
"""A mesh op or attribute in a line's code."""
_SHARDING_LINE = re.compile(r"=\s*shard\.sharding\s+@")


def to_upstream(text: str) -> str:
    """`text` (our custom syntax, hand-written or as `print_ir` prints it) in
    upstream's spelling: `mesh.mesh` -> `shard.grid`, `mesh.X` -> `shard.X`,
    `!mesh.sharding` -> `!shard.sharding`, `mesh_axes` -> `grid_axes`,
    `reduction = <k>` -> `reduction = k`; `mesh.sharding_option` attributes
    are dropped and the optional `: !mesh.sharding` is written out (upstream
    requires it).  Symbol names (`@mesh`) stay.

    Mesh ops are read one per line, as `print_ir` prints them: their
    keywords (`mesh_axes`, `reduction`, `partial`) are renamed on lines
    holding a mesh op or attribute only, and a `mesh.sharding` without its
    type gets it at the end of its line.

    Raises `NotExpressible` for what upstream cannot spell: a partial
    sharding, a mesh op in generic form, `mesh.shard_shape`, any other
    `#mesh.` attribute."""
    if re.search(_START + r"mesh\.shard_shape\b", _SEGMENTS.sub(" ", text)):
        # upstream's operands differ (`dims = [..] sharding = %s device = [..]`)
        raise NotExpressible("mesh.shard_shape has no upstream spelling here")
    generic = re.search(r'"mesh\.\w+"\s*\(', text)
    if generic:
        raise NotExpressible(
            f"generic-form mesh op {generic.group(0)[:-1].strip()}: print the module with mesh_dialect.print_ir first"
        )
    lines = []
    for line in text.split("\n"):  # strings and comments end at a line's end
        mesh = _MESH_CODE.search(_SEGMENTS.sub(" ", line)) is not None
        out: list[str] = []
        pos = 0
        for m in _SEGMENTS.finditer(line):
            out.append(_rename_code(line[pos : m.start()], mesh))
            out.append(m.group(0))
            pos = m.end()
        out.append(_rename_code(line[pos:], mesh))
        lines.append(_with_sharding_type("".join(out)))
    return "\n".join(lines)


def _rename_code(code: str, mesh: bool) -> str:
    """Rename a piece of code; `mesh`: its line holds a mesh op or attribute."""
    if mesh and re.search(r"\bpartial\s*=", code):
        raise NotExpressible("upstream's shard.sharding has no partial axes")
    for pattern, replacement in _RENAMES + (_MESH_KEYWORDS if mesh else ()):
        code = pattern.sub(replacement, code)
    leftover = re.search(r"#mesh\.\w+", code)
    if leftover:
        raise NotExpressible(f"{leftover.group(0)} has no upstream spelling")
    return code


def _with_sharding_type(line: str) -> str:
    """Our `mesh.sharding` may omit its result type; upstream's may not.
    The type goes before a trailing comment or location (one op per line,
    as `print_ir` prints them)."""
    if not _SHARDING_LINE.search(line):
        return line
    end = len(line)
    for m in _SEGMENTS.finditer(line):
        if m.group(0).startswith("//"):
            end = m.start()
            break
    code = line[:end]
    if "!shard.sharding" in _SEGMENTS.sub("", code):
        return line
    at = re.search(r"\s+loc\(", _SEGMENTS.sub(lambda m: "x" * len(m.group(0)), code))
    cut = at.start() if at is not None else len(code.rstrip())
    return line[:cut] + " : !shard.sharding" + line[cut:]


# ---------------------------------------------------------------------------
# Running the two passes


def _check_traversal(traversal: str) -> None:
    if traversal not in TRAVERSALS:
        raise ValueError(f"traversal must be one of {', '.join(TRAVERSALS)}, got {traversal!r}")


def _first_error(text: str) -> str:
    """The first error of an MLIR diagnostic dump, without its position."""
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("error:"):
            line = line[len("error:") :].strip()
            return re.sub(r'^(?:"[^"]*"|[^\s:]+):\d+:\d+:\s*', "", line)
    return text.strip().splitlines()[0] if text.strip() else "failed"


def run_ours(text: str, traversal: str, *, fixed_point: bool = True) -> ir.Operation:
    """Our pass on `text` in a fresh context of our dialect; returns the
    module (which keeps its context alive).  Raises `PassFailure` when the
    pass fails or leaves IR our verifier rejects."""
    _check_traversal(traversal)
    ctx = mesh_context(allow_unregistered_dialects=True)
    module = mesh_parse(text, context=ctx)
    errors: list[str] = []

    def keep(d: ir.Diagnostic) -> bool:
        if d.severity == ir.DiagnosticSeverity.ERROR:
            errors.append(d.message)
        return True

    handler = ctx.attach_diagnostic_handler(keep)
    try:
        with ctx, ir.Location.unknown():
            ShardingPropagation(solver="sweep", traversal=traversal, fixed_point=fixed_point).run(module)
    except PassFailed as e:
        raise PassFailure("ours", errors[0] if errors else str(e)) from None
    finally:
        handler.detach()
    try:
        mesh_verify(module)
    except DiagnosticError as e:
        raise PassFailure("ours", f"invalid output: {e.diagnostics[0].message}") from None
    return module


def run_upstream_propagation(text: str, traversal: str) -> ir.Module:
    """Upstream's C++ `sharding-propagation` on `text` (already in upstream's
    spelling) in a fresh plain context.  Raises `PassFailure` when the pass
    fails.  Upstream aborts the process on some inputs (an operand whose
    rank differs from the result's in an elementwise op, e.g. `tosa.mul`'s
    shift): use `run_upstream_isolated` where that may happen."""
    _check_traversal(traversal)
    ctx = ir.Context()
    ctx.enable_multithreading(False)
    module = ir.Module.parse(text, ctx)
    pm = passmanager.PassManager.parse(f"builtin.module(func.func(sharding-propagation{{traversal={traversal}}}))", ctx)
    try:
        pm.run(module.operation)
    except ir.MLIRError as e:
        raise PassFailure("upstream", _first_error(str(e))) from None
    return module


# The child imports only the bindings: it must not depend on this package.
_CHILD = """\
import sys
from mlir import ir, passmanager
ctx = ir.Context()
ctx.enable_multithreading(False)
module = ir.Module.parse(sys.stdin.read(), ctx)
pm = passmanager.PassManager.parse(
    "builtin.module(func.func(sharding-propagation{traversal=" + sys.argv[1] + "}))", ctx
)
try:
    pm.run(module.operation)
except ir.MLIRError as e:
    sys.stderr.write(str(e) + "\\n")
    sys.exit(3)
sys.stdout.write(str(module))
"""


def run_upstream_isolated(text: str, traversal: str) -> ir.Module:
    """`run_upstream_propagation` in a child process, so an abort inside
    upstream's C++ becomes a `PassFailure` instead of killing this one; the
    result is parsed back into a fresh context."""
    _check_traversal(traversal)
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, traversal], input=text, capture_output=True, text=True, check=False
    )
    if proc.returncode < 0:
        name = signal.Signals(-proc.returncode).name
        assertion = re.search(r"Assertion `.*' failed", proc.stderr)
        raise PassFailure("upstream", f"aborted ({name})" + (f": {assertion.group(0)}" if assertion else ""))
    if proc.returncode != 0:
        raise PassFailure("upstream", _first_error(proc.stderr))
    ctx = ir.Context()
    ctx.enable_multithreading(False)
    return ir.Module.parse(proc.stdout, ctx)


# ---------------------------------------------------------------------------
# Reading the layouts


@dataclass(frozen=True)
class OpShardings:
    """One op of a function: the layout each operand arrives in and each
    result is produced in (None: not annotated)."""

    name: str
    operands: tuple[ShardingKey | None, ...]
    results: tuple[ShardingKey | None, ...]


def _operation(op) -> ir.Operation:
    return op.operation if hasattr(op, "operation") else op


def _split_axes(attr: ir.Attribute) -> tuple[tuple[int, ...], ...]:
    """Upstream prints `#shard<axisarray[[0], []]>`; ours is read through
    its builder, which knows the IRDL encoding."""
    text = str(attr)
    m = re.search(r"axisarray\s*(\[.*\])", text)
    if m is None:
        return _read_axes_array(attr)
    return tuple(tuple(int(a) for a in axes) for axes in ast.literal_eval(m.group(1)))


def _sharding_key(sharding_value: ir.Value, prefix: str) -> ShardingKey | str:
    """The normalized layout a sharding value stands for, or "opaque" when
    it does not come from a sharding op (a block argument, a call)."""
    if not isinstance(sharding_value, ir.OpResult):
        return "opaque"
    op = _operation(sharding_value.owner)
    if op.name != f"{prefix}.sharding":
        return "opaque"
    attrs = op.attributes
    mesh = ir.FlatSymbolRefAttr(attrs["grid" if "grid" in attrs else "mesh"]).value
    split = list(_split_axes(attrs["split_axes"]))
    while split and not split[-1]:
        split.pop()
    partial: tuple[int, ...] = ()
    kind = None
    if "partial_axes" in attrs:
        view = op.opview
        partial = tuple(view.partial_axes)
        kind = (view.partial_type or "sum") if partial else None
    return (mesh, tuple(split), partial, kind)


def _shard_of(op: ir.Operation, prefix: str) -> tuple[bool, ShardingKey | str] | None:
    """(annotate_for_users, layout) of a shard op of `prefix`, else None."""
    if op.name != f"{prefix}.shard":
        return None
    return "annotate_for_users" in op.attributes, _sharding_key(op.operands[1], prefix)


def _function_ops(func: ir.Operation, prefix: str) -> Iterator[ir.Operation]:
    """Ops of a function in program order, without `prefix` ops; bodies of
    `scf` ops are entered, other regions (linalg payloads) are scalars."""
    for region in func.regions:
        for block in region.blocks:
            for child in block.operations:
                op = _operation(child)
                if not op.name.startswith(prefix + "."):
                    yield op
                if op.name.startswith("scf."):
                    yield from _function_ops(op, prefix)


def value_shardings(module_op, dialect_prefix: str) -> dict[str, list[OpShardings]]:
    """Per function (by symbol name), per op that is not a `dialect_prefix`
    op (`"mesh"` for ours, `"shard"` for upstream), in program order: what
    each operand sees (the annotation for users in front of the op, else
    the value's own annotation) and the layout each result is produced in
    (its shard op that is not for users).  Op k of one output is op k of
    the other: both passes only add ops of their dialect."""
    root = _operation(module_op)
    functions: list[ir.Operation] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        if op.name == "func.func":
            functions.append(op)
            return ir.WalkResult.SKIP
        return ir.WalkResult.ADVANCE

    root.walk(visit, ir.WalkOrder.PRE_ORDER)
    out: dict[str, list[OpShardings]] = {}
    for func in functions:
        rows: list[OpShardings] = []
        for op in _function_ops(func, dialect_prefix):
            operands = []
            for v in op.operands:
                seen = None
                if isinstance(v, ir.OpResult):
                    shard = _shard_of(_operation(v.owner), dialect_prefix)
                    if shard is not None:
                        seen = shard[1]
                operands.append(seen)
            results = []
            for r in op.results:
                produced = None
                for use in r.uses:
                    shard = _shard_of(_operation(use.owner), dialect_prefix)
                    if shard is not None and not shard[0] and use.operand_number == 0:
                        produced = shard[1]
                        break
                results.append(produced)
            rows.append(OpShardings(op.name, tuple(operands), tuple(results)))
        out[ir.StringAttr(func.attributes["sym_name"]).value] = rows
    return out


# ---------------------------------------------------------------------------
# Comparing


def format_sharding(key: ShardingKey | str | None) -> str:
    """`@mesh [[0], [1]]`, `@mesh [] partial = sum [0]`, `none` or `opaque`."""
    if key is None:
        return "none"
    if isinstance(key, str):
        return key
    mesh, split, partial, kind = key
    text = f"@{mesh} [" + ", ".join("[" + ", ".join(map(str, axes)) + "]" for axes in split) + "]"
    if partial:
        text += f" partial = {kind} [" + ", ".join(map(str, partial)) + "]"
    return text


@dataclass(frozen=True)
class Difference:
    """One slot where the passes disagree.  `index` is the op's position
    among the function's non-mesh ops (-1 when a whole pass failed);
    `slot` is "operand i", "result i", "op" (different ops at that
    position) or "pass"; `ours` and `theirs` are `format_sharding` texts."""

    function: str
    index: int
    op: str
    slot: str
    ours: str
    theirs: str

    def key(self) -> tuple[int, str, str, str]:
        """What a table of expected differences records."""
        return (self.index, self.slot, self.ours, self.theirs)

    def __str__(self) -> str:
        where = f"@{self.function} op {self.index} '{self.op}' {self.slot}" if self.index >= 0 else "the pass"
        return f"{where}: ours {self.ours}, upstream {self.theirs}"


def compare(ours: dict[str, list[OpShardings]], theirs: dict[str, list[OpShardings]]) -> list[Difference]:
    """Every slot where the two `value_shardings` tables differ, in function
    then program order."""
    diffs: list[Difference] = []
    for fn in list(ours) + [f for f in theirs if f not in ours]:
        a, b = ours.get(fn), theirs.get(fn)
        if a is None or b is None:
            diffs.append(Difference(fn, -1, "", "function", "present" if a else "absent", "present" if b else "absent"))
            continue
        for k in range(max(len(a), len(b))):
            x = a[k] if k < len(a) else None
            y = b[k] if k < len(b) else None
            if x is None or y is None or x.name != y.name:
                diffs.append(
                    Difference(fn, k, (x or y).name, "op", x.name if x else "absent", y.name if y else "absent")
                )
                continue
            for side, xs, ys in (("operand", x.operands, y.operands), ("result", x.results, y.results)):
                for i in range(max(len(xs), len(ys))):
                    u = xs[i] if i < len(xs) else None
                    v = ys[i] if i < len(ys) else None
                    if u != v:
                        diffs.append(Difference(fn, k, x.name, f"{side} {i}", format_sharding(u), format_sharding(v)))
    return diffs


def differential(text: str, traversal: str, *, isolate: bool = False) -> list[Difference]:
    """Run our pass and upstream's on `text` (our spelling) and list where
    they differ.  A side that fails yields one "pass" difference carrying
    its error instead.  `isolate` runs upstream in a child process, for
    inputs that make it abort."""
    theirs_text = to_upstream(text)
    results: list[dict[str, list[OpShardings]] | PassFailure] = []
    try:
        results.append(value_shardings(run_ours(text, traversal), "mesh"))
    except PassFailure as e:
        results.append(e)
    try:
        run = run_upstream_isolated if isolate else run_upstream_propagation
        results.append(value_shardings(run(theirs_text, traversal), "shard"))
    except PassFailure as e:
        results.append(e)
    ours, theirs = results
    if isinstance(ours, PassFailure) or isinstance(theirs, PassFailure):
        a = f"failed: {ours.message}" if isinstance(ours, PassFailure) else "ok"
        b = f"failed: {theirs.message}" if isinstance(theirs, PassFailure) else "ok"
        return [] if a == b else [Difference("", -1, "", "pass", a, b)]
    return compare(ours, theirs)


# ---------------------------------------------------------------------------
# Exporting a per-device program to upstream's `shard` dialect
#
# Upstream lowers its `shard` dialect to MPI (`mlir-opt --convert-shard-to-mpi`).
# A partitioned program of ours gets there through `export_upstream`: its
# functions' `mesh.sharding` argument and result attributes (how `mesh-run`
# reassembles the pieces) mean nothing to upstream and are dropped, and
# `mesh.update_halo` is written in upstream's one-operand form.


class NotExportable(NotExpressible):
    """`NotExpressible` for one op: `location` is where it stands."""

    def __init__(self, message: str, location: ir.Location | None = None) -> None:
        super().__init__(message)
        self.location = location


# `%r = mesh.update_halo %src into %dst on @m split_axes = [[...]] source_halo_sizes = [...]
#  destination_halo_sizes = [...] {attrs} : T -> T`, as `print_ir` writes it (one line).
_UPDATE_HALO = re.compile(
    r"(?P<head>%[^\s=]+\s*=\s*)mesh\.update_halo\s+(?P<source>%\S+)\s+into\s+(?P<dest>%\S+)\s+on\s+(?P<mesh>@\S+)"
    r"\s+split_axes\s*=\s*(?P<split>\[\[.*?\]\])"
    r"(?:\s+source_halo_sizes\s*=\s*(?P<src_halos>\[[^\]]*\]))?"
    r"(?:\s+destination_halo_sizes\s*=\s*(?P<dst_halos>\[[^\]]*\]))?"
    r"(?P<attrs>\s+\{.*\})?\s*:\s*(?P<source_type>.+?)\s*->\s*(?P<result_type>.+?)\s*$"
)


def _update_halo_line(line: str) -> str:
    """One `mesh.update_halo` line in upstream's form. Ours writes the
    source's pieces and their neighbours' into the destination's layout;
    upstream's refreshes the halos of one tensor in place. The two agree
    when the source and destination have the same halos and type: then
    upstream's operand is our source (our result never reads the
    destination's values)."""
    m = _UPDATE_HALO.search(line)
    if m is None:
        if re.search(r"=\s*mesh\.update_halo\s", line):
            raise NotExpressible(f"cannot read this mesh.update_halo: {line.strip()}")
        return line  # the name inside a string, not an op
    src, dst = m.group("src_halos") or "[]", m.group("dst_halos") or "[]"
    if re.sub(r"\s", "", src) != re.sub(r"\s", "", dst) or m.group("source_type") != m.group("result_type"):
        raise NotExpressible(
            "upstream's shard.update_halo keeps the halos and type of its tensor; this mesh.update_halo changes "
            f"them (source halos {src}, destination halos {dst})"
        )
    halos = f" halo_sizes = {src}" if src.strip("[] ") else ""
    new = (
        f"{m.group('head')}mesh.update_halo {m.group('source')} on {m.group('mesh')} split_axes = {m.group('split')}"
        f"{halos}{m.group('attrs') or ''} : {m.group('result_type')}"
    )
    return line[: m.start()] + new


def _strip_mesh_attributes(root: ir.Operation) -> None:
    """Drop every `mesh.`-prefixed attribute: on ops (`mesh.sharding_option`)
    and on arguments and results (`mesh.sharding` layouts)."""

    def without_mesh(dicts: ir.Attribute) -> ir.Attribute | None:
        kept = []
        for d in ir.ArrayAttr(dicts):
            entries = {n.name: n.attr for n in ir.DictAttr(d) if not n.name.startswith("mesh.")}
            kept.append(ir.DictAttr.get(entries, context=root.context))
        return ir.ArrayAttr.get(kept, context=root.context) if any(len(d) for d in kept) else None

    def visit(op: ir.Operation) -> ir.WalkResult:
        attributes = op.attributes
        for name in list(attributes):
            if name.startswith("mesh."):
                del attributes[name]
            elif name in ("arg_attrs", "res_attrs"):
                kept = without_mesh(attributes[name])
                if kept is None:
                    del attributes[name]
                else:
                    attributes[name] = kept
        return ir.WalkResult.ADVANCE

    root.walk(visit, ir.WalkOrder.PRE_ORDER)


def _check_exportable(root: ir.Operation) -> None:
    """What upstream cannot spell, reported at the op that uses it."""
    found: list[NotExportable] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        if op.name == "mesh.mesh" and op.parent is not None and op.parent.name != "builtin.module":
            name = ir.StringAttr(op.attributes["sym_name"]).value
            found.append(
                NotExportable(
                    f"upstream's shard.grid must be defined in the module's body, got @{name} inside "
                    f"'{op.parent.name}'",
                    op.location,
                )
            )
        elif op.name == "mesh.sharding" and "partial_axes" in op.attributes and len(op.attributes["partial_axes"]):
            found.append(NotExportable("upstream's shard.sharding has no partial axes", op.location))
        elif op.name == "mesh.update_halo":
            a = op.attributes
            same = (
                list(a["static_source_halo_sizes"]) == list(a["static_destination_halo_sizes"])
                and op.operands[0].type == op.results[0].type
            )
            if not same:
                found.append(
                    NotExportable(
                        "upstream's shard.update_halo keeps the halos and type of its tensor; this one changes them",
                        op.location,
                    )
                )
        return ir.WalkResult.INTERRUPT if found else ir.WalkResult.ADVANCE

    root.walk(visit, ir.WalkOrder.PRE_ORDER)
    if found:
        raise found[0]


# What upstream's `--convert-shard-to-mpi` (LLVM 22) lowers, found by running
# it (test/python/test_lowering.py pins each case): every other mesh op is
# "failed to legalize" (reported, yet mlir-opt exits 0 with the op left in).
_MPI_LOWERED = frozenset(
    (
        "mesh.mesh",
        "mesh.all_reduce",
        "mesh.process_linear_index",
        "mesh.process_multi_index",
        "mesh.mesh_shape",
        "mesh.update_halo",
    )
)
_MPI_HINTS = {
    "mesh.all_slice": "; run mesh-lower-all-slice first",
    "mesh.sharding": "; partition the program first (mesh-partition)",
    "mesh.shard": "; partition the program first (mesh-partition)",
}


def _mpi_problem(op: ir.Operation, meshes: dict[str, tuple[int, ...]]) -> str | None:
    """Why upstream's MPI conversion would refuse, abort on or miscompile
    `op`; None when it lowers it correctly."""
    name = op.name
    if not name.startswith("mesh.") or name == "mesh.mesh":
        return None
    if name not in _MPI_LOWERED:
        return f"upstream's MPI conversion has no lowering for '{name}'{_MPI_HINTS.get(name, '')}"
    shape = meshes.get(op.attributes["mesh"].value, ())
    dynamic = any(s == DYNAMIC for s in shape)
    if name == "mesh.all_reduce":
        if _reduction(op) == "average":
            return "upstream's MPI conversion aborts on an all_reduce with reduction <average>"
        if not len(op.attributes["mesh_axes"]):
            return "upstream's MPI conversion aborts on an all_reduce over no mesh axes; mesh-canonicalize folds it"
        if dynamic:
            return "upstream's MPI conversion refuses an all_reduce on a mesh with a dynamic size"
        return _all_reduce_problem(op)
    elif name == "mesh.process_multi_index" and dynamic:
        return (
            "upstream's MPI conversion refuses mesh.process_multi_index on a mesh with a dynamic size "
            "(mesh-lower-process-multi-index leaves mesh.mesh_shape, which it does not lower either)"
        )
    elif name == "mesh.mesh_shape":
        axes = list(op.attributes["axes"]) or list(range(len(shape)))
        if any(shape[a] == DYNAMIC for a in axes):
            return "upstream's MPI conversion leaves mesh.mesh_shape of a dynamic mesh size unlowered"
    elif name == "mesh.update_halo":
        return _halo_problem(op, dynamic)
    return None


def _reduction(op: ir.Operation) -> str:
    """The kind of `op`'s `reduction` (`#mesh.partial<"max">`); sum when absent."""
    if "reduction" not in op.attributes:
        return "sum"
    m = re.search(r'"(\w+)"', str(op.attributes["reduction"]))
    return m.group(1) if m else "sum"


def _int(t: ir.Type) -> ir.IntegerType | None:
    t = t.maybe_downcast()
    return t if isinstance(t, ir.IntegerType) else None


def _mpi_datatype(t: ir.Type) -> bool:
    """Whether MPI-to-LLVM has an MPI datatype for `t`: it maps f32, f64
    and 8-, 16-, 32- and 64-bit integers of any signedness, and asserts on
    every other type (f16, bf16, complex, index, i1)."""
    i = _int(t)
    return isinstance(t.maybe_downcast(), (ir.F32Type, ir.F64Type)) or (i is not None and i.width in (8, 16, 32, 64))


def _castable(have: ir.Type, want: ir.Type) -> bool:
    """Whether the `linalg.copy` upstream puts in front of a converting
    all_reduce casts `have` to `want`: its casts (extsi, trunci, sitofp,
    index_cast, ...) take signless integers only and index only to
    integers, and the LLVM lowering of its loads and stores asserts on i1,
    i2, i7; odd widths are refused, as are floats it cannot lower (tf32, f8)."""

    def plain(t: ir.Type) -> bool:
        i = _int(t)
        if i is not None:
            return i.is_signless and i.width in (8, 16, 32, 64)
        return isinstance(t.maybe_downcast(), (ir.F16Type, ir.BF16Type, ir.F32Type, ir.F64Type))

    if isinstance(have.maybe_downcast(), ir.IndexType):
        return _int(want) is not None and plain(want)
    return plain(have) and plain(want)


def _static(t: ir.Type) -> bool:
    shaped = ir.ShapedType(t)
    return shaped.has_rank and shaped.has_static_shape


_MPI_TYPES = "f32, f64 and 8-, 16-, 32- and 64-bit integers"


def _all_reduce_problem(op: ir.Operation) -> str | None:
    """Upstream copies the operand into a buffer of the result's type and
    reduces it in place with MPI_Allreduce: the buffer is sized by a
    `memref.dim` of index kDynamic when a dimension is `?`, the copy casts
    signless types only, MPI needs a datatype for the result's elements,
    and MPI_MAX/MPI_MIN are not the dialect's float max/min."""
    source, result = op.operands[0].type, op.results[0].type
    for t in (source, result):
        if not _static(t):
            return f"upstream's MPI conversion sizes an all_reduce's buffer wrongly when its shape is dynamic: {t}"
    have = ir.ShapedType(source).element_type
    want = ir.ShapedType(result).element_type
    if not _mpi_datatype(want):
        return f"upstream's MPI lowering aborts on an all_reduce of elements other than {_MPI_TYPES}: {want}"
    if have != want and not _castable(have, want):
        return (
            "upstream's MPI conversion converts the elements of an all_reduce with signless casts only, "
            f"between f16, bf16, f32, f64, i8, i16, i32 and i64 (and from index to those integers): {have} to {want}"
        )
    kind = _reduction(op)
    if kind in ("max", "min") and isinstance(want.maybe_downcast(), ir.FloatType):
        return (
            f"upstream's MPI conversion reduces float max and min with MPI_MAX and MPI_MIN, which drop NaNs and "
            f"order -0.0 and +0.0 by arrival, unlike the dialect's: reduction <{kind}> on {want}"
        )
    return None


def _halo_problem(op: ir.Operation, dynamic_mesh: bool) -> str | None:
    """Upstream sends each halo slab as a buffer whose MPI element count is
    its first dimension's size (MPI-to-LLVM), so a slab with more than one
    element per row arrives truncated; dynamic halo sizes fail its checks;
    its neighbour computation takes one mesh axis per dimension on a static
    mesh, and MPI needs a datatype for the elements."""
    a = op.attributes
    halos = list(a["static_source_halo_sizes"])
    if any(h == DYNAMIC for h in halos):
        return "upstream's MPI conversion fails on dynamic halo sizes (mixed integer types in its checks)"
    if dynamic_mesh:
        return "upstream's MPI conversion leaves mesh.update_halo on a mesh with a dynamic size unlowered"
    local = ir.ShapedType(op.operands[0].type)
    if not local.has_static_shape:
        return "upstream's MPI conversion needs a static shape for mesh.update_halo"
    split = _read_axes_array(a["split_axes"])
    for d, axes in enumerate(split):
        if len(axes) > 1:
            return (
                "upstream's MPI conversion leaves mesh.update_halo unlowered when a dimension is split over more "
                f"than one mesh axis: dimension {d} over mesh axes [{', '.join(map(str, axes))}]"
            )
    if not _mpi_datatype(local.element_type):
        element = local.element_type
        return f"upstream's MPI lowering aborts on an update_halo of elements other than {_MPI_TYPES}: {element}"
    shape = list(local.shape)
    pairs = iter(zip(halos[0::2], halos[1::2]))
    for d, axes in enumerate(split):
        if not axes:
            continue
        for h in next(pairs, (0, 0)):
            slab = shape[:d] + [h] + shape[d + 1 :]
            if h and math.prod(slab[1:]) != 1:
                return (
                    f"upstream's MPI lowering truncates this halo exchange (dimension {d}, halo {h}: its "
                    f"{'x'.join(map(str, slab))} slab is sent as {slab[0]} elements)"
                )
    return None


def _check_mpi(root: ir.Operation) -> None:
    """The first op upstream's MPI conversion would not lower correctly."""
    meshes: dict[str, tuple[int, ...]] = {}
    found: list[NotExportable] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        if op.name == "mesh.mesh":
            meshes[op.attributes["sym_name"].value] = tuple(int(s) for s in op.attributes["shape"])
        problem = _mpi_problem(op, meshes)
        if problem is not None:
            found.append(NotExportable(problem, op.location))
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    root.walk(visit, ir.WalkOrder.PRE_ORDER)
    if found:
        raise found[0]


def export_upstream(module_or_text: ir.Operation | ir.Module | str, *, check: bool = True, mpi: bool = False) -> str:
    """A module of ours (or its text) as text in upstream's `shard` dialect,
    ready for `mlir-opt --convert-shard-to-mpi`: `to_upstream`'s renaming,
    after dropping the `mesh.sharding` layouts of function arguments and
    results (and every other `mesh.` attribute) and rewriting
    `mesh.update_halo` into upstream's form. A module is left unchanged.

    Raises `NotExpressible` for what upstream cannot spell (a partial
    sharding, an update_halo that changes halos); `NotExportable`, its
    subclass, carries the op's location when one op is to blame. With
    `check`, the text is parsed by upstream's own dialect first, so what it
    cannot read fails here (with its first error) rather than in mlir-opt.
    With `mpi`, an op that upstream's `--convert-shard-to-mpi` would refuse
    (while exiting 0), abort on or lower wrongly is a `NotExportable` at
    that op instead; see `_mpi_problem` for the list."""
    if isinstance(module_or_text, str):
        copy = mesh_parse(module_or_text, context=mesh_context(allow_unregistered_dialects=True))
    else:
        op = module_or_text.operation
        copy = op.clone()
    try:
        _check_exportable(copy)
        if mpi:
            _check_mpi(copy)
        _strip_mesh_attributes(copy)
        text = print_ir(copy)
    finally:
        if not isinstance(module_or_text, str):
            copy.erase()
    lines = [_update_halo_line(line) if "mesh.update_halo" in line else line for line in text.split("\n")]
    out = to_upstream("\n".join(lines))
    if check:
        ctx = ir.Context()
        ctx.enable_multithreading(False)
        ctx.allow_unregistered_dialects = True
        try:
            ir.Module.parse(out, ctx)
        except ir.MLIRError as e:
            raise NotExpressible(f"upstream MLIR cannot read the exported text: {_first_error(str(e))}") from None
    return out


def main(argv: list[str] | None = None) -> int:
    """`python -m mesh_dialect.interop.upstream [IN] [-o OUT]`: export a
    module of ours to upstream's spelling (see `export_upstream`), e.g.
    between `mesh-opt` and `mlir-opt --convert-shard-to-mpi` in a pipe."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m mesh_dialect.interop.upstream",
        description="A mesh-dialect module in upstream MLIR's shard dialect, for mlir-opt --convert-shard-to-mpi.",
    )
    parser.add_argument("input", nargs="?", default="-", help="input file (default: stdin)")
    parser.add_argument("-o", dest="output", default="-", metavar="FILE", help="output file (default: stdout)")
    parser.add_argument(
        "--mpi", action="store_true", help="refuse ops upstream's --convert-shard-to-mpi would not lower correctly"
    )
    args = parser.parse_args(argv)
    name = "<stdin>" if args.input == "-" else args.input
    try:
        with open(args.input if args.input != "-" else 0, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        sys.stderr.write(f"{parser.prog}: error: cannot read {name}: {e}\n")
        return 1
    try:
        module = mesh_parse(text, filename=name, context=mesh_context(allow_unregistered_dialects=True))
        out = export_upstream(module, mpi=args.mpi)
    except DiagnosticError as e:
        for d in e.diagnostics:
            sys.stderr.write(d.format({name: text}) + "\n")
        return 1
    except NotExpressible as e:
        where = ""
        location = getattr(e, "location", None)
        if location is not None:
            filename, line, col = remap_location(location)
            if filename:
                where = f"{filename}:{line}:{col}: "
        sys.stderr.write(f"{where}error: cannot export to upstream's shard dialect: {e}\n")
        return 1
    try:
        if args.output == "-":
            sys.stdout.write(out + "\n")
        else:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(out + "\n")
    except OSError as e:
        sys.stderr.write(f"{parser.prog}: error: cannot write {args.output}: {e}\n")
        return 1
    return 0


__all__ = [
    "TRAVERSALS",
    "Difference",
    "NotExpressible",
    "OpShardings",
    "PassFailure",
    "ShardingKey",
    "NotExportable",
    "compare",
    "differential",
    "export_upstream",
    "format_sharding",
    "run_ours",
    "run_upstream_isolated",
    "run_upstream_propagation",
    "to_upstream",
    "value_shardings",
]


if __name__ == "__main__":
    sys.exit(main())
