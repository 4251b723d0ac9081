"""Structured control flow whose results are carried through regions.

Propagation, partition and the cost model agree here on which values of a
region op are one carried value (it has one layout everywhere it appears)
and on how many times a loop runs when its IR says so.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from mlir import ir

from .hlo import FLIPPED, comparison_direction
from .uniform import readable_attr

HLO_WHILE = ("stablehlo.while", "mhlo.while")
HLO_BRANCHES = ("stablehlo.if", "stablehlo.case", "mhlo.if", "mhlo.case")
"""JAX's `lax.cond` and `lax.switch`: regions that read values from outside,
one of which runs, chosen by a rank-0 operand every device must agree on."""
HLO_REGION_OPS = (*HLO_WHILE, *HLO_BRANCHES)
"""The hlo ops whose regions are control flow (not a scalar body)."""
HLO_BARRIERS = ("stablehlo.optimization_barrier", "mhlo.optimization_barrier")
"""`jax.checkpoint`'s fence: each result is its operand, as a loop that
never runs hands on its init."""
CARRIED_OPS = (
    "scf.for",
    "scf.if",
    "scf.index_switch",
    "scf.execute_region",
    "scf.while",
    *HLO_REGION_OPS,
    *HLO_BARRIERS,
)
"""Ops each of whose results is a value carried through them (their
regions, or a barrier)."""
LOOP_OPS = ("scf.for", "scf.while", *HLO_WHILE)
"""Loops: what is defined outside one is the same on every iteration."""

_STEPS = ("stablehlo.add", "mhlo.add", "stablehlo.subtract", "mhlo.subtract")


def ancestors(op: ir.Operation | ir.OpView, stop: ir.Operation | ir.OpView | None = None) -> Iterator[ir.Operation]:
    """The ops around `op`, innermost first, up to `stop` (left out) or the
    top: one walk for every "is it inside" question the passes ask."""
    end = None if stop is None else stop.operation
    parent = op.parent
    while parent is not None:
        parent = parent.operation
        if end is not None and parent == end:
            return
        yield parent
        parent = parent.parent


INLINE_COPIES = 4096
"""Copies of functions inlining may make in one module (`import-shardings`'
private functions; the parse's calls in reducers beyond those the module
has): a chain of functions each calling the next twice doubles them at
every level, and one calling itself never ends."""

INLINE_ROUNDS = 64
"""Rounds of inlining at most: each round inlines the calls the last one
brought along, so a chain of calls deeper than this keeps its deepest."""


def splice_call(call: ir.Operation, func: ir.Operation) -> None:
    """Move the body of `func` (one block, ending in its return) in front of
    `call`: its arguments become the call's operands, and the call's results
    what it returns.  The call and the emptied `func` are left for the
    caller to erase (a pass erases through its change tracking)."""
    entry = func.regions[0].blocks[0]
    ops = [op.operation for op in entry.operations]
    for op in ops[:-1]:
        op.move_before(call)
    for arg, operand in zip(entry.arguments, call.operands):
        arg.replace_all_uses_with(operand)
    for result, value in zip(call.results, ops[-1].operands):
        result.replace_all_uses_with(value)


@dataclass
class Carried:
    """One value carried through a region op: the result it ends as (None
    for what an `scf.while` carries into its condition), the index of its
    init operand (None for `scf.if`), the block arguments it enters as,
    and the (terminator, operand index) pairs that hand it on."""

    result: ir.Value | None
    init: int | None
    args: list[ir.Value]
    yields: list[tuple[ir.Operation, int]]


def carried(op: ir.Operation) -> list[Carried]:
    """The values `op` (one of `CARRIED_OPS`) carries, each with one layout.
    An `scf.while` carries two sets: its inits into the condition (and
    back from the body), and what the condition hands the body (and the
    results)."""
    name = op.name
    results = list(op.results)
    if name == "scf.for":
        body = op.regions[0].blocks[0]
        args = list(body.arguments)[1:]
        end = terminator(body)
        return [Carried(r, 3 + k, [args[k]], [(end, k)]) for k, r in enumerate(results)]
    if name in HLO_WHILE:
        cond, body = (op.regions[i].blocks[0] for i in range(2))
        end = terminator(body)
        pairs = zip(results, cond.arguments, body.arguments)
        return [Carried(r, k, [c, b], [(end, k)]) for k, (r, c, b) in enumerate(pairs)]
    if name in HLO_BARRIERS:
        return [Carried(r, k, [], []) for k, r in enumerate(results)]
    if name == "scf.while":
        before, after = (op.regions[i].blocks[0] for i in range(2))
        check, end = terminator(before), terminator(after)
        into = [Carried(None, k, [a], [(end, k)]) for k, a in enumerate(before.arguments)]
        out = [Carried(r, None, [a], [(check, k + 1)]) for k, (r, a) in enumerate(zip(results, after.arguments))]
        return into + out
    ends = [terminator(region.blocks[0]) for region in op.regions if len(region.blocks)]
    return [Carried(r, None, [], [(end, k) for end in ends]) for k, r in enumerate(results)]


def _kind(t: ir.Type) -> object:
    """A type up to its shape: a tensor's element type and rank."""
    if isinstance(t, ir.RankedTensorType):
        return (t.element_type, t.rank)
    return t


