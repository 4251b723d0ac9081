"""Tensors a `linalg.generic` body reads from outside the op, indexed by the
op's own loops.

A body may `tensor.extract` from a tensor defined outside its op (torch-mlir
picks each row's label from a log-softmax so, and looks up embedding rows).
Such a read is invisible to the op's rule, so in general the tensor is read
whole on every device.  But where a dimension is always indexed by the
op's `linalg.index j`, and has the size of loop j, a device running a piece
of loop j reads only the matching piece of that dimension: the tensor may be
split there as loop j is, and the body's local index reads the local piece.
The same holds for a dimension read at `j floordiv s` through index
arithmetic (nearest up-sampling), whose size is loop j's over `s`, where the
mesh divides it (`index_chains`).  `aligned_reads` finds those dimensions;
propagation prices the read as an operand with that map, and partition
reshards the tensor to it.

A dimension read at one data-dependent index (an embedding's token id, a
loss's label) may be split too, as Megatron splits a vocabulary: each device
reads the index only when its piece holds it and yields zero otherwise, so
the op's results become partial sums whose one nonzero term is the value
the whole op computes.  `masked_read` finds such a dimension; propagation
prices it as one more loop, a sum reduction indexing that dimension, and
partition masks the body (`mesh_partition.mask_capture`).
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

from ..ir.linalg_ops import get_indexing_maps
from ..ir.signature import op_address
from ..ir.types import float_zero
from .index_chains import chain_to_index, divides_by
from .registry import index_reads, walk_inside
from .rules import TensorMap

_UNSAFE_ON_GARBAGE = frozenset(
    {
        "arith.divsi",
        "arith.divui",
        "arith.ceildivsi",
        "arith.ceildivui",
        "arith.floordivsi",
        "arith.remsi",
        "arith.remui",
        "arith.fptosi",
        "arith.fptoui",
        "arith.shli",
        "arith.shrsi",
        "arith.shrui",
        "math.ipowi",
    }
)
"""Ops that may trap or make poison on an arbitrary operand (an integer
power divides by zero for a negative exponent): a masked read's value is
arbitrary on the devices whose piece lacks the index."""


@dataclass(frozen=True)
class AlignedRead:
    """One outside tensor's map (per dimension, the loop whose index reads
    it, or None: read at any index, so whole), its reads (the
    `tensor.extract`, the dimension, the `linalg.index` giving it, for each
    dimension the map names), and its whole shape."""

    map: TensorMap
    reads: tuple[tuple[ir.Operation, int, ir.Operation], ...]
    shape: tuple[int, ...]
    keeps: tuple[tuple[ir.Operation, int], ...]
    """Per read, the use of its `linalg.index` that keeps the local index
    on a device: the extract's own operand, or the first op of the index
    arithmetic in between (`index_chains`)."""
    scales: tuple[int, ...]
    """Per dimension, how many of the loop's indices read one index of it
    (a nearest up-sampling's 2; 1 when read at the loop's index itself):
    the loop is `scale` times the dimension's size."""


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
        _sort_reads(inner, inside, extracts, other)
        return ir.WalkResult.ADVANCE

    walk_inside(op, visit)  # pre-order: a value is seen defined before it is used
    found: dict[ir.Value, AlignedRead] = {}
    own = {op_address(read) for read in index_reads(op)} if extracts else set()
    for v, users in extracts.items():
        if v in other:
            continue
        shape = ir.RankedTensorType(v.type).shape
        loops: list[int | None] = []
        scales: list[int] = []
        reads: list[tuple[ir.Operation, int, ir.Operation]] = []
        keeps: list[tuple[ir.Operation, int]] = []
        for d, size in enumerate(shape):
            loop, at = _same_loop(own, users, d, inside)
            whole = sizes.get(loop) if loop is not None else None
            scale = whole // size if whole is not None and size > 0 and whole % size == 0 else 0
            if loop is None or loop in loops or not scale or not _reads_at(at, whole, scale):
                loops.append(None)
                scales.append(1)
                continue
            loops.append(loop)
            scales.append(scale)
            reads.extend((user, d, index) for user, (index, _, _) in zip(users, at))
            keeps.extend(keep for _, _, keep in at)
        if any(loop is not None for loop in loops):
            found[v] = AlignedRead(tuple(loops), tuple(reads), tuple(shape), tuple(keeps), tuple(scales))
    return found


