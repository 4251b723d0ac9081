"""Point-to-point `mesh.send`/`mesh.recv` among the devices of each group:
a permutation of whole pieces (partition's Permute step, and the
optimizer's mirror exchange for a reversed dimension), an exchange of
blocks of pieces (partition's Exchange step, `sharding.exchange`) and
the rows a new cut of a dimension moves (partition's Recut step,
`sharding.recut`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from mlir import ir
from mlir.dialects import arith, scf, tensor

from ..sharding.exchange import Schedule, chain_positions
from ..sharding.recut import RecutPlan
from . import ops as mesh_ops


def permuted(
    value: ir.Value,
    mesh: str,
    sizes: Sequence[int],
    axes: Sequence[int],
    perm: Sequence[int],
    buffer: ir.Value | None = None,
) -> ir.Value:
    """Device i of each group (over `axes` of sizes `sizes`, i its linear
    index there) sends `value` to perm[i] and receives from perm^-1[i],
    built at the current insertion point and location.  Send and receive
    meet, so along each cycle of the permutation devices at even positions
    send first and those at odd positions receive first; devices that keep
    their piece do nothing.  `buffer` receives a piece of another size than
    the device's own."""
    perm = list(perm)
    inverse = [0] * len(perm)
    for i, p in enumerate(perm):
        inverse[p] = i
    position = chain_positions(perm, inverse)
    idx_type = ir.IndexType.get()
    t = value.type
    linear = _linear_index(mesh, axes, sizes)
    target = _table(perm, linear)
    dest = _coordinates(target, sizes)
    source = _coordinates(_table(inverse, linear), sizes)
    moves = arith.CmpIOp(arith.CmpIPredicate.ne, target, linear).result
    even = arith.CmpIOp(
        arith.CmpIPredicate.eq,
        arith.RemUIOp(_table(position, linear), arith.ConstantOp(idx_type, 2).result).result,
        arith.ConstantOp(idx_type, 0).result,
    ).result
    outer = scf.IfOp(moves, [t], has_else=True)
    with ir.InsertionPoint(outer.then_block):
        inner = scf.IfOp(even, [t], has_else=True)
        into = value if buffer is None else buffer
        with ir.InsertionPoint(inner.then_block):
            mesh_ops.SendOp(t, value, mesh, mesh_axes=list(axes), destination=dest)
            got = mesh_ops.RecvOp(t, into, mesh, mesh_axes=list(axes), source=source).result
            scf.YieldOp([got])
        with ir.InsertionPoint(inner.else_block):
            got = mesh_ops.RecvOp(t, into, mesh, mesh_axes=list(axes), source=source).result
            mesh_ops.SendOp(t, value, mesh, mesh_axes=list(axes), destination=dest)
            scf.YieldOp([got])
        scf.YieldOp([inner.results[0]])
    with ir.InsertionPoint(outer.else_block):
        scf.YieldOp([value])
    return outer.results[0]


def exchanged(value: ir.Value, mesh: str, sched: Schedule, piece: ir.RankedTensorType) -> ir.Value:
    """The new piece (of type `piece`) each device of the groups over
    `sched.axes` builds from its old piece `value` by the exchange `sched`:
    the blocks it holds copied into a `tensor.empty`, then per round a
    block sent to one device and one received from another (each in an
    `scf.if` on whether the device takes part, sends ordered before or
    after the receive as the schedule says), built at the current insertion
    point and location."""
    idx_type = ir.IndexType.get()
    element = piece.element_type
    block_type = ir.RankedTensorType.get(list(sched.block), element)
    linear = _linear_index(mesh, sched.axes, sched.sizes)
    axes = list(sched.axes)

    def offsets(rows: Sequence[Sequence[int]]) -> list[ir.Value | int]:
        """Per dimension, the device's entry of `rows` (one row per device):
        a constant where every device has the same."""
        out: list[ir.Value | int] = []
        for d in range(len(sched.block)):
            column = [row[d] for row in rows]
            out.append(column[0] if len(set(column)) == 1 else _table(column, linear))
        return out

    result = tensor.EmptyOp(list(sched.piece), element).result
    for slot, own in zip(sched.slots, sched.own):
        if all(at is None for at in own):
            continue  # every device receives this block
        # (a device that receives it copies a block of its own first: overwritten below)
        rows = [at if at is not None else (0,) * len(sched.block) for at in own]
        result = _insert(_slice(value, offsets(rows), sched.block), result, list(slot))
    for r in sched.rounds:
        dest_index, source_index = _table(list(r.dest), linear), _table(list(r.source), linear)
        sends = arith.CmpIOp(arith.CmpIPredicate.ne, dest_index, linear).result
        receives = arith.CmpIOp(arith.CmpIPredicate.ne, source_index, linear).result
        first = arith.CmpIOp(
            arith.CmpIPredicate.ne, _table([int(f) for f in r.send_first], linear), arith.ConstantOp(idx_type, 0).result
        ).result
        block = _slice(value, offsets(r.send_at), sched.block)
        dest, source = _coordinates(dest_index, sched.sizes), _coordinates(source_index, sched.sizes)
        _send_if(arith.AndIOp(sends, first).result, block, mesh, axes, dest)
        taken = scf.IfOp(receives, [piece], has_else=True)
        with ir.InsertionPoint(taken.then_block):
            into = tensor.EmptyOp(list(sched.block), element).result
            got = mesh_ops.RecvOp(block_type, into, mesh, mesh_axes=axes, source=source).result
            scf.YieldOp([_insert(got, result, offsets(r.recv_at))])
        with ir.InsertionPoint(taken.else_block):
            scf.YieldOp([result])
        result = taken.results[0]
        later = arith.XOrIOp(first, arith.ConstantOp(ir.IntegerType.get_signless(1), 1).result).result
        _send_if(arith.AndIOp(sends, later).result, block, mesh, axes, dest)
    return result


