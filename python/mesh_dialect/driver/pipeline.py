"""Pass pipelines that mix this project's Python passes with upstream MLIR's.

Python passes are not in MLIR's registry, so `PassManager.parse` cannot name
them. The pipeline text is split into its top-level elements here: ours are
added as Python callables, everything else is handed to MLIR's own parser.
Our names win over upstream passes of the same name (`sharding-propagation`).

Our passes run on the whole `builtin.module`. Upstream runs its passes of
the same names per function, written `func.func(sharding-propagation)`;
that spelling is accepted and means our module-level pass, which treats each
function on its own: the nested pipeline is split around it
(`func.func(cse, sharding-propagation)` runs `func.func(cse)`, then
`sharding-propagation`), which is the same for function-local passes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from mlir import ir
from mlir.passmanager import PassManager

from ..ir.text import scan_group
from ..transforms import PASSES, OptionError, Pass, VerifyMesh
from ..transforms.base import option_items


class PipelineError(ValueError):
    """A pipeline that cannot be built; the message says why."""


@dataclass
class Element:
    """One top-level pipeline element: a pass with options, or a nested
    pipeline such as `func.func(cse)`."""

    name: str
    options: str = ""
    nested: str | None = None

    @property
    def text(self) -> str:
        if self.nested is not None:
            return f"{self.name}({self.nested})"
        return f"{self.name}{{{self.options}}}" if self.options else self.name


def parse_pipeline(text: str, *, anchored: bool = True) -> list[Element]:
    """Split `builtin.module(a, b{x=1}, func.func(c))` (the anchor is
    optional; `anchored=False` for a nested pipeline, never anchored) into
    elements."""
    text = text.strip()
    anchor = re.match(r"builtin\.module\s*\(", text) if anchored else None
    if anchor and text.endswith(")"):
        text = text[anchor.end() : -1]
    empty = _empty_pass(text, 0, len(text), top=True)
    if empty is not None:
        raise PipelineError(f"empty pass at column {empty + 1} of pass pipeline '{text}'")
    elements: list[Element] = []
    i, n = 0, len(text)
    while i < n:
        while i < n and text[i] in " \t\n,":
            i += 1
        if i >= n:
            break
        start = i
        while i < n and (text[i].isalnum() or text[i] in "-_."):
            i += 1
        name = text[start:i]
        if not name:
            raise PipelineError(f"expected a pass name at column {i + 1} of pass pipeline '{text}'")
        options, nested = "", None
        while i < n and text[i] in " \t\n" and text[i + 1 : i + 2] in (" ", "\t", "\n", "{", "("):
            i += 1  # `cse (...)`, `cse {...}`: mlir-opt allows blanks before the group
        if i < n and text[i] in "{(":
            end = scan_group(text, i)
            if end > n or text[end - 1] not in "})":
                raise PipelineError(f"unbalanced '{text[i]}' after '{name}' in pass pipeline '{text}'")
            inner = text[i + 1 : end - 1]
            if text[i] == "{":
                options = inner.strip()
            else:
                nested = inner
            i = end
        while i < n and text[i] in " \t\n":
            i += 1
        if i < n and text[i] != ",":
            raise PipelineError(f"expected ',' after '{name}' in pass pipeline '{text}'")
        elements.append(Element(name, options, nested))
    return elements


def _empty_pass(text: str, start: int, end: int, *, top: bool) -> int | None:
    """Where the list `text[start:end]` (and the pipelines nested in it)
    has an empty element, as mlir-opt refuses (`cse,,canonicalize`, a
    leading or trailing comma, `func.func()`), else None; only the top
    level may be empty as a whole.  It points at the comma closing the
    empty element, or at the `)` of an empty nested pipeline.  Other
    malformations are left to `parse_pipeline`."""
    if not text[start:end].strip():
        return None if top else start
    item = i = start
    while i < end:
        c = text[i]
        if c in "({":
            close = scan_group(text, i)
            if c == "(" and close <= end and text[close - 1] == ")":
                found = _empty_pass(text, i + 1, close - 1, top=False)
                if found is not None:
                    return found
            i = max(close, i + 1)
            continue
        if c == ",":
            if not text[item:i].strip():
                return i
            item = i + 1
        i += 1
    return item - 1 if not text[item:end].strip() else None


class MeshPassManager(PassManager):
    """An `mlir.passmanager.PassManager` that also holds the Python passes
    added to it, whose warnings and remarks (which the bindings cannot emit)
    are in `diagnostics` after a run."""

    def __init__(self, anchor: str = "builtin.module", context: ir.Context | None = None):
        super().__init__(anchor, context=context)
        self.passes: list[Pass] = []

    def run(self, operation: ir._OperationBase) -> None:
        """Run, forgetting the Python passes' diagnostics of earlier runs
        first: a pass the failing run never reached keeps none."""
        for p in self.passes:
            p.diagnostics = []
        super().run(operation)

    @property
    def diagnostics(self) -> list:
        """The warnings and remarks of the Python passes' last runs, in file order."""
        found = [d for p in self.passes for d in p.diagnostics]
        found.sort(key=lambda d: (d.filename or "", d.line, d.col))
        return found


