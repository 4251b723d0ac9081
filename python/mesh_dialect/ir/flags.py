"""Flags of upstream arith ops that promise something of the values an op
sees: what a transformation that changes those values must take back."""

from __future__ import annotations

from mlir import ir

_FASTMATH_FLAGS = ("reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn")
"""What `#arith.fastmath<fast>` stands for."""


def drop_totals_only_flags(op: ir.Operation) -> None:
    """A combiner moved onto each device's terms (an all_reduce
    reassociated, a reduction split over devices) loses the promises that
    hold of the totals only: terms may wrap (nsw, nuw) or overflow to an
    infinity (ninf) where their totals do not, and the broken promise would
    make the term poison.  A NaN among the terms makes the totals' result
    NaN too, so nnan stays, as do the rest.  The flags are set to none, not
    removed: they are properties, and a removed property aborts the
    printer."""
    attrs = op.attributes
    if "overflowFlags" in attrs and str(attrs["overflowFlags"]) != "#arith.overflow<none>":
        attrs["overflowFlags"] = ir.Attribute.parse("#arith.overflow<none>", op.context)
    if "fastmath" in attrs:
        text = str(attrs["fastmath"])
        flags = [f.strip() for f in text[text.index("<") + 1 : text.rindex(">")].split(",")]
        if "fast" in flags:
            flags = list(_FASTMATH_FLAGS)
        kept = [f for f in flags if f not in ("ninf", "none")]
        if len(kept) != len([f for f in flags if f != "none"]):
            attrs["fastmath"] = ir.Attribute.parse(f"#arith.fastmath<{','.join(kept) or 'none'}>", op.context)


__all__ = ["drop_totals_only_flags"]
