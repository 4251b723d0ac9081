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
    from .sharding.placements import Partial, Replicate, Shard
    from .transforms import MeshCanonicalize, MeshPartition, Pass, ShardingPropagation
    from .viz import visualize

# Names exported here but imported on first use, so that `import mesh_dialect`
# stays quick: name -> the submodule that defines it.
_LAZY = {
    "MeshCanonicalize": "transforms",
    "MeshPartition": "transforms",
    "Pass": "transforms",
    "ShardingPropagation": "transforms",
    "Partial": "sharding.placements",
    "Replicate": "sharding.placements",
    "Shard": "sharding.placements",
    "visualize": "viz",
}


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
    from .ir.asm import operation_of

    operation = operation_of("verify", op)
    try:
        operation.verify()
    except _mlir.MLIRError as e:
        from .ir.asm import remapper
        from .ir.diagnostics import convert, not_op_dump

        remap = remapper(operation.context)
        raise DiagnosticError([convert(d, remap, not_op_dump) for d in e.error_diagnostics]) from None
    problems = diagnose(operation)
    if problems:
        raise DiagnosticError(problems)


def pass_manager(pipeline: str = "builtin.module()", *, context: _mlir.Context | None = None, verify_each: bool = True):
    """A PassManager for a textual pipeline mixing this project's passes and
    upstream's; see `driver.pipeline.pass_manager`."""
    from .driver.pipeline import pass_manager as build

    return build(pipeline, context=context, verify_each=verify_each)


# Subpackages reachable as attributes (`mesh_dialect.analysis.analyze(...)`)
# without importing them by hand; loaded on first use.
_SUBPACKAGES = ("analysis", "driver", "frontends", "interfaces", "interop", "sharding", "sim", "transforms", "viz")


def __getattr__(name: str):
    if name in _SUBPACKAGES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY) | set(_SUBPACKAGES))


__all__ = [
    "PASSES",
    "Diagnostic",
    "DiagnosticError",
    "MeshCanonicalize",
    "MeshPartition",
    "Partial",
    "Pass",
    "Replicate",
    "Shard",
    "ShardingPropagation",
    "context",
    "diagnose",
    "is_loaded",
    "load_dialect",
    "parse",
    "pass_manager",
    "print_ir",
    "register_pass",
    "verify",
    "visualize",
]