@dataclass
class Pipeline:
    """A PassManager plus the Python passes in it (whose warnings and
    remarks the driver collects), and the elements it runs."""

    pm: MeshPassManager
    passes: list[Pass] = field(default_factory=list)
    elements: list[Element] = field(default_factory=list)


Observer = Callable[[str, int, ir.Operation], None]
"""`observe(point, index, module)`: `point` is "before" element `index`
runs, "ran" when it ended, "after" once the verifier after it ended too."""


def build(
    elements: list[Element],
    context: ir.Context,
    *,
    verify_each: bool = True,
    after_each: Callable[[str, ir.Operation], None] | None = None,
    observe: Observer | None = None,
) -> Pipeline:
    """A `builtin.module` PassManager for `elements`. Our semantic verifier
    runs after each element (MLIR's own verifier already does), and
    `after_each(label, module)` when given (for --mlir-print-ir-after-all).
    After a Python pass that records what it changed, and another check
    before it, the verifier checks only what changed (`VerifyMesh`)."""
    elements = expand(elements)
    pm = MeshPassManager("builtin.module", context=context)
    pipeline = Pipeline(pm, pm.passes, elements)
    previous: VerifyMesh | None = None
    for index, el in enumerate(elements):
        if observe is not None:
            _add_callback(pm, observe, "before", index)
        cls = PASSES.get(el.name)
        p: Pass | None = None
        if cls is not None:
            if el.nested is not None:
                raise PipelineError(f"pass '{el.name}' takes options in braces, not a nested pipeline")
            try:
                p = cls.from_options(el.options)
            except OptionError as e:
                raise PipelineError(str(e)) from None
            p.add_to(pm)
            pipeline.passes.append(p)
        else:
            if _INLINER.search(el.text):
                pm.add(_refuse_opaque_regions, name="InlinerGuard", argument="inliner-guard")
            if not _NON_FOLDING.issuperset(_pass_names(el.text)):
                pm.add(_self_fold_guard(el.text), name="FoldGuard", argument="fold-guard")
            _add_upstream(pm, el.text)
        if observe is not None:
            _add_callback(pm, observe, "ran", index)
        if verify_each:
            check = VerifyMesh()
            check.after, check.previous = p, previous
            check.add_to(pm)
            previous = check
        if after_each is not None:
            label = el.text

            def dump(op, pass_, label=label):
                after_each(label, op.operation if hasattr(op, "operation") else op)

            pm.add(dump, name="PrintIR", argument="print-ir")
        if observe is not None:
            _add_callback(pm, observe, "after", index)
    return pipeline


_INLINER = re.compile(r"(?<![\w-])inline(?![\w-])")
"""Upstream's `inline` pass, which asserts (taking the process down) on an op
of an unregistered dialect that has regions, such as generic-form
`stablehlo.reduce`: it cannot tell whether the op uses symbols."""


def _first_op(op, wanted: Callable[[ir.Operation], bool]) -> ir.Operation | None:
    """The first op of the module (pre-order) that `wanted` picks, or None."""
    module = op.operation if hasattr(op, "operation") else op
    found: list[ir.Operation] = []

    def visit(inner: ir.Operation) -> ir.WalkResult:
        if wanted(inner):
            found.append(inner)
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    module.walk(visit, ir.WalkOrder.PRE_ORDER)
    return found[0] if found else None


def _refuse_opaque_regions(op, pass_) -> None:
    """Stop before upstream's inliner when the module holds an op it would
    abort on, with an error at that op."""
    context = (op.operation if hasattr(op, "operation") else op).context
    culprit = _first_op(op, lambda inner: len(inner.regions) and not context.is_registered_operation(inner.name))
    if culprit is not None:
        culprit.location.emit_error(
            f"upstream's inline pass cannot run on '{culprit.name}' (an op of an unregistered dialect with regions,"
            " on which MLIR's inliner aborts): import-shardings inlines private functions"
        )
        pass_.signal_pass_failure()


