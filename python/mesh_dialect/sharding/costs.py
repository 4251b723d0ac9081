"""The byte model's formulas that more than the planner reads (the
simulator's traffic counters, mesh-analysis): one home, so they cannot
drift apart."""

from __future__ import annotations


def all_reduce_elements(elems: int, g: int) -> int:
    """Elements a device receives, at most, in a ring all_reduce of `elems`
    elements over `g` devices: the reduce-scatter and the all-gather each
    bring it every chunk but its own, and chunks are `elems / g` rounded up
    or down (a device whose chunk is empty, as some are when `elems < g`,
    receives all `elems` twice)."""
    return 2 * (elems - elems // g)


__all__ = ["all_reduce_elements"]
