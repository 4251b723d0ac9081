"""Passes that reshape a program before sharding it, without changing what
it computes, so that propagation finds a cheaper plan."""

from __future__ import annotations

from .decompose_softmax import DecomposeSoftmax
from .prepare_windows import PrepareWindows

__all__ = ["DecomposeSoftmax", "PrepareWindows"]
