"""Passes that reshape a program before sharding it, without changing what
it computes, so that propagation finds a cheaper plan."""

from __future__ import annotations

from .prepare_windows import PrepareWindows

__all__ = ["PrepareWindows"]
