"""Running this project's IR through upstream MLIR's own `shard` dialect.

Upstream MLIR renamed its `mesh` dialect to `shard` and ships the C++
passes in the same Python bindings we build on; `upstream` translates our
IR into its spelling and compares what the two sharding propagations do.
"""

from __future__ import annotations

from .upstream import (
    TRAVERSALS,
    Difference,
    NotExpressible,
    OpShardings,
    PassFailure,
    ShardingKey,
    compare,
    differential,
    format_sharding,
    run_ours,
    run_upstream_isolated,
    run_upstream_propagation,
    to_upstream,
    value_shardings,
)

__all__ = [
    "TRAVERSALS",
    "Difference",
    "NotExpressible",
    "OpShardings",
    "PassFailure",
    "ShardingKey",
    "compare",
    "differential",
    "format_sharding",
    "run_ours",
    "run_upstream_isolated",
    "run_upstream_propagation",
    "to_upstream",
    "value_shardings",
]
