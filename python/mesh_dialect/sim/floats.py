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


def to_bf16(x):
    """`x` (f32 values) rounded to the nearest bf16, ties to even, still in
    f32: an array for an array, an f32 scalar for a scalar.  NaNs stay NaN;
    magnitudes past bf16's largest round to infinity, as the hardware's."""
    a = np.array(x, dtype=np.float32, ndmin=1)
    bits = a.view(np.uint32)
    with np.errstate(over="ignore"):
        rounded = (bits + (np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1)))) & np.uint32(0xFFFF0000)
    out = np.where(np.isnan(a), a, rounded.view(np.float32))
    if isinstance(x, np.ndarray):
        return out.reshape(np.shape(x))
    return out.reshape(np.shape(x))[()]


def bf16_from_bits(raw: np.ndarray) -> np.ndarray:
    """f32 values of bf16 bit patterns (uint16): the f32 with those high bits."""
    return (raw.astype(np.uint32) << np.uint32(16)).view(np.float32)