def selector(op: ir.Operation) -> int | None:
    """The operand that picks an hlo branch op's region (its predicate or
    index), which every device must hold whole; None for other ops."""
    return 0 if op.name in HLO_BRANCHES else None


def malformed(op: ir.Operation) -> str | None:
    """Why an hlo while, if, case or barrier does not have the shape `carried` reads
    (its dialect is unregistered, so MLIR never verified it), else None."""
    if op.name in HLO_BRANCHES:
        wanted = 2 if op.name.endswith(".if") else None
        if len(op.operands) != 1:
            return f"needs one operand (the {'predicate' if wanted else 'branch index'}), got {len(op.operands)}"
        t = op.operands[0].type
        if not isinstance(t, ir.RankedTensorType) or t.rank != 0:
            return f"needs a rank-0 tensor to choose its branch, got {t}"
        element = t.element_type
        if wanted and not (isinstance(element, ir.IntegerType) and element.width == 1):
            return f"needs an i1 predicate, got {t}"
        if not wanted and not (isinstance(element, ir.IntegerType) and element.width > 1):
            return f"needs an integer branch index, got {t}"
        count = len(op.regions)
        if count == 0 or (wanted is not None and count != wanted):
            return f"needs {wanted or 'at least 1'} regions, got {count}"
        if any(len(r.blocks) != 1 or not len(r.blocks[0].operations) for r in op.regions):
            return "needs regions of one block ending in a return"
        n = len(op.results)
        for k, region in enumerate(op.regions):
            block = region.blocks[0]
            if len(block.arguments):
                return f"needs branches without arguments, got {len(block.arguments)} in region {k}"
            returned = len(terminator(block).operands)
            if returned != n:
                return f"has {n} results but region {k} returns {returned} values"
        return None
    if op.name in HLO_BARRIERS:
        # element types and ranks: partition may have retyped a result to its piece already
        if len(op.operands) != len(op.results) or any(
            _kind(v.type) != _kind(r.type) for v, r in zip(op.operands, op.results)
        ):
            return "needs results of its operands' types, one per operand"
        return None
    if op.name not in HLO_WHILE:
        return None
    if len(op.regions) != 2 or any(len(r.blocks) != 1 or not len(r.blocks[0].operations) for r in op.regions):
        return "needs 2 regions of one block ending in a return"
    cond, body = (op.regions[i].blocks[0] for i in range(2))
    n = len(op.operands)
    counts = (len(op.results), len(cond.arguments), len(body.arguments), len(terminator(body).operands))
    if any(c != n for c in counts):
        return (
            f"carries {n} values but has {counts[0]} results, {counts[1]} condition arguments, "
            f"{counts[2]} body arguments and a body returning {counts[3]} values"
        )
    return None


def layout_holder(value: Carried) -> ir.Value:
    """The value whose layout is the carried value's."""
    return value.result if value.result is not None else value.args[0]


def terminator(block: ir.Block) -> ir.Operation:
    ops = block.operations
    return ops[len(ops) - 1].operation


def _int_constant(v: ir.Value) -> int | None:
    """The integer a scalar constant holds (arith or hlo), else None."""
    owner = v.owner
    if isinstance(owner, ir.Block) or owner.name not in ("arith.constant", "stablehlo.constant", "mhlo.constant"):
        return None
    attr = readable_attr(owner, "value")
    if isinstance(attr, ir.IntegerAttr):
        return ir.IntegerAttr(attr).value
    if isinstance(attr, ir.DenseIntElementsAttr) and ir.DenseIntElementsAttr(attr).is_splat:
        splat = ir.DenseIntElementsAttr(attr).get_splat_value()
        return ir.IntegerAttr(splat).value if isinstance(splat, ir.IntegerAttr) else None
    return None


