"""Facts about builtin types that several layers ask."""

from __future__ import annotations

from mlir import ir


def is_boolean(t: ir.Type) -> bool:
    """Whether `t`, or the element type of a shaped `t`, is i1: arithmetic on
    it wraps at one bit, so its add is an exclusive or and, read signed, its
    true is -1 (reductions and combiners differ from wider integers')."""
    element = ir.ShapedType(t).element_type if isinstance(t, ir.ShapedType) else t
    return isinstance(element, ir.IntegerType) and element.width == 1


__all__ = ["is_boolean"]
