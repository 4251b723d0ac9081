"""What a sharding plan costs: per function and per device, the collectives
by kind, the bytes received, the peak live tensor memory, the flops and the
flops done again on replicas (`analyze`; the models are in `cost.py`, the
report's formats in `report.py`).

A per-device program (partition's output, or one written by hand) is
analyzed as it is.  An annotated program (one with `mesh.shard` ops) is
partitioned first, on a copy, so the report is of what `mesh-partition`
would emit (after `sharding-propagation` when no op carries a loop sharding
yet); the module given is never changed.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

from mlir import ir

from ..ir import diagnostics as diag
from .cost import MAX_DEVICES, AnalysisError, cost_function
from .report import AnalysisReport, DeviceCost, FunctionReport


def _annotated(module: ir.Operation) -> tuple[bool, bool]:
    """(has mesh.shard ops, some op carries a loop sharding)."""
    from ..transforms.propagation.sharding_propagation import OPTION_ATTR

    found = [False, False]

    def visit(op: ir.Operation) -> ir.WalkResult:
        if op.name == "mesh.shard":
            found[0] = True
        elif OPTION_ATTR in op.attributes:
            found[1] = True
        return ir.WalkResult.ADVANCE

    module.walk(visit, ir.WalkOrder.PRE_ORDER)
    return found[0], found[1]


def partitioned_copy(module: ir.Operation) -> tuple[ir.Operation, tuple[str, ...]]:
    """A partitioned copy of an annotated module and the passes run on it;
    the module itself when it holds no `mesh.shard` op."""
    annotated, propagated = _annotated(module)
    if not annotated:
        return module, ()
    from ..interfaces.registry import RuleError
    from ..transforms.base import PassFailed, one_line
    from ..transforms.partition.mesh_partition import MeshPartition
    from ..transforms.propagation.sharding_propagation import ShardingPropagation

    copy = module.clone()
    passes = ([] if propagated else [ShardingPropagation()]) + [MeshPartition()]
    # The passes' errors become the analysis's own, at their positions.
    errors: list[tuple[ir.Location, str]] = []

    def keep(d: ir.Diagnostic) -> bool:
        if d.severity == ir.DiagnosticSeverity.ERROR:
            errors.append((d.location, d.message))
        return True

    handler = module.context.attach_diagnostic_handler(keep)
    try:
        with module.context, module.location:
            for p in passes:
                try:
                    p.run(copy)
                except PassFailed as e:
                    copy.erase()
                    where, message = errors[0] if errors else (None, str(e))
                    raise AnalysisError(f"'{p.ARGUMENT}' failed on the annotated program: {message}", where) from None
                except RuleError as e:
                    copy.erase()
                    raise AnalysisError(str(e), e.location) from None
                except Exception as e:  # noqa: BLE001 - a bug in a pass: reported, not raised raw
                    found = diag.non_utf8_attribute(copy) if diag.text_refused(e) else None
                    copy.erase()
                    if found is not None:
                        message = diag.non_utf8_message(f"pass '{p.ARGUMENT}'", found[1])
                        raise AnalysisError(message, found[0].location) from None
                    raise AnalysisError(
                        f"internal error in pass '{p.ARGUMENT}' on the annotated program: {one_line(e)}"
                    ) from None
    finally:
        handler.detach()
    return copy, tuple(p.ARGUMENT for p in passes)


_NESTING = 2000
"""Regions nested this deep (a frame or two of Python each level) are
costed; deeper ones are refused."""


@contextlib.contextmanager
def _deep_recursion() -> Iterator[None]:
    """The cost model follows nested regions recursively: room for `_NESTING`
    levels (the parser accepts about 500)."""
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(max(before, 4 * _NESTING))
    try:
        yield
    finally:
        sys.setrecursionlimit(before)


def analyze(module: ir.Operation | ir.Module, *, max_devices: int = MAX_DEVICES) -> AnalysisReport:
    """The report of every function with a body, in order (see the module
    docstring); raises AnalysisError for a program it cannot cost."""
    from ..transforms.base import mesh_scopes

    op = module.operation
    program, pipeline = partitioned_copy(op)
    reports = []
    with op.context, _deep_recursion():
        for meshes, fn_op in [(m, f) for m, fs in mesh_scopes(program) for f in fs]:
            try:
                fn, costs, notes = cost_function(fn_op, meshes, max_devices)
            except RecursionError:
                raise AnalysisError(
                    f"regions nest more deeply than mesh-analysis follows ({_NESTING} levels) in "
                    f"{fn_op.attributes['sym_name']}"
                ) from None
            devices = [
                DeviceCost(
                    c.device,
                    dict(sorted(c.costs.collectives.items())),
                    c.costs.bytes_received,
                    c.peak_memory,
                    c.costs.flops,
                    c.costs.redundant_flops,
                )
                for c in costs
            ]
            shape = fn.mesh_shape if fn.mesh is not None and fn.mesh_shape is not None else ()
            reports.append(FunctionReport(fn.name, fn.mesh, tuple(shape), devices, notes))
    return AnalysisReport(reports, pipeline)


__all__ = [
    "MAX_DEVICES",
    "AnalysisError",
    "AnalysisReport",
    "DeviceCost",
    "FunctionReport",
    "analyze",
    "partitioned_copy",
]
