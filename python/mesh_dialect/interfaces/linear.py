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

from ..ir.uniform import readable_attr
from ..sharding.spec import Sharding
from .rules import Conflict, ShardingOption, ShardingRule, option_from_requests, shardings_from_option

_MOVES = frozenset(
    (
        "stablehlo.transpose",
        "mhlo.transpose",
        "stablehlo.reshape",
        "mhlo.reshape",
        "tensor.expand_shape",
        "tensor.collapse_shape",
        "tensor.extract_slice",
    )
)
"""Elements moved without arithmetic (a slice: only one taking each
dimension whole or one row of it, at static positions, `_whole_or_rows`)."""
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
"""Ops that may run on partial sums (`term_operands` says when and how),
besides a `linalg.generic` whose body is linear (`generic_terms`)."""

LINEAR_BODY_OPS = frozenset(
    (
        "arith.addf",
        "arith.addi",
        "arith.subi",
        "arith.mulf",
        "arith.muli",
        "arith.divf",
        "arith.constant",
        "linalg.yield",
    )
)
"""The ops a linear `linalg.generic` body is made of (`generic_terms`):
a body with any other cannot be linear, and is not read further."""


def ways_off_pads(ways: Sequence[tuple[int, ...]], rule: ShardingRule) -> tuple[tuple[int, ...], ...]:
    """`ways` (`term_operands`) less those reading as terms an operand the
    op reads through a pad (`rule.fused`): every device would pad its own
    terms, and the total would hold the padding once per device."""
    if not rule.fused:
        return tuple(ways)
    return tuple(way for way in ways if not set(way) & set(rule.fused))


def term_operands(op: ir.Operation | ir.OpView) -> tuple[tuple[int, ...], ...]:
    """The ways `op` runs on partial sums, each the operands it reads as
    terms (the others are read whole); none when it cannot: it is not one
    of `SUM_LINEAR_OPS`, its element type is not a real number (i1's add
    is an or; complex numbers have no neutral constant to keep a whole
    operand on one device with), a float product or quotient has no
    constant factor or divisor that never grows a term (`_shrinks`), or a
    float add is of fewer than 32 bits or reads one value twice."""
    name = op.name
    if name == "linalg.generic":
        return generic_terms(op)
    if name not in SUM_LINEAR_OPS or len(op.results) != 1:
        return ()
    t = op.results[0].type
    if not isinstance(t, ir.RankedTensorType):
        return ()
    element = ir.RankedTensorType(t).element_type
    operands = list(op.operands)
    if name == "tensor.extract_slice":
        # a slice's dynamic offsets, sizes and strides are index scalars,
        # which every device holds whole: only its source is read as terms
        if any(not isinstance(v.type, ir.IndexType) for v in operands[1:]):
            return ()
        operands = operands[:1]
    if any(not isinstance(v.type, ir.RankedTensorType) or v.type.element_type != element for v in operands):
        return ()
    is_float = isinstance(element, ir.FloatType)
    if not is_float and not (isinstance(element, ir.IntegerType) and ir.IntegerType(element).width > 1):
        return ()
    if name == "tensor.extract_slice" and not _whole_or_rows(op):
        return ()
    n = len(operands)
    if name in _PRODUCTS:
        if not is_float:
            return tuple((i,) for i in range(n))
        return tuple((i,) for i in range(n) if all(_shrinks(op.operands[j], False) for j in range(n) if j != i))
    if name in _QUOTIENTS:
        return ((0,),) if is_float and n == 2 and _shrinks(op.operands[1], True) else ()
    if name in _NEGATIONS and is_float:
        return ()
    if name in _ADDS and float_terms_overflow(element, list(op.operands)):
        return ()
    return (tuple(range(n)),)


def _whole_or_rows(op: ir.Operation | ir.OpView) -> bool:
    """Whether a `tensor.extract_slice` takes each dimension of its operand
    of static shape whole or one row of it, at a static or a run-time
    position, with static sizes and strides (`h[:, -1]` or `h[:, pos]` of a
    partial sum: the row of each device's terms adds up to the row of the
    total).  A run of rows is read through a crop, whose layouts hold no
    partial sums."""
    t = ir.RankedTensorType(op.operands[0].type)
    if not t.has_static_shape:
        return False
    offsets = ir.DenseI64ArrayAttr(op.attributes["static_offsets"])
    sizes = ir.DenseI64ArrayAttr(op.attributes["static_sizes"])
    strides = ir.DenseI64ArrayAttr(op.attributes["static_strides"])
    return all(n == 1 or (o == 0 and n == f and s == 1) for o, n, s, f in zip(offsets, sizes, strides, t.shape))


