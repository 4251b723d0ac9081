"""ir.types: the zero and the infinities of each float format, which decide
where a sum may be split into partial sums and a max or min start."""

from __future__ import annotations

import math

import pytest
from mlir import ir

from mesh_dialect.ir.types import float_extreme, float_has_infinity, float_zero

ZEROS = {
    "f32": -0.0,
    "bf16": -0.0,
    "f8E5M2": -0.0,
    "f8E4M3FN": -0.0,
    "f8E4M3FNUZ": 0.0,
    "f8E5M2FNUZ": 0.0,
    "f8E4M3B11FNUZ": 0.0,
    "f4E2M1FN": -0.0,
    "f8E8M0FNU": None,
}


@pytest.mark.parametrize("name", sorted(ZEROS))
def test_float_zero_is_the_formats_own(name: str) -> None:
    with ir.Context(), ir.Location.unknown():
        t = ir.Type.parse(name)
        zero = float_zero(t)
        expected = ZEROS[name]
        if expected is None:
            assert zero is None
            return
        assert zero == 0.0 and math.copysign(1.0, zero) == math.copysign(1.0, expected)
        # the format holds it exactly, sign included (an unsigned zero reads back +0.0)
        back = ir.FloatAttr.get(t, zero).value
        assert back == 0.0 and math.copysign(1.0, back) == math.copysign(1.0, expected)


@pytest.mark.parametrize(
    ("name", "has"),
    [
        ("f16", True),
        ("f8E5M2", True),
        ("f8E4M3", True),
        ("f8E4M3FN", False),
        ("f8E5M2FNUZ", False),
        ("f4E2M1FN", False),
    ],
)
def test_float_has_infinity(name: str, has: bool) -> None:
    with ir.Context(), ir.Location.unknown():
        t = ir.Type.parse(name)
        assert float_has_infinity(t) is has
        if has:  # (asking a finite-only format for -inf gives its NaN, or aborts APFloat)
            assert ir.FloatAttr.get(t, -math.inf).value == -math.inf


@pytest.mark.parametrize(
    ("name", "lowest", "highest"),
    [
        ("f32", -math.inf, math.inf),
        ("f8E4M3FN", -448.0, 448.0),
        ("f8E4M3FNUZ", -240.0, 240.0),
        ("f8E5M2FNUZ", -57344.0, 57344.0),
        ("f8E4M3B11FNUZ", -30.0, 30.0),
        ("f6E2M3FN", -7.5, 7.5),
        ("f6E3M2FN", -28.0, 28.0),
        ("f4E2M1FN", -6.0, 6.0),
        ("f8E8M0FNU", 2.0**-127, 2.0**127),
    ],
)
def test_float_extreme_is_held_exactly(name: str, lowest: float, highest: float) -> None:
    with ir.Context(), ir.Location.unknown():
        t = ir.Type.parse(name)
        assert (float_extreme(t, False), float_extreme(t, True)) == (lowest, highest)
        assert ir.FloatAttr.get(t, lowest).value == lowest
        assert ir.FloatAttr.get(t, highest).value == highest
