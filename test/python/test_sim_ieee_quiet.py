"""The simulator computes floats as MLIR does (IEEE): a division by zero, an
overflow or an invalid operation gives inf or NaN without numpy's warnings,
which a user of mesh-run would otherwise see on stderr."""

from __future__ import annotations

import warnings

import numpy as np

import mesh_dialect
from mesh_dialect.sim.api import Simulation

_PROGRAM = """
func.func @f(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %q = arith.divf %x, %y : tensor<4xf32>
  %big = arith.constant dense<3.0e38> : tensor<4xf32>
  %p = arith.mulf %big, %x : tensor<4xf32>
  return %q, %p : tensor<4xf32>, tensor<4xf32>
}
"""


def test_division_by_zero_and_overflow_are_quiet() -> None:
    sim = Simulation(mesh_dialect.parse(_PROGRAM, context=mesh_dialect.context()))
    x = np.array([1.0, -1.0, 0.0, 2.0], np.float32)
    y = np.array([0.0, 0.0, 0.0, 4.0], np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any numpy RuntimeWarning fails the test
        q, p = sim.run("f", [x, y])
    assert q[0] == np.inf and q[1] == -np.inf and np.isnan(q[2]) and q[3] == 0.5
    assert p[3] == np.inf and p[2] == 0.0 and np.isfinite(p[0])
