"""Facts about builtin types that several layers ask."""

from __future__ import annotations

import math

from mlir import ir


def is_boolean(t: ir.Type) -> bool:
    """Whether `t`, or the element type of a shaped `t`, is i1: arithmetic on
    it wraps at one bit, so its add is an exclusive or and, read signed, its
    true is -1 (reductions and combiners differ from wider integers')."""
    element = ir.ShapedType(t).element_type if isinstance(t, ir.ShapedType) else t
    return isinstance(element, ir.IntegerType) and element.width == 1


def float_zero(t: ir.Type) -> float | None:
    """The zero a sum of float type `t` starts from: -0.0 (x + -0.0 is x
    for every x, where +0.0 turns a -0.0 term into +0.0); +0.0 in a format
    whose zero has no sign (the unsigned-zero `FNUZ` formats, whose bits of
    -0.0 are their NaN); None in a format without a zero (`f8E8M0FNU`,
    powers of two only), whose sums cannot be split into terms."""
    name = str(t)
    if name == "f8E8M0FNU":
        return None
    return 0.0 if name.endswith("FNUZ") else -0.0


def sum_zero_attr(element: ir.Type) -> ir.Attribute | None:
    """`float_zero` of a float `element` as an attribute, 0 of an integer
    one: what the devices not holding a term of a sum hold.  None for a
    format without a zero (asking APFloat for it aborts the process)."""
    if not isinstance(element, ir.FloatType):
        return ir.IntegerAttr.get(element, 0)
    zero = float_zero(element)
    return None if zero is None else ir.FloatAttr.get(element, zero)


def float_has_infinity(t: ir.Type) -> bool:
    """Whether float type `t` has infinities, from which a max or a min
    starts: the finite-only formats (`FN` in their names: f8E4M3FN, the
    FNUZ formats, f4E2M1FN, f6E2M3FN, f8E8M0FNU) have none."""
    return "FN" not in str(t)


_FINITE_MAX = {
    "f8E4M3FN": 448.0,
    "f8E4M3FNUZ": 240.0,
    "f8E5M2FNUZ": 57344.0,
    "f8E4M3B11FNUZ": 30.0,
    "f6E2M3FN": 7.5,
    "f6E3M2FN": 28.0,
    "f4E2M1FN": 6.0,
    "f8E8M0FNU": 2.0**127,
}
"""The largest value of each finite-only format (`float_has_infinity`)."""


def float_extreme(t: ir.Type, highest: bool) -> float | None:
    """The highest (or lowest) value of float type `t`, where a min (a max)
    starts: an infinity, or in a finite-only format its largest finite
    value (a constant -inf there is the format's NaN, or none at all);
    None for a finite-only format this table does not know."""
    if float_has_infinity(t):
        return math.inf if highest else -math.inf
    name = str(t)
    largest = _FINITE_MAX.get(name)
    if largest is None:
        return None
    if name == "f8E8M0FNU":  # unsigned: its lowest value is its smallest
        return largest if highest else 2.0**-127
    return largest if highest else -largest


def integer_value(attr: ir.IntegerAttr) -> int:
    """An integer attribute's value, an unsigned type's read unsigned: the
    bindings give a 64-bit unsigned value with its top bit set as negative
    (`dense<18446744073709551615> : tensor<ui64>` reads -1)."""
    value = attr.value
    t = attr.type
    if value < 0 and isinstance(t, ir.IntegerType) and ir.IntegerType(t).is_unsigned:
        value += 1 << ir.IntegerType(t).width
    return value


__all__ = ["float_extreme", "float_has_infinity", "float_zero", "integer_value", "is_boolean", "sum_zero_attr"]