def float_terms_overflow(element: ir.Type | None, terms: Sequence[ir.Value]) -> bool:
    """Whether adding `terms` of `element` on each device, before their
    reduction, may overflow where adding their totals would not, as
    `generic_terms` also refuses: a float narrower than 32 bits (a device's
    terms cancelling across devices overflow f16's 65,504 at realistic
    sizes), or a float value read twice (each device doubles its term); a
    complex number as its parts.  Integers wrap alike either way."""
    if isinstance(element, ir.ComplexType):
        element = ir.ComplexType(element).element_type
    if not isinstance(element, ir.FloatType):
        return False
    if ir.FloatType(element).width < 32:
        return True
    return any(terms[i] == terms[j] for i in range(len(terms)) for j in range(i))


def sum_linear(op: ir.Operation | ir.OpView) -> bool:
    """Whether `op` may run on partial sums (`term_operands`)."""
    return bool(term_operands(op))


def generic_terms(op: ir.Operation | ir.OpView) -> tuple[tuple[int, ...], ...]:
    """`term_operands` of a `linalg.generic` with one result whose body
    yields a linear combination of its block arguments: sums, integer
    differences, and products (quotients) by scalar constants under the same
    bounds as a tensor op's (`_shrinks`; any integer factor).  Its one way
    reads every operand the body reads as terms: a sum reduction
    (`acc + x`) is one, its init a term like its input, so each device sums
    its own terms and the totals add up.  An operand the body does not read
    (a parallel op's init) is read whole.  None for any other body: a
    constant added to a term would be added once per device.

    Floats must not let a term grow where its total would not, as a
    product by more than 1 could: no argument may count more than once in
    any value the body makes (`x + x` is refused like `x * 2.0`), and
    floats narrower than 32 bits are refused, since a device's sum of its
    own terms (cancelling across devices) overflows them at realistic
    sizes."""
    if len(op.results) != 1 or len(op.regions) != 1:
        return ()
    t = op.results[0].type
    if not isinstance(t, ir.RankedTensorType):
        return ()
    element = ir.RankedTensorType(t).element_type
    is_float = isinstance(element, ir.FloatType)
    if is_float and ir.FloatType(element).width < 32:
        return ()
    if not is_float and not (isinstance(element, ir.IntegerType) and ir.IntegerType(element).width > 1):
        return ()
    blocks = op.regions[0].blocks
    if len(blocks) != 1:
        return ()
    block = blocks[0]
    arguments = block.arguments
    if len(arguments) != len(op.operands):
        return ()
    # per body value: the combination of block arguments it is (a dict of
    # each argument's coefficient), or the scalar it holds (a constant);
    # values missing are neither
    linear: dict[ir.Value, dict[int, float] | float | int] = {arguments[k]: {k: 1} for k in range(len(arguments))}

    def read(v: ir.Value) -> dict[int, float] | float | int | None:
        found = linear.get(v)
        if found is None:
            found = _splat_value(v)  # a constant from outside the body
        return found

    for inner in block.operations:
        name = inner.name
        if name not in LINEAR_BODY_OPS:
            return ()
        if name == "linalg.yield":
            if len(inner.operands) != 1:
                return ()
            terms = read(inner.operands[0])
            if not isinstance(terms, dict) or not terms:
                return ()
            return (tuple(sorted(terms)),)
        if len(inner.results) != 1 or inner.results[0].type != element:
            return ()
        if name == "arith.constant":
            value = _splat_value(inner.results[0])
            if value is None:
                return ()
            linear[inner.results[0]] = value
            continue
        if len(inner.operands) != 2:
            return ()
        a, b = read(inner.operands[0]), read(inner.operands[1])
        if a is None or b is None:
            return ()
        if name in ("arith.addf", "arith.addi", "arith.subi"):
            # (both sides terms: a constant added would be added on every device)
            if not isinstance(a, dict) or not isinstance(b, dict):
                return ()
            made = dict(a)
            for k, c in b.items():
                made[k] = made.get(k, 0) + c  # (a difference's sign does not matter to the bound)
        elif name == "arith.divf":
            if not isinstance(a, dict) or isinstance(b, dict) or not (math.isfinite(b) and b >= 1):
                return ()
            made = {k: c / b for k, c in a.items()}
        else:  # a product: one factor a term, the other a constant
            if isinstance(a, dict) == isinstance(b, dict):
                return ()
            terms, factor = (a, b) if isinstance(a, dict) else (b, a)
            assert isinstance(terms, dict) and not isinstance(factor, dict)
            if is_float and not (math.isfinite(factor) and 0 < factor <= 1):
                return ()
            made = {k: c * factor for k, c in terms.items()}
        if is_float and any(c > 1 for c in made.values()):
            return ()
        linear[inner.results[0]] = made
    return ()


