"""bench/propagation_floor.py writes the annotations it says it writes, into
a module that verifies (its timings are only worth reading if so)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import propagation_floor  # noqa: E402
from propagation import mlp, transformer  # noqa: E402


def test_mlp_floor_annotates_every_linalg_result_and_read() -> None:
    # 10 layer pairs: 4 results and 4 reads of another linalg op's result
    # each, but the first matmul's input (an argument)
    assert propagation_floor.floor(mlp(100)[0])[3] == 10 * 8 - 1


def test_transformer_floor_annotates_every_linalg_result_and_read() -> None:
    # 5 blocks: 7 results (2 matmuls, 5 generics) and 8 reads of a linalg
    # result (max, exp x2, sum, divide x2, out-projection, residual add)
    assert propagation_floor.floor(transformer(90)[0])[3] == 5 * 15
