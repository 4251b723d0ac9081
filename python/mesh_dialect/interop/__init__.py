"""Running this project's IR through upstream MLIR's own `shard` dialect.

Upstream MLIR renamed its `mesh` dialect to `shard` and ships the C++
passes in the same Python bindings we build on; `upstream` translates our
IR into its spelling and compares what the two sharding propagations do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .upstream import (
        TRAVERSALS,
        Difference,
        NotExportable,
        NotExpressible,
        OpShardings,
        PassFailure,
        ShardingKey,
        compare,
        differential,
        export_upstream,
        format_sharding,
        run_ours,
        run_upstream_isolated,
        run_upstream_propagation,
        to_upstream,
        value_shardings,
    )


# Imported on first use: `upstream` loads every pass of this project.
def __getattr__(name: str):
    if name in __all__:
        from . import upstream

        value = getattr(upstream, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "TRAVERSALS",
    "Difference",
    "NotExportable",
    "NotExpressible",
    "OpShardings",
    "PassFailure",
    "ShardingKey",
    "compare",
    "differential",
    "export_upstream",
    "format_sharding",
    "run_ours",
    "run_upstream_isolated",
    "run_upstream_propagation",
    "to_upstream",
    "value_shardings",
]
