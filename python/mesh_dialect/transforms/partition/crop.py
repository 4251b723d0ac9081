"""Slices taking part of a split dimension (`Crop`): `x[1:]`, `x[:-1]`.

Each device's outputs read a run of the operand's rows.  Held by the
device (its piece with halos, or a piece cut where the runs start:
`crop_layout`), every device slices its own rows, at an offset and to a
size of its own.  `fit` reshards the operand so where a device's run is
not all there; `localize` makes the slice again with this device's
offsets and sizes (tables read at its piece number).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING

from mlir import ir
from mlir.dialects import arith, tensor

from ...interfaces.registry import kept_dims
from ...interfaces.rules import Crop, ShardingRule, crop_layout
from ...ir.hlo import ints_of
from ...sharding.spec import Mesh, Sharding

if TYPE_CHECKING:  # (the partition pass imports this module)
    from .mesh_partition import _Partition

_HLO_SLICES = frozenset(("stablehlo.slice", "mhlo.slice"))
_HLO_PADS = frozenset(("stablehlo.pad", "mhlo.pad"))


def split_crops(rule: ShardingRule, out: Sharding | None) -> list[tuple[Crop, int]]:
    """(crop, result dimension) of every crop whose loop `out` (the slice's
    result layout) splits."""
    if out is None or not rule.crops:
        return []
    m = rule.result_maps[0]
    assert m is not None
    found = []
    for c in rule.crops:
        k = m.index(c.loop)
        if k < len(out.split_axes) and out.split_axes[k]:
            found.append((c, k))
    return found


def _starts(c: Crop, out: Sharding, k: int, have: Sharding, mesh: Mesh) -> list[int | None]:
    """Per piece, where its run starts in its local rows of the operand laid
    out as `have` (None: a row it reads is not there)."""
    out_cut = out.cut(k, c.out, mesh)
    cut, halo = have.cut(c.dim, c.extent, mesh), have.halo(c.dim)
    return [c.local(out_cut, cut, halo, p) for p in range(len(out_cut) - 1)]


@dataclasses.dataclass(frozen=True)
class _Runs:
    """Per piece of the result along a split crop: where its run starts in
    the rows the piece holds, how long it is, how many of the piece's rows
    come before it, and whether any piece holds rows outside its run (then
    the operand is sliced to the run first)."""

    starts: tuple[int, ...]
    lengths: tuple[int, ...]
    before: tuple[int, ...]
    after: tuple[int, ...]
    sliced: bool


def _runs(c: Crop, out: Sharding, k: int, have: Sharding, mesh: Mesh, what: str) -> _Runs:
    out_cut = out.cut(k, c.out, mesh)
    n = len(out_cut) - 1
    starts = _starts(c, out, k, have, mesh)
    if None in starts:  # (`fit` resharded the source so: never met)
        raise ValueError(f"the {what} do not lie in each device's piece")
    runs = [c.run(out_cut, p) for p in range(n)]
    lengths = tuple(r[1] - r[0] if r else 0 for r in runs)
    pads = [c.padding(out_cut, p) for p in range(n)]
    cut, (above, below) = have.cut(c.dim, c.extent, mesh), have.halo(c.dim)
    held = tuple(cut[p + 1] - cut[p] + above + below for p in range(n))
    return _Runs(
        starts=tuple(int(s) for s in starts if s is not None),
        lengths=lengths,
        before=tuple(lo for lo, _ in pads),
        after=tuple(hi for _, hi in pads),
        sliced=lengths != held or any(starts),
    )


def _held(part: _Partition, op: ir.Operation, crops: list[tuple[Crop, int]], out: Sharding) -> Sharding:
    """The layout of the op's operand, split along each crop as the result
    is (`fit` resharded it so; ValueError where it did not)."""
    have = part.layout.get(op.operands[0])
    for c, k in crops:
        if have is None or have.axes_of(c.dim) != out.axes_of(k):
            raise ValueError(
                f"operand 0 of '{op.name}' is laid out as {have} where its result splits dimension {k} over "
                f"mesh axes {list(out.axes_of(k))}"
            )
    assert have is not None
    return have


def fit(part: _Partition, op: ir.Operation, rule: ShardingRule, out: Sharding | None) -> None:
    """Reshard the slice's operand so that every device holds its runs
    along each split crop (`crop_layout`, for the result's cut as it is),
    where it does not: propagation annotates that layout and the solver
    prices it, but a layout written by hand is resharded here."""
    mesh = part.mesh
    assert mesh is not None
    crops = split_crops(rule, out)
    if not crops:
        # each device slices its piece as the whole op does: a halo the
        # operand arrives with (partition's fit keeps one for a crop) goes
        operand = rule.crops[0].operand  # (called for a rule with crops)
        have = part.layout.get(op.operands[operand])
        if have is not None and have.halo_sizes:
            plain = dataclasses.replace(have, halo_sizes=())
            part.reshard_operand(op, operand, plain, ir.InsertionPoint(op), op.location)
        return
    assert out is not None
    # (never on a mesh of dynamic size: partition reads such a rule `uncropped`)
    have = _held(part, op, crops, out)
    dims = {c.dim for c, _ in crops}
    if not any(have.halo(d) != (0, 0) for d in have.sharded_dims() if d not in dims) and all(
        None not in _starts(c, out, k, have, mesh) for c, k in crops
    ):
        return
    shape = crops[0][0].shape
    plain = dataclasses.replace(have, halo_sizes=(), sharded_dims_offsets=())
    need = crop_layout(
        plain,
        {c.dim: (c, out.cut(k, c.out, mesh)) for c, k in crops},
        {d: have.cut(d, shape[d], mesh) for d in have.sharded_dims()},
    )
    part.reshard_operand(op, crops[0][0].operand, need, ir.InsertionPoint(op), op.location)


def localize(part: _Partition, op: ir.Operation, rule: ShardingRule, out: Sharding | None) -> ir.Operation | None:
    """The slice made again on this device's piece (its result already has
    its local type): along a split crop, its offset into the piece and its
    size are this device's; along other split dimensions (taken whole or
    every t-th element of), the size is the result piece's.  An hlo slice
    or pad becomes its `tensor` twin, whose offsets, sizes and padding may
    be values, also where its pieces differ in size along a dimension it
    takes whole.  None when no crop is split (`_localize` does the job)."""
    crops = split_crops(rule, out)
    hlo = op.name in _HLO_SLICES or op.name in _HLO_PADS
    if not crops and not (hlo and not ir.RankedTensorType(op.results[0].type).has_static_shape):
        return None  # (an hlo op split only where it takes all, into pieces of one size: `hlo.localize`)
    assert out is not None and part.mesh is not None
    if op.name == "tensor.pad":
        return _pad(part, op, crops, out)
    if op.name == "tensor.insert_slice":
        return _insert(part, op, crops, out)
    if op.name in _HLO_PADS:
        return _hlo_pad(part, op, crops, out)
    from .mesh_partition import _dense_i64

    dyn = ir.ShapedType.get_dynamic_size()
    if op.name in _HLO_SLICES:
        source, strides = op.operands[0], []
        offsets: list[int | ir.Value] = list(ints_of(op.attributes["start_indices"]))
        static_sizes = [b - a for a, b in zip(offsets, ints_of(op.attributes["limit_indices"]))]
        sizes: list[int | ir.Value] = list(static_sizes)
        static_strides = [1] * len(sizes)
    else:
        operands = list(op.operands)
        segments = list(ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"]))
        n_off, n_size = segments[1], segments[2]
        given_offsets = iter(operands[1 : 1 + n_off])
        given_sizes = iter(operands[1 + n_off : 1 + n_off + n_size])
        source, strides = operands[0], operands[1 + n_off + n_size :]
        static_offsets = ir.DenseI64ArrayAttr(op.attributes["static_offsets"])
        offsets = [next(given_offsets) if o == dyn else o for o in static_offsets]
        static_sizes = list(ir.DenseI64ArrayAttr(op.attributes["static_sizes"]))
        sizes = [next(given_sizes) if n == dyn else n for n in static_sizes]
        static_strides = list(ir.DenseI64ArrayAttr(op.attributes["static_strides"]))
    _localized(part, op, crops, out, offsets, sizes, static_sizes)
    attrs = {key: op.attributes[key] for key in op.attributes} if op.name == "tensor.extract_slice" else {}
    attrs["static_offsets"] = _dense_i64([v if isinstance(v, int) else dyn for v in offsets])
    attrs["static_sizes"] = _dense_i64([v if isinstance(v, int) else dyn for v in sizes])
    attrs["static_strides"] = _dense_i64(static_strides)
    dynamic_offsets = [v for v in offsets if not isinstance(v, int)]
    dynamic_sizes = [v for v in sizes if not isinstance(v, int)]
    attrs["operandSegmentSizes"] = ir.DenseI32ArrayAttr.get([1, len(dynamic_offsets), len(dynamic_sizes), len(strides)])
    return ir.Operation.create(
        "tensor.extract_slice",
        results=[op.results[0].type],
        operands=[source, *dynamic_offsets, *dynamic_sizes, *strides],
        attributes=attrs,
        loc=op.location,
        ip=ir.InsertionPoint(op),
    )


def kept_of(sizes: Sequence[int], rank: int) -> list[int]:
    """The dimensions of a slice of static `sizes` (dynamic ones negative)
    that its piece of `rank` keeps (`registry.kept_dims`): only slices whose
    rule exists are split, and their rule found those."""
    kept = kept_dims(sizes, rank)
    if kept is None:  # (never met: such a slice has no rule, and is never split)
        raise ValueError(f"a slice of sizes {list(sizes)} into rank {rank} drops unit dimensions ambiguously")
    return kept


def _localized(
    part: _Partition,
    op: ir.Operation,
    crops: list[tuple[Crop, int]],
    out: Sharding,
    offsets: list[int | ir.Value],
    sizes: list[int | ir.Value],
    static_sizes: list[int],
) -> None:
    """Set this device's `offsets` and `sizes` (per dimension of the
    operand) along each split result dimension."""
    from .mesh_partition import _Ix, _one

    mesh = part.mesh
    assert mesh is not None
    result = op.results[0]
    global_out = ir.RankedTensorType(part.global_type.get(result, result.type))
    rank = global_out.rank
    kept = kept_of(static_sizes, rank)
    have = _held(part, op, crops, out)
    by_dim = {c.dim: c for c, _ in crops}
    ix = _Ix(part, ir.InsertionPoint(op), op.location)
    for k, d in enumerate(kept):
        axes = out.axes_of(k) if k < len(out.split_axes) else ()
        if not axes:
            continue
        c = by_dim.get(d)
        n, count = global_out.shape[k], out.shard_count(k, mesh)
        if c is None and not out.sharded_dims_offsets and n >= 0 and count > 0 and n % count == 0:
            sizes[d] = n // count  # (the same on every device: no index to read)
            continue
        index = ix.group_index(axes)
        sizes[d] = ix.size(out, k, global_out.shape[k], index)
        if c is None:
            continue  # taken whole or every t-th element of: at the same offset on every piece
        starts = _starts(c, out, k, have, mesh)
        if None in starts:  # (`fit` resharded the operand so: never met)
            raise ValueError(f"the slice's rows along dimension {d} do not lie in each device's piece")
        table = tuple(int(s) for s in starts if s is not None)
        offsets[d] = ix.table(table, _one(table), index)


def _insert(part: _Partition, op: ir.Operation, crops: list[tuple[Crop, int]], out: Sharding) -> ir.Operation:
    """A `tensor.insert_slice` made again on this device's piece of the
    destination: along a split crop, the rows of the inserted run its piece
    holds (a slice of its rows of the source, `_padded`'s tables: none on a
    device whose piece the run misses) written after as many of its own rows
    as come before the run; along a dimension inserted whole, the piece's
    size (read from the local source: pieces may differ)."""
    from .mesh_partition import _Ix, _one

    mesh = part.mesh
    assert mesh is not None
    source, dest = op.operands[0], op.operands[1]
    have = _held(part, op, crops, out)
    ix = _Ix(part, ir.InsertionPoint(op), op.location)
    offsets: list[int | ir.Value] = list(ir.DenseI64ArrayAttr(op.attributes["static_offsets"]))
    sizes: list[int | ir.Value] = list(ir.DenseI64ArrayAttr(op.attributes["static_sizes"]))
    rank = ir.RankedTensorType(source.type).rank
    kept = kept_of(sizes, rank)  # type: ignore[arg-type]
    source_offsets: list[int | ir.Value] = [0] * rank
    source_sizes: list[int | ir.Value | None] = [None] * rank  # (None: the local source's, read if needed)
    by_dim = {c.dim: (c, k) for c, k in crops}  # (source dimension: the crop and its result dimension)
    sliced = False
    for j, d in enumerate(kept):
        found = by_dim.get(j)
        if found is None:
            sizes[d] = ix.dim(source, j)  # inserted whole (or every t-th element): as much as the piece holds
            continue
        c, k = found
        index = ix.group_index(out.axes_of(k))
        r = _runs(c, out, k, have, mesh, f"inserted rows along dimension {d}")
        if r.sliced:
            sliced = True
            source_offsets[j] = ix.table(r.starts, _one(r.starts), index)
            source_sizes[j] = ix.table(r.lengths, _one(r.lengths), index)
        offsets[d] = ix.table(r.before, _one(r.before), index)
        sizes[d] = ix.table(r.lengths, _one(r.lengths), index)
    if sliced:
        source = ix.slice(
            source, source_offsets, [ix.dim(source, k) if n is None else n for k, n in enumerate(source_sizes)]
        )
    return _insert_like(op, source, dest, offsets, sizes)


def _insert_like(
    op: ir.Operation, source: ir.Value, dest: ir.Value, offsets: list[int | ir.Value], sizes: list[int | ir.Value]
) -> ir.Operation:
    """`op` (a `tensor.insert_slice` at stride 1) made again in front of
    itself, of `source` into `dest` at `offsets` and `sizes` (ints or
    index values), its other attributes kept."""
    from .mesh_partition import _dense_i64

    dyn = ir.ShapedType.get_dynamic_size()
    attrs = {key: op.attributes[key] for key in op.attributes}
    attrs["static_offsets"] = _dense_i64([v if isinstance(v, int) else dyn for v in offsets])
    attrs["static_sizes"] = _dense_i64([v if isinstance(v, int) else dyn for v in sizes])
    dynamic_offsets = [v for v in offsets if not isinstance(v, int)]
    dynamic_sizes = [v for v in sizes if not isinstance(v, int)]
    attrs["operandSegmentSizes"] = ir.DenseI32ArrayAttr.get([1, 1, len(dynamic_offsets), len(dynamic_sizes), 0])
    return ir.Operation.create(
        "tensor.insert_slice",
        results=[dest.type],
        operands=[source, dest, *dynamic_offsets, *dynamic_sizes],
        attributes=attrs,
        loc=op.location,
        ip=ir.InsertionPoint(op),
    )


def insert_at_offsets(part: _Partition, op: ir.Operation, out: Sharding | None) -> ir.Operation | None:
    """A `tensor.insert_slice` at dynamic offsets (or of a unit dimension
    the inserted piece drops) along dimensions its destination is split
    along (the rule's loops there leave the piece whole) made again on
    this device's piece: along each, of the run
    [pos, pos + size) the device writes the part its rows [lo, lo + n)
    hold, from max(pos, lo) - lo on, read from the source at
    max(pos, lo) - pos (no rows on a device the run misses); along its
    other dimensions as `_localize` does.  A rank-reducing insert is
    expanded to the destination's rank first (the dropped dimensions have
    one row).  None when no such dimension is split."""
    from .mesh_partition import _Ix

    dyn = ir.ShapedType.get_dynamic_size()
    static_offsets = list(ir.DenseI64ArrayAttr(op.attributes["static_offsets"]))
    sizes = list(ir.DenseI64ArrayAttr(op.attributes["static_sizes"]))
    source, dest = op.operands[0], op.operands[1]
    rank = ir.RankedTensorType(source.type).rank
    kept = kept_of(sizes, rank)
    split = [
        d
        for d, o in enumerate(static_offsets)
        if (o == dyn or d not in kept) and out is not None and d < len(out.split_axes) and out.split_axes[d]
    ]
    if not split:
        return None
    assert out is not None and part.mesh is not None
    if out.halo_sizes:
        raise ValueError(f"an insert at dynamic offsets into a destination with halos is not supported ({out})")
    if dyn in sizes or dyn in list(ir.DenseI64ArrayAttr(op.attributes["static_strides"])):
        raise ValueError("an insert at dynamic offsets of dynamic sizes or strides is not supported")
    given = iter(list(op.operands)[2:])
    offsets: list[int | ir.Value] = [next(given) if o == dyn else o for o in static_offsets]
    whole = ir.RankedTensorType(part.global_type.get(op.results[0], dest.type))
    ix = _Ix(part, ir.InsertionPoint(op), op.location)
    rows = _unreduced(ix, source, sizes, kept)
    source_offsets: list[int | ir.Value] = [0] * len(sizes)
    source_sizes = ix.sizes_of(rows)
    new_sizes = list(source_sizes)  # (other dimensions: as much as the source piece holds)
    for d in split:
        first = ix.start(out, d, whole.shape[d], ix.group_index(out.axes_of(d)))
        held = ix.dim(dest, d)
        at = ix.sub(offsets[d], first)  # the run's start in this piece's rows
        start = ix.clamp(at, 0, held)
        length = ix.sub(ix.clamp(ix.add(at, sizes[d]), 0, held), start)
        source_offsets[d] = ix.clamp(ix.sub(start, at), 0, sizes[d])
        source_sizes[d] = new_sizes[d] = length
        offsets[d] = start
    return _insert_like(op, ix.slice(rows, source_offsets, source_sizes), dest, offsets, new_sizes)


def mask_rows(part: _Partition, op: ir.Operation, rule: ShardingRule) -> None:
    """A `tensor.extract_slice` reading one row of dimensions its operand
    is split along (sum loops of its rule, `registry._extract_slice`)
    made to read this device's piece, as `hlo._held_element` reads an hlo
    slice's element: the piece's row at the position clamped into it,
    kept where the position lies in the piece and the sum's zero
    elsewhere, read at offset 0 along those dimensions.  The zeros are
    a splat of the row's size, which may be known at run time only (a
    piece of another dimension cut unevenly).  Where a piece may hold no
    row (a cut by offsets that says so), the row is read with as many
    rows as the piece has, at most one, into the zeros."""
    from .hlo import held_at, may_be_empty, split_positions, zero_attr

    rows = [d for d, k in enumerate(rule.operand_maps[0] or ()) if k is not None and rule.iterators[k].is_reduction]
    source = op.operands[0]
    layout = part.layout.get(source)
    if layout is not None and source not in part.global_type and any(layout.axes_of(d) for d in rows):
        # (never met: partition knows the whole type of every value it splits)
        raise ValueError(f"the slice's operand is split ({layout}) but its whole type is not known")
    found, ix = split_positions(part, op, rows, empty_ok=True)
    if not found:
        return
    assert layout is not None
    whole = ir.RankedTensorType(part.global_type[source])
    dyn = ir.ShapedType.get_dynamic_size()
    static_offsets = list(ir.DenseI64ArrayAttr(op.attributes["static_offsets"]))
    given = [d for d, o in enumerate(static_offsets) if o == dyn]  # (operands 1, 2, ...: offsets in order)
    offsets: list[int | ir.Value] = [0] * len(static_offsets)
    sizes = ix.sizes_of(source)
    read = list(sizes)  # (the rows read: none where the piece is empty)
    empty = False
    mine: ir.Value | None = None
    for d, first, held in found:
        position = op.operands[1 + given.index(d)] if d in given else static_offsets[d]
        here, offsets[d] = held_at(ix, ix.sub(position, first), held)
        with ix.ip, ix.loc:
            mine = here if mine is None else arith.AndIOp(mine, here).result
        sizes[d] = 1
        read[d] = 1
        if may_be_empty(part, ix, layout, d, whole.shape[d]):
            read[d], empty = ix.clamp(held, 0, 1), True
        if d in given:
            op.operands[1 + given.index(d)] = ix.value(0)
        else:
            static_offsets[d] = 0
    row = ix.slice(source, offsets, read)
    t = ix.tensor_type(sizes, whole.element_type)
    with ix.ip, ix.loc:
        zero = arith.ConstantOp(t.element_type, zero_attr(op, t.element_type)).result
        zeros = tensor.SplatOp(t, zero, [ix.value(n) for n in sizes if not isinstance(n, int)]).result
    if empty:
        row = ix.insert(row, zeros, [0] * len(sizes), read)
    with ix.ip, ix.loc:
        op.operands[0] = arith.SelectOp(mine, row, zeros).result
    op.attributes["static_offsets"] = ir.DenseI64ArrayAttr.get(static_offsets)
    part.layout[op.operands[0]] = layout  # (`localize_dynamic` reads its split dimensions)


def _unreduced(ix, source: ir.Value, sizes: list[int], kept: Sequence[int]) -> ir.Value:
    """`source` with the unit dimensions a rank-reducing insert drops (all
    but `kept`) put back (each joins the group of the next kept dimension,
    or of the last one), so that it has the destination's rank."""
    t = ir.RankedTensorType(source.type)
    if t.rank == len(sizes):
        return source
    shape = [1] * len(sizes)
    given: list[ir.Value] = []  # (a piece of a dimension cut unevenly: its size, read from it)
    groups: list[list[int]] = [[] for _ in kept]
    k = 0
    for d in range(len(sizes)):
        if k < len(kept) and d == kept[k]:
            shape[d] = t.shape[k]
            if t.is_dynamic_dim(k):
                given.append(ix.value(ix.dim(source, k)))
            groups[k].append(d)
            k += 1
        elif groups:
            groups[min(k, len(groups) - 1)].append(d)
    groups = [sorted(g) for g in groups]
    i64 = ir.IntegerType.get_signless(64)
    reassociation = ir.ArrayAttr.get([ir.ArrayAttr.get([ir.IntegerAttr.get(i64, d) for d in g]) for g in groups])
    with ix.ip, ix.loc:
        return ir.Operation.create(
            "tensor.expand_shape",
            results=[ir.RankedTensorType.get(shape, t.element_type, t.encoding)],
            operands=[source, *given],
            attributes={"reassociation": reassociation, "static_output_shape": ir.DenseI64ArrayAttr.get(shape)},
        ).result