def _reads_at(at: list[_Read], size: int | None, scale: int) -> bool:
    """Whether every read of a dimension is at `i floordiv scale` for index
    `i` of a loop of `size`: at `i` itself when `scale` is 1, else through
    index arithmetic that computes it (`index_chains.divides_by`)."""
    assert size is not None
    return all(divides_by(index, chain, size, scale) if chain else scale == 1 for index, chain, _ in at)


@dataclass(frozen=True)
class MaskedRead:
    """A tensor read only by `tensor.extract`s that all read dimension `dim`
    at one index value (`index`, computed in the body or a block argument):
    the `extracts`, and the tensor's whole shape.  `aligned` is its
    `AlignedRead` when other dimensions are read at the op's loop indices."""

    value: ir.Value
    dim: int
    index: ir.Value
    extracts: tuple[ir.Operation, ...]
    shape: tuple[int, ...]
    aligned: AlignedRead | None
    others: tuple[ir.Value, ...] = ()  # the other tensors the body reads from outside

    def map_with(self, loop: int | None) -> TensorMap:
        """The tensor's map when loop `loop` (None: none) indexes the masked dimension."""
        base = self.aligned.map if self.aligned is not None else (None,) * len(self.shape)
        return tuple(loop if d == self.dim else m for d, m in enumerate(base))


def masked_read(op: ir.Operation, aligned: dict[ir.Value, AlignedRead] | None = None) -> MaskedRead | None:
    """The first tensor a `linalg.generic` without reduction loops reads from
    outside only by `tensor.extract`s sharing one index in some dimension of
    static size, an index not computed from the op's loop indices (a token
    id, a label: a read at a loop index is `aligned_reads`'s, or reads a
    piece of the op's own loops' that moving the split serves better than
    masking a whole result per device) (`MaskedRead`), when
    masking that read is safe: the body is one block, its results are
    numbers with a sum (floats, signless integers wider than i1), and nothing the
    read's value flows into can trap or index another tensor.  None when
    there is no such tensor.  Ask before partition makes any type local;
    `aligned`: the op's `aligned_reads`, when the caller has them."""
    op = op.operation
    if op.name != "linalg.generic" or not len(op.regions) or not len(op.results):
        return None
    if any("reduction" in str(it) for it in ir.ArrayAttr(op.attributes["iterator_types"])):
        return None
    for r in op.results:
        t = r.type
        element = ir.RankedTensorType(t).element_type if isinstance(t, ir.RankedTensorType) else None
        # (signless integers only: arith makes no zero of a signed or unsigned
        # one; floats with a zero, which devices not holding the row yield)
        if isinstance(element, ir.FloatType) and float_zero(element) is None:
            return None
        if not isinstance(element, ir.FloatType) and not (
            isinstance(element, ir.IntegerType)
            and ir.IntegerType(element).width > 1
            and ir.IntegerType(element).is_signless
        ):
            return None
    body = op.regions[0].blocks[0]
    inside: set[ir.Value] = set(body.arguments)
    extracts: dict[ir.Value, list[ir.Operation]] = {}
    other: set[ir.Value] = set()
    ordered: list[ir.Operation] = []
    from_loops: set[ir.Value] = set()  # values computed from the op's loop indices
    nested = False

    def visit(inner: ir.Operation) -> ir.WalkResult:
        nonlocal nested
        if len(inner.regions):
            nested = True
            return ir.WalkResult.INTERRUPT
        ordered.append(inner)
        if inner.name == "linalg.index" or any(v in from_loops for v in inner.operands):
            from_loops.update(inner.results)
        _sort_reads(inner, inside, extracts, other)
        inside.update(inner.results)
        return ir.WalkResult.ADVANCE

    walk_inside(op, visit)
    if nested or not extracts:
        return None
    if aligned is None:
        aligned = aligned_reads(op)
    for v, users in extracts.items():
        if v in other:
            continue
        shape = tuple(ir.RankedTensorType(v.type).shape)
        read = aligned.get(v)
        for d, size in enumerate(shape):
            if size <= 0 or (read is not None and read.map[d] is not None):
                continue
            index = users[0].operands[1 + d]
            if index in from_loops or any(u.operands[1 + d] != index for u in users[1:]):
                continue
            if _safe_to_mask(ordered, users):
                others = tuple(w for w in (*extracts, *other) if w != v)
                return MaskedRead(v, d, index, tuple(users), shape, read, others)
            return None  # (the same values flow on whatever dimension is masked)
    return None


