"""The few linalg builders and queries the passes use, without importing
`mlir.dialects.linalg`: that package defines every named op through its
Python DSL when imported (about 90 ms). The bindings import it anyway
the first time they hand over an op of the linalg dialect, so what this
saves is the time of programs without one: the hlo programs JAX exports,
to which partition may add a fill. The generated op classes and the C
extension give the same ops: a named op's body comes from its C++
definition either way."""

from __future__ import annotations

from collections.abc import Sequence

from mlir import ir
from mlir._mlir_libs._mlirDialectsLinalg import fill_builtin_region, get_indexing_maps
from mlir.dialects import _linalg_ops_gen as _gen


def fill(value: ir.Value, init: ir.Value) -> ir.Value:
    """`linalg.fill` of `init` (a tensor) with the scalar `value`: its result."""
    op = _gen.FillOp([init.type], [value], [init])
    fill_builtin_region(op.operation)
    return op.operation.results[0]


def broadcast(source: ir.Value, init: ir.Value, dimensions: Sequence[int]) -> ir.Value:
    """`linalg.broadcast` of `source` into `init` (a tensor), adding the
    dimensions `dimensions` of `init`: its result."""
    op = _gen.BroadcastOp([init.type], source, init, list(dimensions))
    fill_builtin_region(op.operation)
    return op.operation.results[0]


__all__ = ["broadcast", "fill", "get_indexing_maps"]
