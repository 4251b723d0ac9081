"""bench/xla_plans.py's reading of XLA's HLO shapes (needs JAX: skipped without it)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("jax")
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import xla_plans  # noqa: E402


def test_arrays_price_every_integer_width_xla_prints() -> None:
    shape = "(u8[4,2], s16[3], u16[5], c64[2], pred[7])"
    assert xla_plans.arrays(shape) == [(8, 1), (3, 2), (5, 2), (2, 8), (7, 1)]


def test_arrays_name_an_unknown_element_type() -> None:
    with pytest.raises(ValueError, match="unknown element type f8e4m3fn"):
        xla_plans.arrays("f8e4m3fn[4]")


def test_a_tuple_all_to_all_receives_every_chunk_but_its_own() -> None:
    # 8 chunks of 2 floats over 8 devices: 7 chunks of 8 bytes arrive
    params = "\n".join(f"  %p{i} = f32[2]{{0}} parameter({i})" for i in range(8))
    operands = ", ".join(f"%p{i}" for i in range(8))
    shape = "(" + ", ".join(["f32[2]{0}"] * 8) + ")"
    hlo = (
        "ENTRY %main (p: f32[2]) -> f32[2] {\n"
        f"{params}\n"
        f"  %a = {shape} all-to-all({operands}), replica_groups={{{{0,1,2,3,4,5,6,7}}}}\n"
        "}\n"
    )
    found = xla_plans.collectives(hlo, 8)
    assert (found["collectives"], found["bytes"], found["kinds"]) == (1, 56, {"all_to_all": 1})
