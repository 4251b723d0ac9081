"""Shardings written by other frameworks, read and written as plain values.

`sdy` reads and prints Shardy's attributes (`#sdy.mesh`, `#sdy.sharding`,
`#sdy.sharding_per_value`) and maps them onto a mesh of this dialect;
`gspmd` reads XLA's `mhlo.sharding` strings and infers the mesh whose axes
give their device orders. Both are pure Python: no MLIR, no JAX, so they are
tested on their own and the passes (`import-shardings`,
`export-shardings`) only walk the IR.
"""

from __future__ import annotations


class FrontendError(ValueError):
    """A sharding this dialect cannot read or cannot express; the message is
    a lowercase rule followed by the value seen."""


__all__ = ["FrontendError"]
