"""What `mesh-partition` refuses up front: a static dimension cut into more
pieces than a list can hold.  Partition lists every piece of a split
dimension (`Sharding.bounds`: local types, offset tables, halo windows), so
a tensor split over the product of two 10^6 axes would exhaust memory.  A
huge mesh whose shardings cut each dimension into fewer pieces is planned
arithmetically and stays accepted; the limit is the one `Mesh.devices`
lists (`MAX_LISTED_DEVICES`)."""

from __future__ import annotations

import math

from mlir import ir

from ...sharding.spec import MAX_LISTED_DEVICES
from ..base import sharding_of


def too_many_pieces(
    meshes: dict[str, tuple[int, ...]], functions: list[ir.Operation]
) -> tuple[ir.Location, str] | None:
    """(where, message) of the first `mesh.shard` that cuts a static
    dimension into more than `MAX_LISTED_DEVICES` pieces, else None.  Only
    functions using a mesh of more devices than that are walked."""
    huge = {name for name, shape in meshes.items() if math.prod(max(n, 1) for n in shape) > MAX_LISTED_DEVICES}
    if not huge:
        return None
    found: list[tuple[ir.Location, str]] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        if found:
            return ir.WalkResult.INTERRUPT
        if op.name == "mesh.shard":
            message = _refusal(op, meshes, huge)
            if message is not None:
                found.append((op.location, message))
                return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    for func in functions:
        func.walk(visit, ir.WalkOrder.PRE_ORDER)
        if found:
            return found[0]
    return None


def _refusal(op: ir.Operation, meshes: dict[str, tuple[int, ...]], huge: set[str]) -> str | None:
    """Why partition cannot list the pieces `op`'s layout cuts its tensor
    into, or None.  A dimension of dynamic size or over an axis of dynamic
    size is cut by formula at run time: it lists nothing."""
    read = sharding_of(op.operands[1])
    if read is None or read[0] not in huge:
        return None  # partition reports a sharding it cannot read itself
    mesh, layout = read[0], read[1]
    t = op.operands[0].type
    if not isinstance(t, ir.RankedTensorType):
        return None
    shape = meshes[mesh]
    for d, axes in enumerate(layout.split_axes[: t.rank]):
        if t.is_dynamic_dim(d) or any(not 0 <= a < len(shape) or shape[a] < 0 for a in axes):
            continue  # out-of-range axes are the verifier's and partition's to report
        pieces = math.prod(shape[a] for a in axes)
        if pieces > MAX_LISTED_DEVICES:
            dims = "x".join(str(n) for n in shape)
            return (
                f"dimension {d} of {t} is cut into {pieces} pieces (mesh @{mesh} ({dims}) axes "
                f"{list(axes)}), more than the {MAX_LISTED_DEVICES} that mesh-partition handles"
            )
    return None
