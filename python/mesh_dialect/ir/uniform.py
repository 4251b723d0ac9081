"""Tensors every piece of which is the same thing as the whole.

A splat constant, a `tensor.empty` and a fill of an empty hold nothing that
depends on where an element lies: partition makes such a value again in the
layout a user needs instead of moving it (`_rebuilt_in`), and propagation
prices that change of layout at nothing (`graph.py`).  Both read the ops here,
so they agree on which values these are.
"""

from __future__ import annotations

from mlir import ir

CONSTANTS = ("arith.constant", "tosa.const", "mhlo.constant", "stablehlo.constant")
"""Ops making a tensor from an attribute."""


def readable_attr(owner: ir.Operation | ir.OpView, name: str) -> ir.Attribute | None:
    """`owner.attributes[name]`, or None when absent or when the bindings
    cannot hand it over (a dense attribute of complex elements: reading one
    raises TypeError)."""
    try:
        return owner.attributes[name] if name in owner.attributes else None
    except TypeError:
        return None


def splat_of(owner: ir.Operation | ir.OpView) -> tuple[str, str, ir.Attribute] | None:
    """(op name, attribute name, element) of a splat tensor constant made
    by `owner`, else None."""
    if owner.name not in CONSTANTS:
        return None
    for attr_name in ("value", "values"):
        attr = readable_attr(owner, attr_name)
        if isinstance(attr, ir.DenseElementsAttr) and attr.is_splat:
            return owner.name, attr_name, attr.get_splat_value()
    return None


def fill_init(op: ir.Operation | ir.OpView, name: str) -> ir.Value | None:
    """The init of a fill (`filled`) named `name`, or None for anything
    else; a `linalg.fill`'s scalar is not read."""
    if name == "linalg.fill":
        if len(op.results) != 1:
            return None
        operands = op.operands
        return operands[1] if len(operands) == 2 else None
    if name != "linalg.generic" or filled(op) is None:
        return None
    return op.operands[len(op.operands) - 1]


def filled(op) -> ir.Value | None:
    """The scalar a fill writes: of a `linalg.fill`, or of a `linalg.generic`
    that only yields a scalar (an `ins` scalar or a value from outside) into
    its one tensor, its init: what `linalg-generalize-named-ops` and
    elementwise fusion make of a fill.  None for anything else."""
    if not isinstance(op, ir.OpView | ir.Operation) or len(op.results) != 1:
        return None
    name = op.name
    if name == "linalg.fill":
        return op.operands[0] if len(op.operands) == 2 else None
    if name != "linalg.generic" or "reduction" in str(op.attributes["iterator_types"]):
        return None
    operands = list(op.operands)
    if [v for v in operands if isinstance(v.type, ir.ShapedType)] != operands[-1:]:
        return None  # tensor inputs, or no init
    body = op.regions[0].blocks[0]
    ops = list(body.operations)
    if len(ops) != 1 or ops[0].name != "linalg.yield" or len(ops[0].operands) != 1:
        return None
    y = ops[0].operands[0]
    if isinstance(y, ir.BlockArgument):
        if y.owner != body or y.arg_number >= len(operands) - 1:
            return None  # the init itself: a copy of what an empty tensor holds
        return operands[y.arg_number]
    return y


__all__ = ["CONSTANTS", "fill_init", "filled", "splat_of"]