def recut(
    value: ir.Value, mesh: str, axes: Sequence[int], sizes: Sequence[int], dim: int, plan: RecutPlan, piece: ir.Type
) -> ir.Value:
    """The new piece (of type `piece`) each device of the groups over `axes`
    (of `sizes`) builds from its old piece `value` when dimension `dim` is
    cut at `plan.after` instead of `plan.before`: the rows it keeps copied
    into a `tensor.empty`, then per round a block of its old piece sent to
    the device `distance` places before it and one received from the
    device as far after it, whose first rows (as many as the run it lacks)
    go into the new piece; built at the current insertion point and
    location."""
    idx_type = ir.IndexType.get()
    source_type, piece_type = ir.RankedTensorType(value.type), ir.RankedTensorType(piece)
    rank, element = source_type.rank, source_type.element_type
    linear = _linear_index(mesh, axes, sizes)
    made: dict[tuple, ir.Value] = {}

    def at(values: Sequence[int]) -> int | ir.Value:
        return device_table(list(values), linear, made)

    def size_of(k: int) -> int | ir.Value:
        if not source_type.is_dynamic_dim(k):
            return source_type.shape[k]
        return tensor.DimOp(value, arith.ConstantOp(idx_type, k).result).result

    others = [size_of(k) if k != dim else 0 for k in range(rank)]

    def sizes_with(rows: int | ir.Value) -> list[int | ir.Value]:
        """The old piece's sizes, `rows` along `dim`."""
        return [rows if k == dim else others[k] for k in range(rank)]

    def offsets_with(row: int | ir.Value) -> list[int | ir.Value]:
        """Offset `row` along `dim`, 0 elsewhere."""
        return [row if k == dim else 0 for k in range(rank)]

    n = len(plan.keep_count)
    new_sizes = [plan.after[p + 1] - plan.after[p] for p in range(n)]
    result = _empty(sizes_with(at(new_sizes)), piece_type)
    kept = _slice(value, offsets_with(at(plan.keep_from)), sizes_with(at(plan.keep_count)))
    result = _insert(kept, result, offsets_with(at(plan.keep_at)))
    held = value
    pad = plan.padding()
    if pad:  # a block reaching past a sender's last row reads this padding (never kept)
        if source_type.is_dynamic_dim(dim):
            grown: int | ir.Value = arith.AddIOp(size_of(dim), arith.ConstantOp(idx_type, pad).result).result
        else:
            grown = source_type.shape[dim] + pad
        held = _insert(value, _empty(sizes_with(grown), None, element), [0] * rank)
    zero = arith.ConstantOp(idx_type, 0).result

    def flag(values: Sequence[bool]) -> ir.Value:
        entry = at([int(v) for v in values])
        if isinstance(entry, int):
            return arith.ConstantOp(ir.IntegerType.get_signless(1), entry).result
        return arith.CmpIOp(arith.CmpIPredicate.ne, entry, zero).result

    for r in plan.rounds:
        sends = [r.sends(q) for q in range(n)]
        receives = [r.receives(p) for p in range(n)]
        dest = [q - r.distance if sends[q] else q for q in range(n)]
        source = [p + r.distance if receives[p] else p for p in range(n)]
        block = _slice(held, offsets_with(at(r.send_at)), sizes_with(r.block))
        block_type = ir.RankedTensorType(block.type)
        to = _coordinates(_as_value(at(dest)), sizes)
        first = flag([s and f for s, f in zip(sends, r.send_first)])
        later = flag([s and not f for s, f in zip(sends, r.send_first)])
        _send_if(first, block, mesh, list(axes), to)
        # (every table made outside the branch: `made` hands them to later rounds)
        origin = _coordinates(_as_value(at(source)), sizes)
        count, into_at = sizes_with(at(r.recv_count)), offsets_with(at(r.recv_at))
        taken = scf.IfOp(flag(receives), [piece_type], has_else=True)
        with ir.InsertionPoint(taken.then_block):
            into = _empty(sizes_with(r.block), block_type)
            got = mesh_ops.RecvOp(block_type, into, mesh, mesh_axes=list(axes), source=origin).result
            scf.YieldOp([_insert(_slice(got, [0] * rank, count), result, into_at)])
        with ir.InsertionPoint(taken.else_block):
            scf.YieldOp([result])
        result = taken.results[0]
        _send_if(later, block, mesh, list(axes), to)
    return result


