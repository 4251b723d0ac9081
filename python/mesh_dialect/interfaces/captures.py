"""Tensors a `linalg.generic` body reads from outside the op, indexed by the
op's own loops.

A body may `tensor.extract` from a tensor defined outside its op (torch-mlir
picks each row's label from a log-softmax so, and looks up embedding rows).
Such a read is invisible to the op's rule, so in general the tensor is read
whole on every device.  But where a dimension is always indexed by the
op's `linalg.index j`, and has the size of loop j, a device running a piece
of loop j reads only the matching piece of that dimension: the tensor may be
split there as loop j is, and the body's local index reads the local piece.
`aligned_reads` finds those dimensions; propagation prices the read as an
operand with that map, and partition reshards the tensor to it.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir
from mlir.dialects import linalg

from ..ir.signature import op_address
from .registry import index_reads, walk_inside
from .rules import TensorMap


@dataclass(frozen=True)
class AlignedRead:
    """One outside tensor's map (per dimension, the loop whose index reads
    it, or None: read at any index, so whole), its reads (the
    `tensor.extract`, the dimension, the `linalg.index` giving it, for each
    dimension the map names), and its whole shape."""

    map: TensorMap
    reads: tuple[tuple[ir.Operation, int, ir.Operation], ...]
    shape: tuple[int, ...]


def aligned_reads(op: ir.Operation) -> dict[ir.Value, AlignedRead]:
    """Per tensor that `op`'s body reads from outside `op`, only by
    `tensor.extract` at the same op's loop indices in some dimension of the
    loop's static size, its `AlignedRead`.  Tensors read any other way (by
    another op, at computed indices only) are left out: they are read whole.
    Sizes are read from the types: ask before partition makes any local."""
    op = op.operation
    if op.name != "linalg.generic" or not len(op.regions):
        return {}
    body = op.regions[0].blocks[0]
    sizes = _loop_sizes(op)
    extracts: dict[ir.Value, list[ir.Operation]] = {}
    other: set[ir.Value] = set()
    inside: set[ir.Value] = set(body.arguments)

    def visit(inner: ir.Operation) -> ir.WalkResult:
        for r in inner.results:
            inside.add(r)
        for region in inner.regions:
            for block in region.blocks:
                inside.update(block.arguments)
        for i, v in enumerate(inner.operands):
            if v in inside or not isinstance(v.type, ir.RankedTensorType):
                continue
            if inner.name == "tensor.extract" and i == 0:
                extracts.setdefault(v, []).append(inner)
            else:
                other.add(v)
        return ir.WalkResult.ADVANCE

    walk_inside(op, visit)  # pre-order: a value is seen defined before it is used
    found: dict[ir.Value, AlignedRead] = {}
    own = {op_address(read) for read in index_reads(op)} if extracts else set()
    for v, users in extracts.items():
        if v in other:
            continue
        shape = ir.RankedTensorType(v.type).shape
        loops: list[int | None] = []
        reads: list[tuple[ir.Operation, int, ir.Operation]] = []
        for d, size in enumerate(shape):
            loop, at = _same_loop(own, users, d)
            if loop is None or loop in loops or size < 0 or sizes.get(loop) != size:
                loops.append(None)
                continue
            loops.append(loop)
            reads.extend((user, d, index) for user, index in zip(users, at))
        if any(loop is not None for loop in loops):
            found[v] = AlignedRead(tuple(loops), tuple(reads), tuple(shape))
    return found


def _same_loop(own: set[int], users: list[ir.Operation], d: int) -> tuple[int | None, list[ir.Operation]]:
    """The loop whose `linalg.index` (one of the op's own, whose addresses
    `own` holds: `index_reads`) every extract in `users` reads dimension `d`
    at, and those index ops; None when they differ."""
    loop: int | None = None
    at: list[ir.Operation] = []
    for user in users:
        index = user.operands[1 + d]
        owner = index.owner
        if isinstance(owner, ir.Block):
            return None, []
        owner = owner.operation
        if owner.name != "linalg.index" or op_address(owner) not in own:
            return None, []
        j = ir.IntegerAttr(owner.attributes["dim"]).value
        if loop is not None and j != loop:
            return None, []
        loop = j
        at.append(owner)
    return loop, at


def _loop_sizes(op: ir.Operation) -> dict[int, int]:
    """The static sizes of a `linalg.generic`'s loops that some operand
    dimension indexes plainly."""
    sizes: dict[int, int] = {}
    maps = [ir.AffineMapAttr(a).value for a in ir.ArrayAttr(linalg.get_indexing_maps(op))]
    for v, m in zip(op.operands, maps):
        t = v.type
        if not isinstance(t, ir.RankedTensorType):
            continue
        for k, e in enumerate(m.results):
            if isinstance(e, ir.AffineDimExpr) and not t.is_dynamic_dim(k):
                sizes.setdefault(e.position, t.shape[k])
    return sizes
