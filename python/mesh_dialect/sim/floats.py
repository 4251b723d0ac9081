"""bf16 as the simulator holds it: in f32 arrays, every value rounded to
the nearest bf16.  numpy has no bf16, and a dtype of its own (ml_dtypes')
would be a number kind no handler knows; bf16 has f32's exponent range, so
an f32 holds every bf16 exactly, and rounding each bf16-typed result
(`program.run_block`) gives what bf16 arithmetic computed in f32 gives
(XLA's way on CPUs: each op widens, computes and rounds back)."""

from __future__ import annotations

import numpy as np

BF16_BITS = 8
"""Significand bits of a bf16, the implicit one included (f32's are 24)."""

BF16_EPSILON = 2.0**-7
"""The gap between 1 and the next bf16."""


def to_bf16(x, mode: int = 0):
    """`x` rounded to a bf16, still in f32: an array for an array, an f32
    scalar for a scalar.  `mode` is arith's rounding mode: 0 to nearest,
    ties to even (the default, and every bf16 result's), 1 downward, 2
    upward, 3 toward zero, 4 to nearest, ties away from zero.  A wider `x`
    (f64, integers) is rounded once, not through the nearest f32 (whose
    rounding could land on a tie).  NaNs stay NaN; past bf16's largest,
    rounding away from zero gives infinity and toward zero the largest
    finite bf16, as IEEE says (a carry into the exponent does both)."""
    a = _odd_f32(x)
    bits = a.view(np.uint32)
    magnitude = bits & np.uint32(0x7FFFFFFF)
    negative = bits != magnitude
    low = magnitude & np.uint32(0xFFFF)
    if mode == 0:
        up = (low > 0x8000) | ((low == 0x8000) & ((magnitude >> np.uint32(16)) & np.uint32(1)).astype(bool))
    elif mode == 4:
        up = low >= 0x8000
    elif mode == 3:
        up = np.zeros(a.shape, dtype=bool)
    else:  # away from zero when the direction is the sign's
        up = (low > 0) & (negative == (mode == 1))
    with np.errstate(over="ignore"):
        rounded = (magnitude & np.uint32(0xFFFF0000)) + np.where(up, np.uint32(0x10000), np.uint32(0))
    out = (rounded | np.where(negative, np.uint32(0x80000000), np.uint32(0))).view(np.float32)
    out = np.where(np.isnan(a), a, out)
    if isinstance(x, np.ndarray):
        return out.reshape(np.shape(x))
    return out.reshape(np.shape(x))[()]


def _odd_f32(x) -> np.ndarray:
    """`x` as a 1-d (at least) f32 array that rounds to bf16 as `x` does:
    f32 as it is; wider values rounded toward zero to f32 with the last bit
    set when that was inexact ("round to odd": 16 spare bits keep every
    later rounding to bf16 a single rounding of `x`)."""
    a = np.array(x, ndmin=1)
    if a.dtype == np.float32:
        return a
    wide = a.astype(np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        near = wide.astype(np.float32)
        # toward zero: step back where the nearest f32 is larger in magnitude
        back = np.isfinite(wide) & (np.abs(near.astype(np.float64)) > np.abs(wide))
        near = np.where(back, np.nextafter(near, np.float32(0)), near)
        inexact = np.isfinite(wide) & (near.astype(np.float64) != wide)
    bits = near.view(np.uint32) | np.where(inexact, np.uint32(1), np.uint32(0))
    return bits.view(np.float32)


def bf16_bits(x):
    """The 16 bits of each bf16 `x` holds (held in f32, already rounded):
    its f32's upper half, as uint16 (an array for an array)."""
    a = np.asarray(x, dtype=np.float32)
    bits = (a.view(np.uint32) >> np.uint32(16)).astype(np.uint16)
    return bits if isinstance(x, np.ndarray) else bits[()]


def bf16_from_bits(x):
    """The bf16s whose bits are the 16-bit values `x` holds (uint16, or
    another 16-bit dtype a bitcast reads), in f32: the bits become the
    f32's upper half."""
    a = np.asarray(x)
    out = (a.view(np.uint16).astype(np.uint32) << np.uint32(16)).view(np.float32)
    return out if isinstance(x, np.ndarray) else out[()]