def trip_count(op: ir.Operation) -> int | None:
    """Iterations of a loop whose count its IR gives, else None: an `scf.for`
    of constant bounds, or an hlo while counting a carried integer from a
    constant by a constant step up to (or down to) a constant bound, as
    JAX's `fori_loop` and `scan` do."""
    name = op.name
    if name == "scf.for":
        lb, ub, step = (_int_constant(op.operands[i]) for i in range(3))
        if lb is None or ub is None or step is None or step <= 0:
            return None
        return max(0, math.ceil((ub - lb) / step))
    if name not in HLO_WHILE or len(op.regions) != 2:
        return None
    try:
        cond, body = (op.regions[i].blocks[0] for i in range(2))
    except IndexError:
        return None
    check = terminator(cond)
    if len(check.operands) != 1 or isinstance(check.operands[0].owner, ir.Block):
        return None
    compare = check.operands[0].owner
    if not compare.name.endswith(".compare") or len(compare.operands) != 2:
        return None
    direction = comparison_direction(str(compare.attributes["comparison_direction"]))
    if direction is None:
        return None
    counter, bound = compare.operands
    if not isinstance(counter, ir.BlockArgument) or counter.owner != cond:
        counter, bound = bound, counter
        direction = FLIPPED[direction]
    if not isinstance(counter, ir.BlockArgument) or counter.owner != cond:
        return None
    k = ir.BlockArgument(counter).arg_number
    width = _signed_width(counter.type)
    if width is None or "UNSIGNED" in _compare_type(compare):
        return None  # unsigned order: the counter's bits would need reading as such
    start, limit = _int_constant(op.operands[k]), _int_constant(bound)
    step = _step(terminator(body).operands[k], body.arguments[k])
    if start is None or limit is None or step is None or step == 0:
        return None
    trips = _counted(direction, start, limit, step)
    if trips is None:
        return None
    low, high = -(1 << (width - 1)), (1 << (width - 1)) - 1
    if not low <= start + trips * step <= high:
        return None  # the counter wraps before the test fails
    return trips


def _counted(direction: str, start: int, limit: int, step: int) -> int | None:
    """Trips of `counter <direction> limit` from `start` by `step`, in
    unbounded integers; None when the test never fails without wrapping."""
    if direction == "NE":
        if (limit - start) % step or (limit - start) * step < 0:
            return None  # never equal before the counter wraps
        return (limit - start) // step
    if step > 0 and direction in ("LT", "LE"):
        end = limit + (1 if direction == "LE" else 0)
        return max(0, math.ceil((end - start) / step))
    if step < 0 and direction in ("GT", "GE"):
        end = limit - (1 if direction == "GE" else 0)
        return max(0, math.ceil((start - end) / -step))
    holds = {"LT": start < limit, "LE": start <= limit, "GT": start > limit, "GE": start >= limit}
    return 0 if direction in holds and not holds[direction] else None


def _signed_width(t: ir.Type) -> int | None:
    """The width of a signless or signed integer scalar tensor (or integer)."""
    if isinstance(t, ir.RankedTensorType):
        t = ir.RankedTensorType(t).element_type
    if isinstance(t, ir.IndexType):
        return 64
    if not isinstance(t, ir.IntegerType) or ir.IntegerType(t).is_unsigned:
        return None
    return ir.IntegerType(t).width


def _compare_type(compare: ir.Operation) -> str:
    return str(compare.attributes["compare_type"]) if "compare_type" in compare.attributes else ""


def _step(new: ir.Value, arg: ir.Value) -> int | None:
    """`c` when `new` is `arg + c` (or `arg - c`) for a constant `c`."""
    owner = new.owner
    if isinstance(owner, ir.Block) or owner.name not in _STEPS:
        return None
    a, b = owner.operands
    if owner.name.endswith("add"):
        if a == arg:
            return _int_constant(b)
        return _int_constant(a) if b == arg else None
    c = _int_constant(b) if a == arg else None
    return None if c is None else -c
