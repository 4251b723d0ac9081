"""Ops that are linear in the sum: run on each device's terms of partial
sums, they give the terms of the result's partial sum, exactly as the op on
the totals would (floats: up to the rounding any reassociation moves).

Propagation offers them a partial-sum state and partition runs them on
terms, so an accumulator carried through a loop (a gradient summed over
micro-batches) stays partial and is reduced once, after the loop.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from mlir import ir

from ..sharding.spec import Sharding
from .rules import Conflict, ShardingOption, ShardingRule, option_from_requests, shardings_from_option

_MOVES = frozenset(("stablehlo.transpose", "mhlo.transpose", "stablehlo.reshape", "mhlo.reshape"))
"""Elements moved without arithmetic."""
_ADDS = frozenset(("stablehlo.add", "mhlo.add", "arith.addf", "arith.addi"))
"""Sums: the terms of a + b are a's terms plus b's.  For floats too: a sum
of terms is -0.0 only when every term is, as the totals' sum is."""
_NEGATIONS = frozenset(
    ("stablehlo.subtract", "mhlo.subtract", "stablehlo.negate", "mhlo.negate", "arith.subi", "arith.negf", "arith.subf")
)
"""Integers only: wrapping arithmetic is linear.  Floats are not taken: a
term -0.0 (a value kept on one device, the neutral on the others) negates
to +0.0, which is no longer neutral, and -(+0.0) would total +0.0."""
_PRODUCTS = frozenset(("stablehlo.multiply", "mhlo.multiply", "arith.mulf", "arith.muli"))
"""Linear in one factor, the other read whole: any integer factor; a float
factor only when it is a splat constant in (0, 1] (`_shrinks`)."""
_QUOTIENTS = frozenset(("stablehlo.divide", "mhlo.divide", "arith.divf"))
"""Floats only, linear in the dividend when the divisor is a splat
constant of at least 1 (integer division rounds each term)."""
_CONSTANTS = ("stablehlo.constant", "mhlo.constant", "arith.constant")
_SAME_SPLAT = ("stablehlo.broadcast_in_dim", "mhlo.broadcast_in_dim", "mesh.all_slice", "tensor.cast")
"""Ops whose result holds the splat their first operand holds."""

SUM_LINEAR_OPS = _MOVES | _ADDS | _NEGATIONS | _PRODUCTS | _QUOTIENTS
"""Ops that may run on partial sums (`term_operands` says when and how)."""


def term_operands(op: ir.Operation | ir.OpView) -> tuple[tuple[int, ...], ...]:
    """The ways `op` runs on partial sums, each the operands it reads as
    terms (the others are read whole); none when it cannot: it is not one
    of `SUM_LINEAR_OPS`, its element type is not a real number (i1's add
    is an or; complex numbers have no neutral constant to keep a whole
    operand on one device with), or a float product or quotient has no
    constant factor or divisor that never grows a term (`_shrinks`)."""
    name = op.name
    if name not in SUM_LINEAR_OPS or len(op.results) != 1:
        return ()
    t = op.results[0].type
    if not isinstance(t, ir.RankedTensorType):
        return ()
    element = ir.RankedTensorType(t).element_type
    if any(not isinstance(v.type, ir.RankedTensorType) or v.type.element_type != element for v in op.operands):
        return ()
    is_float = isinstance(element, ir.FloatType)
    if not is_float and not (isinstance(element, ir.IntegerType) and ir.IntegerType(element).width > 1):
        return ()
    n = len(op.operands)
    if name in _PRODUCTS:
        if not is_float:
            return tuple((i,) for i in range(n))
        return tuple((i,) for i in range(n) if all(_shrinks(op.operands[j], False) for j in range(n) if j != i))
    if name in _QUOTIENTS:
        return ((0,),) if is_float and n == 2 and _shrinks(op.operands[1], True) else ()
    if name in _NEGATIONS and is_float:
        return ()
    return (tuple(range(n)),)


def sum_linear(op: ir.Operation | ir.OpView) -> bool:
    """Whether `op` may run on partial sums (`term_operands`)."""
    return bool(term_operands(op))


def _shrinks(v: ir.Value, divisor: bool) -> bool:
    """Whether `v` is a splat constant by which a product (or, `divisor`,
    a quotient) never grows a value: a factor in (0, 1], a divisor of at
    least 1.  A term may be far larger than its total (terms of opposite
    signs), so a growing factor could take a term to inf (f16 loss scaling
    by 2048) where the total stays finite; a negative one turns the
    neutral -0.0 into +0.0."""
    x = _splat_float(v)
    if x is None or not math.isfinite(x):
        return False
    return x >= 1 if divisor else 0 < x <= 1


def _splat_float(v: ir.Value) -> float | None:
    """The float `v` holds in every element, when it is a splat constant."""
    for _ in range(8):  # a few ops that keep the splat
        owner = v.owner
        if isinstance(owner, ir.Block) or owner.name not in _SAME_SPLAT:
            break
        v = owner.operands[0]
    owner = v.owner
    if isinstance(owner, ir.Block) or owner.name not in _CONSTANTS or "value" not in owner.attributes:
        return None
    attr = owner.attributes["value"]
    if isinstance(attr, ir.DenseElementsAttr):
        if not attr.is_splat:
            return None
        attr = attr.get_splat_value()
    if not isinstance(attr, ir.FloatAttr):
        return None
    return ir.FloatAttr(attr).value


def on_terms(
    rule: ShardingRule, out: Sharding, terms: Sequence[int], mesh_shape: Sequence[int] | None = None
) -> tuple[ShardingOption, tuple[Sharding, ...]] | None:
    """How a `sum_linear` op produces `out`, a partial sum, reading operands
    `terms` as terms: its loop sharding (the one giving `out`'s split) and
    the layout of each operand (its split under that loop sharding, partial
    over `out`'s axes for the operands in `terms`).  None when `out` is no
    plain partial sum or the op's loops cannot give its split."""
    if out.partial_type != "sum" or not out.partial_axes or out.halo_sizes or out.sharded_dims_offsets:
        return None
    if set(out.partial_axes).intersection(a for axes in out.split_axes for a in axes):
        return None  # not a layout
    if len(rule.result_maps) != 1 or any(m is None for m in rule.operand_maps):
        return None
    split = Sharding(out.split_axes)
    option = option_from_requests(rule, [("result", 0, split)])
    if isinstance(option, Conflict):
        return None
    operands, results = shardings_from_option(rule, option, mesh_shape)
    if results[0] != split or any(s is None or s.halo_sizes or s.partial_axes for s in operands):
        return None
    return option, tuple(
        Sharding(s.split_axes, out.partial_axes, "sum") if i in terms else s  # type: ignore[union-attr]
        for i, s in enumerate(operands)
    )


__all__ = ["SUM_LINEAR_OPS", "on_terms", "sum_linear", "term_operands"]
