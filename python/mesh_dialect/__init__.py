"""The MLIR `mesh` sharding dialect on upstream MLIR's Python bindings.

    import mesh_dialect
    from mlir import ir as _mlir

    ctx = mesh_dialect.context()                 # or load_dialect(your_ctx)
    module = mesh_dialect.parse(text, context=ctx)
    print(mesh_dialect.print_ir(module))

Passes are dataclasses whose fields are their options; each is a callable
that any `mlir.passmanager.PassManager` can run (`pass_.add_to(pm)`).
A pass's module is imported when the pass is first named, so that importing
the package stays quick.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mlir import ir as _mlir

from .ir.asm import parse, print_ir
from .ir.diagnostics import Diagnostic, DiagnosticError
from .ir.dialect import is_loaded, load_dialect
from .ir.verifier import verify as diagnose
from .transforms import PASSES, register_pass

if TYPE_CHECKING:
    from .transforms import MeshCanonicalize, Pass, ShardingPropagation

# Passes exported here, imported on first use (see transforms/__init__.py).
_LAZY_PASSES = ("MeshCanonicalize", "Pass", "ShardingPropagation")


def context(*, allow_unregistered_dialects: bool = False) -> _mlir.Context:
    """A new context with the dialect loaded, single-threaded: MLIR would
    otherwise report diagnostics from worker threads, which the Python
    bindings cannot take without the GIL (an abort, or errors lost)."""
    ctx = _mlir.Context()
    ctx.enable_multithreading(False)
    ctx.allow_unregistered_dialects = allow_unregistered_dialects
    return load_dialect(ctx)


def verify(op: _mlir.Operation | _mlir.OpView) -> None:
    """Run MLIR's verifier and the dialect's semantic rules on `op`; raise
    `DiagnosticError` listing every violation."""
    operation = op.operation if hasattr(op, "operation") else op
    try:
        operation.verify()
    except _mlir.MLIRError as e:
        from .ir.asm import remap_position
        from .ir.diagnostics import convert, not_op_dump

        raise DiagnosticError([convert(d, remap_position, not_op_dump) for d in e.error_diagnostics]) from None
    problems = diagnose(operation)
    if problems:
        raise DiagnosticError(problems)


def __getattr__(name: str):
    if name in _LAZY_PASSES:
        from . import transforms

        value = getattr(transforms, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY_PASSES))


__all__ = [
    "PASSES",
    "Diagnostic",
    "DiagnosticError",
    "MeshCanonicalize",
    "Pass",
    "ShardingPropagation",
    "context",
    "diagnose",
    "is_loaded",
    "load_dialect",
    "parse",
    "print_ir",
    "register_pass",
    "verify",
]
