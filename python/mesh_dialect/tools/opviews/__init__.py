"""Dialect modules the tools give the bindings in place of upstream's.

When the bindings first meet an op of a dialect they import that dialect's
Python module to find its op classes.  `mlir.dialects.linalg` also builds
linalg's whole op DSL on import (about 80 ms, a fifth of a small
`mesh-opt` run), which no tool here uses: the command-line tools put this
package first in the search (`use_light_dialect_modules`), and its
`linalg` registers the same generated op classes alone.  Python API users
keep upstream's search."""

from __future__ import annotations

from mlir._mlir_libs import _mlir

PREFIX = __name__


def use_light_dialect_modules() -> None:
    """Search this package before upstream's dialect modules (this process only)."""
    search = list(_mlir.globals.dialect_search_modules)
    if PREFIX not in search:
        _mlir.globals.dialect_search_modules = [PREFIX, *search]