def _as_value(entry: int | ir.Value) -> ir.Value:
    return entry if isinstance(entry, ir.Value) else arith.ConstantOp(ir.IndexType.get(), entry).result


def _empty(sizes: Sequence[int | ir.Value], typed: ir.RankedTensorType | None, element: ir.Type | None = None):
    """A `tensor.empty` of `sizes`, of type `typed` when given (its dynamic
    dimensions take the Values, static ones must match), else static where
    `sizes` are ints."""
    if typed is None:
        assert element is not None
        shape = [ir.ShapedType.get_dynamic_size() if isinstance(x, ir.Value) else x for x in sizes]
        typed = ir.RankedTensorType.get(shape, element)
    dynamic = [_as_value(x) for k, x in enumerate(sizes) if typed.is_dynamic_dim(k)]
    return ir.Operation.create("tensor.empty", results=[typed], operands=dynamic).result


def _slice(source: ir.Value, offsets: Sequence[int | ir.Value], sizes: Sequence[int | ir.Value]) -> ir.Value:
    """`tensor.extract_slice` of unit strides, offsets and sizes each an int
    or a Value (a Value size is a dynamic dimension of the result)."""
    element = ir.RankedTensorType(source.type).element_type
    dyn_off, static_off = _split_static(offsets)
    dyn_size = [x for x in sizes if isinstance(x, ir.Value)]
    static_size = [ir.ShapedType.get_dynamic_size() if isinstance(x, ir.Value) else x for x in sizes]
    result = ir.RankedTensorType.get(static_size, element)
    rank = len(sizes)
    return tensor.ExtractSliceOp(result, source, dyn_off, dyn_size, [], static_off, static_size, [1] * rank).result


def _insert(block: ir.Value, into: ir.Value, offsets: Sequence[int | ir.Value]) -> ir.Value:
    """`tensor.insert_slice` of all of `block` at `offsets` (ints or Values)."""
    t = ir.RankedTensorType(block.type)
    dyn_off, static_off = _split_static(offsets)
    dyn_size = [
        tensor.DimOp(block, arith.ConstantOp(ir.IndexType.get(), k).result).result
        for k in range(t.rank)
        if t.is_dynamic_dim(k)
    ]
    static_size = list(t.shape)
    return tensor.InsertSliceOp(block, into, dyn_off, dyn_size, [], static_off, static_size, [1] * t.rank).result


def _send_if(condition: ir.Value, block: ir.Value, mesh: str, axes: list[int], dest: list[ir.Value]) -> None:
    """`mesh.send` of `block` to `dest` where `condition` holds."""
    branch = scf.IfOp(condition, [], has_else=False)
    with ir.InsertionPoint(branch.then_block):
        mesh_ops.SendOp(block.type, block, mesh, mesh_axes=axes, destination=dest)
        scf.YieldOp([])


def _linear_index(mesh: str, axes: Sequence[int], sizes: Sequence[int]) -> ir.Value:
    """The device's index in its group over `axes`, row-major."""
    idx_type = ir.IndexType.get()
    index = mesh_ops.ProcessMultiIndexOp(mesh, axes=list(axes)).operation.results
    linear = None
    for i, size in enumerate(sizes):
        term = index[i]
        if linear is None:
            linear = term
        else:
            c = arith.ConstantOp(idx_type, size).result
            linear = arith.AddIOp(arith.MulIOp(linear, c).result, term).result
    assert linear is not None
    return linear


def _table(values: Sequence[int], linear: ir.Value) -> ir.Value:
    """The device's entry of `values` (one per device of the group)."""
    idx_type = ir.IndexType.get()
    attr = ir.DenseElementsAttr.get(
        np.array(values, dtype=np.int64), type=ir.RankedTensorType.get([len(values)], idx_type)
    )
    return tensor.ExtractOp(arith.ConstantOp(attr.type, attr).result, [linear]).result


def _coordinates(lin: ir.Value, sizes: Sequence[int]) -> list[ir.Value]:
    """A linear index in the group as coordinates along its axes."""
    idx_type = ir.IndexType.get()
    out = []
    rest = lin
    for size in reversed(sizes):
        c = arith.ConstantOp(idx_type, size).result
        out.append(arith.RemUIOp(rest, c).result)
        rest = arith.DivUIOp(rest, c).result
    return list(reversed(out))


def _split_static(at: Sequence[ir.Value | int]) -> tuple[list[ir.Value], list[int]]:
    dynamic = [x for x in at if isinstance(x, ir.Value)]
    static = [ir.ShapedType.get_dynamic_stride_or_offset() if isinstance(x, ir.Value) else x for x in at]
    return dynamic, static


def device_table(values: Sequence[int], index: ir.Value, made: dict[tuple, ir.Value]) -> int | ir.Value:
    """`values[index]` at the insertion point: a constant when all agree,
    else a read of a constant table (static pieces of different sizes),
    made once per table and index in `made`."""
    if len(set(values)) == 1:
        return values[0]
    key = (tuple(values), index)
    found = made.get(key)
    if found is None:
        found = made[key] = _table(values, index)
    return found


__all__ = ["device_table", "exchanged", "permuted", "recut"]