def _pad(part: _Partition, op: ir.Operation, crops: list[tuple[Crop, int]], out: Sharding) -> ir.Operation:
    """A `tensor.pad` made again on this device's piece (`_padded`), with
    its own body."""
    low: list[int | ir.Value] = list(ir.DenseI64ArrayAttr(op.attributes["static_low"]))
    high: list[int | ir.Value] = list(ir.DenseI64ArrayAttr(op.attributes["static_high"]))
    rows = _padded(part, op, crops, out, low, high)
    new = _tensor_pad(op, rows, low, high, {key: op.attributes[key] for key in op.attributes})
    op.regions[0].blocks[0].append_to(new.regions[0])
    return new


def _hlo_pad(part: _Partition, op: ir.Operation, crops: list[tuple[Crop, int]], out: Sharding) -> ir.Operation:
    """An hlo `pad` (no interior padding) made again on this device's piece
    (`_padded`) as a `tensor.pad` yielding the padding scalar.  Negative
    padding cuts rows off: a device's share of it is a slice of its rows."""
    low: list[int | ir.Value] = list(ints_of(op.attributes["edge_padding_low"]))
    high: list[int | ir.Value] = list(ints_of(op.attributes["edge_padding_high"]))
    rows, source = op.operands[0], ir.RankedTensorType(op.operands[0].type)
    split = {c.dim for c, _ in crops}
    cut = [d for d, (a, b) in enumerate(zip(low, high)) if d not in split and min(a, b) < 0]  # type: ignore[type-var]
    if cut:
        # (a dimension left whole: a split crop's shares of the padding are
        # not negative) the whole dimension read as one piece of its crop:
        # the rows kept, and the padding before and after them
        from .mesh_partition import _Ix

        ix = _Ix(part, ir.InsertionPoint(op), op.location)
        offsets: list[int | ir.Value] = [0] * source.rank
        sizes = [ix.dim(rows, d) for d in range(source.rank)]
        for d in cut:
            a, b = low[d], high[d]
            assert isinstance(a, int) and isinstance(b, int)
            whole = (0, source.shape[d] + a + b)
            crop = Crop(0, d, 0, -a, 1, tuple(source.shape), whole[1], pads=True)
            run = crop.run(whole, 0)
            offsets[d], sizes[d] = run[0] if run else 0, run[1] - run[0] if run else 0
            low[d], high[d] = crop.padding(whole, 0)
        rows = ix.slice(rows, offsets, sizes)
    rows = _padded(part, op, crops, out, low, high, rows)
    with op.location, ir.InsertionPoint(op):
        scalar = tensor.ExtractOp(op.operands[1], []).result
        new = _tensor_pad(op, rows, low, high, {})
        block = new.regions[0].blocks.append(*[ir.IndexType.get()] * len(low))
        with ir.InsertionPoint(block):
            tensor.YieldOp(scalar)
    return new


