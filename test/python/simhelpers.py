"""Helpers shared by the simulator's op tests."""

import functools
import subprocess
from pathlib import Path

import mlir
import numpy as np
import pytest

import mesh_dialect
from mesh_dialect.sim.interpreter import Runner


@functools.cache
def _context():
    return mesh_dialect.context()


def parse(text: str):
    """`text` parsed in the helpers' shared context."""
    return mesh_dialect.parse(text, context=_context())


def passes(text: str, pipeline: str):
    """`text` parsed and run through `pipeline` (inside builtin.module), verified."""
    module = parse(text)
    mesh_dialect.pass_manager(f"builtin.module({pipeline})", context=_context()).run(module.operation)
    mesh_dialect.verify(module)
    return module


def run(text: str, *args) -> list:
    """Run @f of `text` on one device."""
    module = mesh_dialect.parse(text, context=_context())
    return Runner(module).run_global("f", list(args))


def small_ints(rng: np.random.Generator):
    """A maker of arrays of small integers, so float sums are exact whatever
    their order."""

    def ints(shape, lo=-4, hi=5, dtype=np.float32) -> np.ndarray:
        return rng.integers(lo, hi, size=shape).astype(dtype)

    return ints


MLIR_OPT = Path(mlir.__path__[0]) / "bin" / "mlir-opt"


def upstream_folded(text: str) -> str:
    """`text` after upstream `mlir-opt --canonicalize`: what upstream folds
    each op of constants to (the test skips without upstream's tool)."""
    if not MLIR_OPT.exists():
        pytest.skip("upstream mlir-opt is not installed")
    return subprocess.run(
        [str(MLIR_OPT), "--canonicalize"], input=text, capture_output=True, text=True, check=True, timeout=120
    ).stdout