def _shrinks(v: ir.Value, divisor: bool) -> bool:
    """Whether `v` is a splat constant by which a product (or, `divisor`,
    a quotient) never grows a value: a factor in (0, 1], a divisor of at
    least 1.  A term may be far larger than its total (terms of opposite
    signs), so a growing factor could take a term to inf (f16 loss scaling
    by 2048) where the total stays finite; a negative one turns the
    neutral -0.0 into +0.0."""
    x = _splat_value(v)
    if not isinstance(x, float) or not math.isfinite(x):
        return False
    return x >= 1 if divisor else 0 < x <= 1


def _splat_value(v: ir.Value) -> float | int | None:
    """The number `v` holds in every element (a scalar: the one it holds),
    when it is a constant of floats or integers."""
    for _ in range(8):  # a few ops that keep the splat
        owner = v.owner
        if isinstance(owner, ir.Block) or owner.name not in _SAME_SPLAT:
            break
        v = owner.operands[0]
    owner = v.owner
    if isinstance(owner, ir.Block) or owner.name not in _CONSTANTS:
        return None
    attr = readable_attr(owner, "value")
    if isinstance(attr, ir.DenseElementsAttr):
        if not attr.is_splat:
            return None
        attr = attr.get_splat_value()
    if isinstance(attr, ir.FloatAttr):
        return ir.FloatAttr(attr).value
    if isinstance(attr, ir.IntegerAttr):
        return ir.IntegerAttr(attr).value
    return None


def on_terms(
    rule: ShardingRule, out: Sharding, terms: Sequence[int], mesh_shape: Sequence[int] | None = None
) -> tuple[ShardingOption, tuple[Sharding | None, ...]] | None:
    """How a `sum_linear` op produces `out`, a partial sum, reading operands
    `terms` as terms: its loop sharding (the one giving `out`'s split) and
    the layout of each operand (its split under that loop sharding, partial
    over `out`'s axes for the operands in `terms`; None for one the rule
    does not index, a slice's run-time offset).  None when `out` is no
    plain partial sum or the op's loops cannot give its split."""
    if out.partial_type != "sum" or not out.partial_axes or out.halo_sizes or out.sharded_dims_offsets:
        return None
    if set(out.partial_axes).intersection(a for axes in out.split_axes for a in axes):
        return None  # not a layout
    if len(rule.result_maps) != 1 or any(m is None for i, m in enumerate(rule.operand_maps) if i in terms):
        return None
    split = Sharding(out.split_axes)
    option = option_from_requests(rule, [("result", 0, split)])
    if isinstance(option, Conflict):
        return None
    operands, results = shardings_from_option(rule, option, mesh_shape)
    indexed = [s for s, m in zip(operands, rule.operand_maps) if m is not None]
    if results[0] != split or any(s is None or s.halo_sizes or s.partial_axes for s in indexed):
        return None
    return option, tuple(
        Sharding(s.split_axes, out.partial_axes, "sum") if i in terms else s  # type: ignore[union-attr]
        for i, s in enumerate(operands)
    )


__all__ = ["LINEAR_BODY_OPS", "SUM_LINEAR_OPS", "generic_terms", "on_terms", "sum_linear", "term_operands"]