_NON_FOLDING = frozenset(("cse", "symbol-dce", "symbol-privatize", "strip-debuginfo", "loop-invariant-code-motion"))
"""Upstream passes that fold nothing, so never meet what
`_folds_to_unknown_shape` finds: no fold guard runs before them."""

_ANCHORS = frozenset(("func.func", "builtin.module"))
"""The anchors of nested pipelines, which are no passes."""


def _pass_names(text: str) -> set[str]:
    """The pass names in an upstream element, options left out."""
    names: set[str] = set()
    depth = 0
    for token in re.finditer(r"\{|\}|[\w.-]+", text):
        word = token.group()
        if word == "{":
            depth += 1
        elif word == "}":
            depth -= 1
        elif depth == 0 and word not in _ANCHORS:
            names.add(word)
    return names


_IDEMPOTENT = frozenset(("arith.andi", "arith.ori", "arith.maxsi", "arith.maxui", "arith.minsi", "arith.minui"))


def _same_value(a: ir.Value, b: ir.Value) -> bool:
    """Whether `a` and `b` are one value once upstream's folds of trivial ops
    (a select or idempotent op of one value twice, a cast to its own type)
    have run, which is how such a pair reaches the folder mid-pass."""
    return a == b or _root(a) == _root(b)


def _root(value: ir.Value, depth: int = 0) -> ir.Value:
    while depth < 32:
        depth += 1
        owner = value.owner
        if isinstance(owner, ir.Block):
            forwarded = _forwarded_iter_arg(value, owner)
            if forwarded is None:
                return value
            value = forwarded
            continue
        name = owner.name
        operands = owner.operands
        if name == "scf.if" and len(owner.regions[1].blocks):
            index = value.result_number
            then, other = (_yielded(owner.regions[k], index) for k in (0, 1))
            if _root(then, depth) != _root(other, depth):
                return value
            value = then
        elif name == "scf.for":
            body = owner.regions[0].blocks[0]
            forwarded = _forwarded_iter_arg(body.arguments[1 + value.result_number], body)
            if forwarded is None:
                return value
            value = forwarded
        elif name == "tensor.cast" and operands[0].type == value.type:
            value = operands[0]
        elif name == "arith.select" and _root(operands[1], depth) == _root(operands[2], depth):
            value = operands[1]
        elif name in _IDEMPOTENT and _root(operands[0], depth) == _root(operands[1], depth):
            value = operands[0]
        else:
            return value
    return value


def _yielded(region: ir.Region, index: int) -> ir.Value:
    block = region.blocks[0]
    return block.operations[len(block.operations) - 1].operands[index]


def _forwarded_iter_arg(arg: ir.BlockArgument, block: ir.Block) -> ir.Value | None:
    """The initial value of an `scf.for` iteration argument the loop yields
    unchanged (upstream folds it away), else None."""
    loop = block.owner
    if loop is None or loop.name != "scf.for" or arg.arg_number == 0:
        return None
    index = arg.arg_number - 1
    if _yielded(loop.regions[0], index) != arg:
        return None
    return loop.operands[3 + index]


def _folds_to_unknown_shape(op: ir.Operation) -> bool:
    """An integer comparison or xor of one value with itself on a tensor of
    unknown shape, which upstream folds to a constant it cannot build."""
    name = op.name
    if name != "arith.xori" and name != "arith.cmpi":
        return False
    kind = op.results[0].type
    if isinstance(kind, ir.RankedTensorType):
        dynamic = not kind.has_static_shape
    else:
        # An unranked xori folds to nothing; an unranked cmpi aborts too.
        dynamic = name == "arith.cmpi" and isinstance(kind, ir.UnrankedTensorType)
    return dynamic and _same_value(op.operands[0], op.operands[1])