def _sort_reads(
    inner: ir.Operation,
    inside: set[ir.Value],
    extracts: dict[ir.Value, list[ir.Operation]],
    other: set[ir.Value],
) -> None:
    """Note each tensor `inner` reads from outside the op (not `inside` it):
    as the tensor of a `tensor.extract` (`extracts`), else in `other`."""
    for i, v in enumerate(inner.operands):
        if v in inside or not isinstance(v.type, ir.RankedTensorType):
            continue
        if inner.name == "tensor.extract" and i == 0:
            extracts.setdefault(v, []).append(inner)
        else:
            other.add(v)


def _safe_to_mask(ordered: list[ir.Operation], extracts: list[ir.Operation]) -> bool:
    """Whether the values `extracts` read flow only into ops that cannot trap
    or make poison on an arbitrary operand (`_UNSAFE_ON_GARBAGE`), nor index
    another tensor; `ordered` lists the body's ops in program order."""
    tainted: set[ir.Value] = {e.result for e in extracts}
    for inner in ordered:
        if not any(v in tainted for v in inner.operands):
            continue
        name = inner.name
        if name in _UNSAFE_ON_GARBAGE or name == "tensor.extract":
            return False
        if not name.startswith(("arith.", "math.")) and name != "linalg.yield":
            return False
        tainted.update(inner.results)
    return True


_Read = tuple[ir.Operation, list[ir.Operation], tuple[ir.Operation, int]]
"""One extract's read of a dimension: the `linalg.index` it comes from, the
index arithmetic in between (`index_chains.chain_to_index`), and the use of
the index that keeps its local value on a device (`AlignedRead.keeps`)."""


def _same_loop(
    own: set[int], users: list[ir.Operation], d: int, inside: set[ir.Value]
) -> tuple[int | None, list[_Read]]:
    """The loop whose `linalg.index` (one of the op's own, whose addresses
    `own` holds: `index_reads`) every extract in `users` reads dimension `d`
    at, directly or through index arithmetic, and those reads; None when
    they differ or one is read otherwise."""
    loop: int | None = None
    at: list[_Read] = []
    for user in users:
        index = user.operands[1 + d]
        found = chain_to_index(index, inside)
        if found is None:
            return None, []
        owner, chain = found
        if op_address(owner) not in own:
            return None, []
        j = ir.IntegerAttr(owner.attributes["dim"]).value
        if loop is not None and j != loop:
            return None, []
        loop = j
        head = chain[0] if chain else user
        position = next(k for k, v in enumerate(head.operands) if v == owner.result) if chain else 1 + d
        at.append((owner, chain, (head, position)))
    return loop, at


def _loop_sizes(op: ir.Operation) -> dict[int, int]:
    """The static sizes of a `linalg.generic`'s loops that some operand
    dimension indexes plainly."""
    sizes: dict[int, int] = {}
    maps = [ir.AffineMapAttr(a).value for a in ir.ArrayAttr(get_indexing_maps(op))]
    for v, m in zip(op.operands, maps):
        t = v.type
        if not isinstance(t, ir.RankedTensorType):
            continue
        for k, e in enumerate(m.results):
            if isinstance(e, ir.AffineDimExpr) and not t.is_dynamic_dim(k):
                sizes.setdefault(e.position, t.shape[k])
    return sizes