def _tensor_pad(
    op: ir.Operation, rows: ir.Value, low: list[int | ir.Value], high: list[int | ir.Value], attrs: dict
) -> ir.Operation:
    """A `tensor.pad` of `rows` by `low` and `high` (ints or index values),
    typed as `op`'s (local) result, its region left empty."""
    from .mesh_partition import _dense_i64

    dyn = ir.ShapedType.get_dynamic_size()
    attrs["static_low"] = _dense_i64([v if isinstance(v, int) else dyn for v in low])
    attrs["static_high"] = _dense_i64([v if isinstance(v, int) else dyn for v in high])
    dynamic_low = [v for v in low if not isinstance(v, int)]
    dynamic_high = [v for v in high if not isinstance(v, int)]
    attrs["operandSegmentSizes"] = ir.DenseI32ArrayAttr.get([1, len(dynamic_low), len(dynamic_high)])
    return ir.Operation.create(
        "tensor.pad",
        results=[op.results[0].type],
        operands=[rows, *dynamic_low, *dynamic_high],
        attributes=attrs,
        regions=1,
        loc=op.location,
        ip=ir.InsertionPoint(op),
    )


def _padded(
    part: _Partition,
    op: ir.Operation,
    crops: list[tuple[Crop, int]],
    out: Sharding,
    low: list[int | ir.Value],
    high: list[int | ir.Value],
    source: ir.Value | None = None,
) -> ir.Value:
    """The rows this device pads: along a split crop, the run of its rows
    it holds (a slice at its own offset and size), padded by its own share
    of the padding (tables read at its piece number, set in `low` and
    `high`); along its other dimensions as before (a split one is padded
    by nothing)."""
    from .mesh_partition import _Ix, _one

    mesh = part.mesh
    assert mesh is not None
    source = op.operands[0] if source is None else source
    have = _held(part, op, crops, out)
    result = op.results[0]
    global_out = ir.RankedTensorType(part.global_type.get(result, result.type))
    ix = _Ix(part, ir.InsertionPoint(op), op.location)
    rank = global_out.rank
    offsets: list[int | ir.Value] = [0] * rank
    sizes: list[int | ir.Value | None] = [None] * rank  # (None: the local source's, read if it is sliced)
    sliced = False
    for c, k in crops:
        index = ix.group_index(out.axes_of(k))
        r = _runs(c, out, k, have, mesh, f"pad's rows along dimension {k}")
        tables = [(r.before, low), (r.after, high)]
        if r.sliced:  # (else each device pads all it holds)
            sliced = True
            tables += [(r.starts, offsets), (r.lengths, sizes)]
        for values, target in tables:
            target[k] = ix.table(values, _one(values), index)
    if not sliced:
        return source
    return ix.slice(source, offsets, [ix.dim(source, d) if n is None else n for d, n in enumerate(sizes)])