def _self_fold_guard(element: str) -> Callable:
    """A pass that stops before upstream pass `element` when the module holds
    an integer comparison or xor of one value with itself on a tensor of
    unknown shape: MLIR's folders make a constant of that shape for it and
    assert (taking the process down), as `mlir-opt --canonicalize` does."""

    def guard(op, pass_) -> None:
        culprit = _first_op(op, _folds_to_unknown_shape)
        if culprit is not None:
            culprit.location.emit_error(
                f"upstream pass '{element}' cannot run on '{culprit.name}' of one value with itself on"
                f" '{culprit.operands[0].type}' (MLIR aborts folding it to a constant of unknown shape);"
                " fold it while its shape is static, before mesh-partition"
            )
            pass_.signal_pass_failure()

    return guard


def _add_callback(pm: PassManager, observe: Observer, point: str, index: int) -> None:
    def call(op, pass_) -> None:
        observe(point, index, op.operation if hasattr(op, "operation") else op)

    pm.add(call, name="Observe", argument="observe")


def _add_upstream(pm: PassManager, text: str) -> None:
    """Add an upstream element, its errors said in mesh-opt's words."""
    try:
        pm.add(text)
    except (ValueError, RuntimeError) as e:
        detail = str(e).strip().splitlines()
        message = detail[0] if detail else "unknown pass"
        unknown = re.search(r"'([^']*)' does not refer to a registered pass", str(e))
        if unknown is not None:
            # The name MLIR could not find, which may be nested: func.func(bogus).
            message = f"'{unknown.group(1)}' is not a pass of mesh-opt or of upstream MLIR (see --list-passes)"
        raise PipelineError(message) from None


UPSTREAM_FUNCTION_PASSES = ("sharding-propagation", "mesh-spmdization", "mesh-partition")
"""Our passes whose names upstream MLIR runs per function, written
`func.func(NAME{...})` in its pipelines (`mesh-partition` is our name for
`mesh-spmdization`). Only these may be nested, and only in `func.func`."""


@dataclass(frozen=True)
class NamedPipeline:
    """A pipeline a name stands for (`--mesh-spmd-pipeline`, or the name in
    `--pass-pipeline`): its passes in order.  Its options go to the first
    of its passes that has an option of that name."""

    summary: str
    passes: tuple[str, ...]

    def elements(self, name: str, options: str) -> list[Element]:
        given: dict[str, list[str]] = {p: [] for p in self.passes}
        try:
            items = option_items(options, f"pipeline '{name}'")
        except OptionError as e:
            raise PipelineError(str(e)) from None
        for item in items:
            key = item.partition("=")[0].replace("_", "-")
            owner = next((p for p in self.passes if key in _option_names(p)), None)
            if owner is None:
                known = ", ".join(sorted({o for p in self.passes for o in _option_names(p)}))
                raise PipelineError(f"pipeline '{name}' has no option '{key}' (options: {known})")
            given[owner].append(item)
        return [Element(p, " ".join(given[p])) for p in self.passes]


def _option_names(name: str) -> set[str]:
    return {f.name.replace("_", "-") for f in PASSES[name].options()}


PIPELINES: dict[str, NamedPipeline] = {
    "mesh-spmd-pipeline": NamedPipeline(
        "An annotated program to one SPMD program per device: prepare-windows, decompose-softmax, "
        "sharding-propagation, mesh-partition, mesh-optimize-collectives, mesh-canonicalize",
        (
            "prepare-windows",
            "decompose-softmax",
            "sharding-propagation",
            "mesh-partition",
            "mesh-optimize-collectives",
            "mesh-canonicalize",
        ),
    ),
}
"""Named pipelines, by name (pass names win: none may be one)."""


def expand(elements: list[Element]) -> list[Element]:
    """`elements` with each named pipeline (`PIPELINES`) replaced by its
    passes, and our passes moved out of upstream's nesting:
    `func.func(a, sharding-propagation{...}, b)` becomes `func.func(a)`,
    `sharding-propagation{...}`, `func.func(b)`. These passes treat each
    function on its own, so this runs as upstream's nesting would."""
    out: list[Element] = []
    for el in elements:
        named = PIPELINES.get(el.name) if el.name not in PASSES else None
        if named is not None:
            if el.nested is not None:
                raise PipelineError(f"pipeline '{el.name}' takes options in braces, not a nested pipeline")
            out.extend(named.elements(el.name, el.options))
            continue
        if el.nested is None or el.name in PASSES or _first_ours(el.nested) is None:
            out.append(el)
            continue
        group: list[Element] = []
        for inner in parse_pipeline(el.nested, anchored=False):
            hoisted = inner.name in UPSTREAM_FUNCTION_PASSES and inner.nested is None and el.name == "func.func"
            if not hoisted:
                ours = inner.name in PASSES or inner.name in PIPELINES
                name = inner.name if ours else _first_ours(inner.nested or "")
                if name is not None:
                    where = f"{el.name}(...)" if inner.nested is None else f"{el.name}({inner.name}(...))"
                    raise PipelineError(_nesting_refused(name, where))
                group.append(inner)
                continue
            if group:
                out.append(Element(el.name, nested=", ".join(g.text for g in group)))
                group = []
            out.append(inner)
        if group:
            out.append(Element(el.name, nested=", ".join(g.text for g in group)))
    return out


