"""Float max and min with -0.0 ordered below +0.0, element-wise and along axes.

numpy's `maximum` and `minimum` return one of two equal operands by their
order, so `np.maximum(-0.0, 0.0)` and `np.maximum(0.0, -0.0)` differ, while
`arith.maximumf`/`minimumf`, StableHLO's `maximum`/`minimum` and TOSA's
(IEEE 754-2019 maximum and minimum) order -0.0 below +0.0 and propagate NaN:
`maximum` and `minimum` here.

`maximum_number` and `minimum_number` ignore a NaN against a number, as
`arith.maxnumf`/`minnumf` and TOSA's `nan_mode = IGNORE` do.  For ±0 MLIR
(like `llvm.maxnum`) lets them return either operand; they order -0.0 below
+0.0 too (as IEEE 754-2019 maximumNumber does), so that every one of these
is commutative and associative and a split reduction gives the bits of the
unsplit one.

How: numpy's result is right but for the sign of a zero, and the sign of
any max is the and of its operands' signs (of a min, the or), NaNs the
other operand beat left out.  So the fix-up is a few bitwise operations on
whole arrays, run only when some result is zero.  Operands that are not
floats go to numpy's ufunc unchanged.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

_BITS: dict[np.dtype, tuple[np.dtype, np.generic, np.generic]] = {}


def _bits_of(dtype: np.dtype) -> tuple[np.dtype, np.generic, np.generic]:
    """`dtype`'s unsigned view, its sign bit and the other bits."""
    found = _BITS.get(dtype)
    if found is None:
        u = np.dtype(f"u{dtype.itemsize}")
        sign = u.type(1 << (8 * dtype.itemsize - 1))
        found = _BITS[dtype] = (u, sign, ~sign)
    return found


def _signs(x, dtype: np.dtype, larger: bool, ignore_nan: bool) -> np.ndarray:
    """The sign bits of `x` in `dtype`'s unsigned view, all other bits set
    for a max (to `&` in) and clear for a min (to `|` in); a NaN that is
    ignored gets the sign that changes nothing."""
    u, sign, rest = _bits_of(dtype)
    v = np.asarray(x, dtype=dtype)
    bits = v.view(u) | rest if larger else v.view(u) & sign
    if ignore_nan:
        nan = np.isnan(v)
        if np.any(nan):
            bits = np.where(nan, sign | rest if larger else u.type(0), bits)
    return bits


def _settle(a, b, r, larger: bool, ignore_nan: bool):
    """`r`, numpy's max or min of `a` and `b` (fresh), with the sign of each
    zero result as -0.0 < +0.0 asks."""
    if isinstance(r, np.ndarray):
        if r.dtype.kind != "f" or not np.any(np.equal(r, 0)):
            return r
        out = r
    elif isinstance(r, np.floating) and r == 0:
        out = np.array(r)
    else:
        return r
    dtype = out.dtype
    u, sign, rest = _bits_of(dtype)
    bits = out.view(u)
    if ignore_nan:
        sa, sb = _signs(a, dtype, larger, True), _signs(b, dtype, larger, True)
        both = sa & sb if larger else sa | sb
    else:  # in place, one temporary: big arrays are costly to allocate
        a_bits, b_bits = np.asarray(a, dtype=dtype).view(u), np.asarray(b, dtype=dtype).view(u)
        both = a_bits & b_bits if larger else a_bits | b_bits
        if larger:
            both |= rest
        else:
            both &= sign
    if larger:
        bits &= both
    else:
        bits |= both
    return out if isinstance(r, np.ndarray) else out[()]


def maximum(a, b):
    """IEEE 754-2019 maximum: NaN propagates, -0.0 < +0.0."""
    return _settle(a, b, np.maximum(a, b), True, False)


def minimum(a, b):
    """IEEE 754-2019 minimum: NaN propagates, -0.0 < +0.0."""
    return _settle(a, b, np.minimum(a, b), False, False)


def maximum_number(a, b):
    """The larger number, a NaN only if both are; -0.0 < +0.0."""
    return _settle(a, b, np.fmax(a, b), True, True)


def minimum_number(a, b):
    """The smaller number, a NaN only if both are; -0.0 < +0.0."""
    return _settle(a, b, np.fmin(a, b), False, True)


_UFUNCS: dict[Callable, tuple[np.ufunc, bool, bool]] = {
    # fn: (numpy's ufunc, larger, ignores NaN)
    maximum: (np.maximum, True, False),
    minimum: (np.minimum, False, False),
    maximum_number: (np.fmax, True, True),
    minimum_number: (np.fmin, False, True),
}


def reduce(fn: Callable, x, axis, *, keepdims: bool = False, initial=None):
    """`fn` (one of the four above) folded along `axis` (an int or a tuple),
    starting from `initial` when given (then an empty axis gives it); the
    order of folding does not matter."""
    x = np.asarray(x)
    ufunc, larger, ignore_nan = _UFUNCS[fn]
    extra = {} if initial is None else {"initial": initial}
    r = ufunc.reduce(x, axis=axis, keepdims=keepdims, **extra)
    if x.dtype.kind != "f" or not np.any(np.equal(r, 0)):
        return r
    out = np.array(r, dtype=x.dtype)
    bits = out.view(_bits_of(x.dtype)[0])
    signs = _signs(x, x.dtype, larger, ignore_nan)
    if larger:
        bits &= np.bitwise_and.reduce(signs, axis=axis, keepdims=keepdims)
    else:
        bits |= np.bitwise_or.reduce(signs, axis=axis, keepdims=keepdims)
    if initial is not None:
        start = _signs(initial, x.dtype, larger, ignore_nan)
        if larger:
            bits &= start
        else:
            bits |= start
    return out if isinstance(r, np.ndarray) else out[()]
