"""Helpers shared by the simulator's op tests."""

import functools

import numpy as np

import mesh_dialect
from mesh_dialect.sim.interpreter import Runner


@functools.cache
def _context():
    return mesh_dialect.context()


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