def _nesting_refused(name: str, where: str) -> str:
    if name in UPSTREAM_FUNCTION_PASSES:
        return (
            f"pass '{name}' runs on the whole module, not in '{where}'; "
            "list it at the top level of the pipeline or directly in func.func(...)"
        )
    what = "pipeline" if name in PIPELINES else "pass"
    return f"{what} '{name}' runs on builtin.module only; list it at the top level of the pipeline"


def _first_ours(nested: str) -> str | None:
    """The first of our passes named anywhere in a nested pipeline."""
    for el in parse_pipeline(nested, anchored=False):
        if el.name in PASSES or el.name in PIPELINES:
            return el.name
        if el.nested is not None:
            found = _first_ours(el.nested)
            if found is not None:
                return found
    return None


def pass_manager(
    pipeline: str = "builtin.module()",
    *,
    context: ir.Context | None = None,
    verify_each: bool = True,
) -> MeshPassManager:
    """A PassManager on `builtin.module` for a textual pipeline that may mix
    this project's passes with upstream's (see the module docstring).
    `verify_each` runs the dialect's verifier after each element, as
    `mesh-opt` does (MLIR's own verifier runs unless `enable_verifier(False)`).
    The context is `context` or the current one."""
    if not isinstance(pipeline, str):
        raise TypeError(f"pass_manager takes the pipeline as a str, got {type(pipeline).__name__}")
    if context is not None and not isinstance(context, ir.Context):
        raise TypeError(f"pass_manager's context must be an ir.Context, got {type(context).__name__}")
    ctx = context if context is not None else ir.Context.current
    if ctx is None:
        raise ValueError("pass_manager needs a context: give context= or call it inside `with ctx:`")
    return build(parse_pipeline(pipeline), ctx, verify_each=verify_each).pm


def describe(elements: list[Element], context: ir.Context) -> str:
    """The pipeline as `mlir-opt --dump-pass-pipeline` shows it: every
    option of every pass, nested pipelines indented."""
    items: list[str] = []
    for el in expand(elements):
        cls = PASSES.get(el.name)
        if cls is not None:
            p = cls.from_options(el.options)
            options = p.describe_options()
            items.append(f"{el.name}{{{options}}}" if options else el.name)
            continue
        pm = PassManager("builtin.module", context=context)
        pm.add(el.text)
        text = str(pm)
        inner = text[len("builtin.module(") : -1] if text.startswith("builtin.module(") else text
        items.extend(_split_items(inner))
    lines = [f"Pass Manager with {len(items)} passes:", "builtin.module("]
    for k, item in enumerate(items):
        lines.extend(_render(item, "  ", last=k == len(items) - 1))
    lines.append(")")
    return "\n".join(lines) + "\n\n"  # mlir-opt's blank line after it


def _split_items(text: str) -> list[str]:
    """The top-level, comma-separated items of a printed pipeline, as printed."""
    items: list[str] = []
    i, start, n = 0, 0, len(text)
    while i < n:
        if text[i] in "{(":
            i = scan_group(text, i)
            continue
        if text[i] == ",":
            items.append(text[start:i].strip())
            start = i + 1
        i += 1
    if text[start:].strip():
        items.append(text[start:].strip())
    return items


def _render(item: str, indent: str, *, last: bool) -> list[str]:
    """One printed item, a nested pipeline opened over several lines."""
    comma = "" if last else ","
    paren = item.find("(")
    brace = item.find("{")
    if paren < 0 or (0 <= brace < paren) or not item.endswith(")"):
        return [f"{indent}{item}{comma}"]
    inner = _split_items(item[paren + 1 : -1])
    lines = [f"{indent}{item[:paren]}("]
    for k, sub in enumerate(inner):
        lines.extend(_render(sub, indent + "  ", last=k == len(inner) - 1))
    lines.append(f"{indent}){comma}")
    return lines
