"""mesh-partition's rewrites of mhlo/stablehlo ops whose attributes or
values depend on the piece a device holds.

Partition gives every op with a rule its local types; most hlo ops then
compute the right piece as they are (elementwise ops, `dot_general`,
`broadcast_in_dim`, `transpose`, `reshape`, `concatenate`, `pad`, a
`reduce` left partial). These do not:

- `iota` split along its `iota_dimension` counts from 0 on every device:
  each device's offset into the whole tensor is added to it (in i64 before
  one conversion, for a float iota its type cannot count exactly).
- `slice` and `dynamic_slice` spell out the sizes they take: a dimension
  taken whole gets the piece's size (one a slice takes every t-th element
  of is read through a window: `halo.localize` sets its start and limit).
- A `reduce` split along a summed (or multiplied) dimension folds its init
  in on every device: it is kept on each group's first device and becomes
  the neutral value elsewhere, as partition does for linalg inits.

Pieces of different sizes (uneven or dynamic) cannot be written in these
ops' static attributes and types, so they are refused with a diagnostic
(a `slice` of stride 1 and a `pad` without interior padding become their
`tensor` twins instead, `crop.localize`, and a `dynamic_slice` taking such
a dimension whole a `tensor.extract_slice`; a `dynamic_update_slice`
writing its update's pieces runs as it is).
Elementwise ops, `transpose`, `dot_general`, `reduce`, `concatenate`
(along the dimensions it does not join) and a `broadcast_in_dim` along its
operand's dimensions run on them: their local
types are dynamic along the cut, and an operand gives each size.
`_Partition.rewrite` calls `localize` once an op has its local types.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
from mlir import ir
from mlir.dialects import arith, tensor

from ...interfaces.registry import hlo_scan, is_selection, shape_groups
from ...ir import linalg_ops
from ...ir import ops as mesh_ops
from ...ir.hlo import (
    GatherDimensions,
    conv_dimensions,
    gather_dimensions,
    hlo_ints,
    ints_like,
    ints_of,
    scatter_dimensions,
)
from ...ir.types import integer_value, sum_zero_attr
from ...ir.uniform import readable_attr
from ...sharding.spec import IDEMPOTENT_KINDS, Sharding
from .halo import sizes_of

if TYPE_CHECKING:
    from .mesh_partition import _Partition

_CONSTANTS = frozenset(("stablehlo.constant", "mhlo.constant", "arith.constant"))


def localize(part: _Partition, op: ir.Operation, name: str) -> None:
    """Rewrite `op` (an mhlo/stablehlo op whose results already have their
    local types) so that it computes this device's piece."""
    fn = _LOCALIZE.get(name.partition(".")[2])
    if fn is not None:
        fn(part, op)


def zero_attr(op: ir.Operation, element: ir.Type) -> ir.Attribute:
    """The zero the devices not holding a masked read's element yield
    (`sum_zero_attr`), refused in a format without one."""
    zero = sum_zero_attr(element)
    if zero is None:
        raise _unsupported(op, f"cannot mask a read of {element}: the format has no zero for the other devices")
    return zero


def _unsupported(op: ir.Operation, why: str) -> Exception:
    from .mesh_partition import _Unsupported

    return _Unsupported(op.location, f"'{op.name}' {why}")


def _static_local(part: _Partition, op: ir.Operation) -> ir.RankedTensorType | None:
    """The local result type when partition changed it, refusing one whose
    pieces differ between devices; None when the result is not split."""
    r = op.results[0]
    if r not in part.global_type:
        return None
    local = ir.RankedTensorType(r.type)
    if not local.has_static_shape:
        raise _unsupported(op, f"of pieces of different or dynamic sizes is not supported yet (local type {local})")
    return local


def _resized(part: _Partition, op: ir.Operation, attr_name: str) -> None:
    """Sizes (or limits) of the dimensions whose local size differs from the
    global one become the local size: the rules split only dimensions a
    slice takes whole, from 0."""
    local = _static_local(part, op)
    if local is None:
        return
    whole = ir.RankedTensorType(part.global_type[op.results[0]])
    attr = op.attributes[attr_name]
    values = ints_of(attr)
    for d, (n, g) in enumerate(zip(local.shape, whole.shape)):
        if n != g:
            values[d] = n
    op.attributes[attr_name] = ints_like(attr, values)


def _slice(part: _Partition, op: ir.Operation) -> None:
    _resized(part, op, "limit_indices")
    starts = ints_of(op.attributes["start_indices"])
    taken = _held_element(part, op, lambda d, ix: starts[d])
    if taken:
        # the piece of one element `_held_element` cut is taken from its start
        limits, strides = ints_of(op.attributes["limit_indices"]), op.attributes.get("strides")
        for d in taken:
            starts[d], limits[d] = 0, 1
        op.attributes["start_indices"] = ints_like(op.attributes["start_indices"], starts)
        op.attributes["limit_indices"] = ints_like(op.attributes["limit_indices"], limits)
        if strides is not None:
            op.attributes["strides"] = ints_like(
                strides, [1 if d in taken else t for d, t in enumerate(ints_of(strides))]
            )


def _dynamic_slice(part: _Partition, op: ir.Operation) -> None:
    """Resize the dimensions taken whole; read a single element of a split
    dimension where it is held (its start, clamped to the dimension, is
    read once; the window's start into the piece of one element is then
    clamped to 0, whatever it says).  A dimension taken whole cut into
    pieces of different sizes has no size `slice_sizes` can say: the op
    becomes a `tensor.extract_slice` of the piece (`_sliced_by_tensor`)."""
    x = op.operands[0]
    whole = ir.RankedTensorType(part.global_type.get(x, x.type))
    r = op.results[0]
    uneven = r in part.global_type and not ir.RankedTensorType(r.type).has_static_shape
    if not uneven:
        _resized(part, op, "slice_sizes")

    def position(d: int, ix) -> ir.Value:
        return _clamped_start(ix, op.operands[1 + d], whole.shape[d] - 1)

    taken = _held_element(part, op, position)
    if uneven:
        _sliced_by_tensor(part, op, whole, taken)


def _sliced_by_tensor(part: _Partition, op: ir.Operation, whole: ir.RankedTensorType, taken: list[int]) -> None:
    """A dynamic_slice whose result piece is of dynamic size (a dimension it
    takes whole cut unevenly) as a `tensor.extract_slice` of its operand
    (`whole`: the operand's whole type): from 0 with the piece's size along
    each dimension taken whole, from 0 along the `taken` ones (the operand is
    already the held element there), and elsewhere (never split) from the
    start clamped as the op clamps it, of the window's static size (the
    solver cuts such pieces only for signless starts, which index
    arithmetic reads: `graph.window_read_loops`)."""
    from .mesh_partition import _Ix

    x = op.operands[0]
    ix = _Ix(part, ir.InsertionPoint(op), op.location)
    sizes = ix.sizes_of(x)
    windows = ints_of(op.attributes["slice_sizes"])
    offsets: list[int | ir.Value] = [0] * whole.rank
    for d in range(whole.rank):
        if d not in taken and (whole.is_dynamic_dim(d) or windows[d] != whole.shape[d]):
            # (never split: the piece's size, read at run time if dynamic, is the whole's)
            offsets[d] = _clamped_start(ix, op.operands[1 + d], ix.sub(sizes[d], windows[d]))
            sizes[d] = windows[d]
    piece = ix.slice(x, offsets, sizes)
    r = op.results[0]
    if piece == x:  # (the whole piece: nothing to cut)
        r.replace_all_uses_with(x)
        part.forget(r)
        op.erase()
        return
    part.replaced(op, piece.owner.operation)


def _held_element(part: _Partition, op: ir.Operation, position) -> list[int]:
    """A slice taking one element of operand dimensions split over the
    devices (the rule's sum loops): each device cuts that element from its
    piece where it holds it (`position(d, ix)`: the element's index in the
    whole dimension, an int or an index value) and gives 0 elsewhere (-0.0
    for floats, so that x + -0.0 is x even for x = -0.0), so that the sum
    over the devices is the slice.  The slice then reads the piece of one
    element; returns the dimensions so cut."""
    x = op.operands[0]
    if part.layout.get(x) is None or x not in part.global_type:
        return []
    whole = ir.RankedTensorType(part.global_type[x])
    # the whole result: a piece of a dimension taken whole may be 1 wide too
    result = ir.RankedTensorType(part.global_type.get(op.results[0], op.results[0].type))
    ones = [d for d in range(whole.rank) if result.shape[d] == 1 and whole.shape[d] > 1]
    found, ix = split_positions(part, op, ones)
    if not found:
        return []
    local = ir.RankedTensorType(op.results[0].type)
    offsets: list[int | ir.Value] = [0] * whole.rank
    sizes = ix.sizes_of(x)
    # (a result dimension of dynamic size is one taken whole: the piece's)
    zero_sizes = [sizes[d] if local.is_dynamic_dim(d) else local.shape[d] for d in range(local.rank)]
    mine = None
    for d, first, held in found:
        here, offsets[d] = held_at(ix, ix.sub(position(d, ix), first), held)
        with ix.ip, ix.loc:
            mine = here if mine is None else arith.AndIOp(mine, here).result
        sizes[d] = 1
    op.operands[0] = ix.slice(x, offsets, sizes)
    r = op.results[0]
    zero = zero_attr(op, local.element_type)
    if not local.has_static_shape:
        with ix.ip, ix.loc:
            scalar = arith.ConstantOp(local.element_type, zero).result
            zeros = linalg_ops.fill(scalar, ix.empty(zero_sizes, local.element_type))
    with ir.InsertionPoint.after(op), op.location:
        if local.has_static_shape:
            zeros = arith.ConstantOp(local, ir.DenseElementsAttr.get_splat(local, zero)).result
        select = arith.SelectOp(mine, r, zeros)
    _hand_on(part, r, select.operation)
    return [d for d, _, _ in found]


def _hand_on(part: _Partition, r: ir.Value, select: ir.Operation) -> None:
    """`select`, made after the op of `r` and reading it, takes the other
    uses of `r`, its layout and its global type."""
    r.replace_all_uses_except(select.result, select)
    for table in (part.layout, part.global_type):
        if r in table:
            table[select.result] = table[r]


def split_positions(part: _Partition, op: ir.Operation, dims: list[int], empty_ok: bool = False, sizes: bool = True):
    """For the dimensions of `dims` the op's operand 0 is split along (the
    rule splits only ones of static size): (dimension, the device's first
    index, its piece's size: None without `sizes`, so that a caller reading
    none makes no `tensor.dim` of an uneven piece) and the `_Ix` that made
    them.  A piece that may be empty (`may_be_empty`) is refused unless
    `empty_ok`."""
    from .mesh_partition import _Ix

    x = op.operands[0]
    layout = part.layout.get(x)
    if layout is None or x not in part.global_type:
        return [], None
    whole = ir.RankedTensorType(part.global_type[x])
    ix = _Ix(part, ir.InsertionPoint(op), op.location)
    found = []
    for d in dims:
        if not layout.axes_of(d) or whole.is_dynamic_dim(d):
            continue
        n = whole.shape[d]
        if not empty_ok and may_be_empty(part, ix, layout, d, n):
            # a piece of no element has none to read or write
            raise _unsupported(op, f"split along dimension {d} needs pieces that are not empty (a static mesh)")
        found.append((d, ix.start(layout, d, n, ix.group_index(layout.axes_of(d))), ix.dim(x, d) if sizes else None))
    return found, ix


def may_be_empty(part: _Partition, ix, layout: Sharding, d: int, n: int) -> bool:
    """Whether some device's piece of dimension `d` (of `n` elements) under
    `layout` may hold no element: a cut by offsets that says so, or a mesh
    axis whose size is known at run time only."""
    # (listed once: `ix.start` reads the same `_Partition.pieces`)
    static = isinstance(ix.count(layout.axes_of(d)), int)
    return not static or any(size <= 0 for size in part.pieces(layout, d, n).sizes)


def _clamped_start(ix, start: ir.Value, last: int) -> ir.Value:
    """A dynamic_slice's (or dynamic_update_slice's) rank-0 signless start
    as an index clamped to [0, last], as the op clamps it."""
    with ix.ip, ix.loc:
        at = arith.IndexCastOp(ir.IndexType.get(), tensor.ExtractOp(start, []).result).result
        return arith.MinSIOp(arith.MaxSIOp(at, ix.value(0)).result, ix.value(last)).result


def held_at(ix, at, held) -> tuple[ir.Value, int | ir.Value]:
    """(whether `at` falls in [0, held), `at` clamped into it)."""
    with ix.ip, ix.loc:
        at_value = ix.value(at)
        low = arith.CmpIOp(arith.CmpIPredicate.sge, at_value, ix.value(0)).result
        high = arith.CmpIOp(arith.CmpIPredicate.slt, at_value, ix.value(held)).result
        here = arith.AndIOp(low, high).result
        last = ix.sub(held, 1)
        if isinstance(last, int) and last == 0:
            return here, 0
        return here, arith.MaxSIOp(arith.MinSIOp(at_value, ix.value(last)).result, ix.value(0)).result


def _dynamic_update_slice(part: _Partition, op: ir.Operation) -> None:
    """A write of one position of dimensions the operand is split along
    (the rule's loops the update does not follow): the global start is
    clamped first (so that the update fits the whole dimension), then moved
    into this device's piece.  A device whose piece does not hold it writes
    back what its piece holds there (read by a dynamic_slice at the same
    starts, which clamps them alike), so the write changes nothing."""
    x, update = op.operands[0], op.operands[1]
    if x not in part.global_type:
        return
    whole = ir.RankedTensorType(part.global_type[x])
    local = ir.RankedTensorType(update.type)
    given = ir.RankedTensorType(part.global_type.get(update, update.type))
    ones = [d for d in range(whole.rank) if given.shape[d] == 1 and whole.shape[d] > 1]
    found, ix = split_positions(part, op, ones)
    if not found:
        return
    mine = None
    starts = list(op.operands)[2:]
    for d, first, held in found:
        here, take = held_at(ix, ix.sub(_clamped_start(ix, starts[d], whole.shape[d] - 1), first), held)
        with ix.ip, ix.loc:
            mine = here if mine is None else arith.AndIOp(mine, here).result
            element = ir.RankedTensorType(starts[d].type).element_type
            scalar = arith.IndexCastOp(element, ix.value(take)).result
            starts[d] = tensor.FromElementsOp(starts[d].type, [scalar]).result
    for d, _, _ in found:
        op.operands[2 + d] = starts[d]
    if not local.has_static_shape:
        # the update is cut unevenly along a dimension it fills whole: no
        # static window reads back what it covers, so every device writes,
        # and one whose piece does not hold the position keeps its piece
        r = op.results[0]
        with ir.InsertionPoint.after(op), op.location:
            kept = arith.SelectOp(mine, r, x)
        _hand_on(part, r, kept.operation)
        return
    dialect = op.name.partition(".")[0]
    sizes_attr = hlo_ints(dialect, list(local.shape))
    with ix.ip, ix.loc:
        old = ir.Operation.create(
            f"{dialect}.dynamic_slice", results=[local], operands=[x, *starts], attributes={"slice_sizes": sizes_attr}
        ).result
        written = arith.SelectOp(mine, update, old).result
    op.operands[1] = written


def _scatter(part: _Partition, op: ir.Operation) -> None:
    """A scatter split along input dimensions a window covers one position
    of at an index (the rule's `cache.at[:, pos].set(new)`): the indices
    move by this device's first index along each (in i64, past any overflow
    of their own type), so that a window lands in its piece exactly when it
    lands there in the whole input; the others fall outside the piece and
    are dropped whole, as a window past either end is."""
    dims = scatter_dimensions(str(op.attributes["scatter_dimension_numbers"]))
    n = len(op.results)
    if dims is None:
        return
    moved = list(dims.scatter_dims_to_operand_dims)
    # (a dimension the window covers whole is written at the index as given:
    # 0 fits each piece as it fits the whole, any other drops the window)
    whole = [part.global_type.get(v, v.type) for v in (op.operands[0], op.operands[n + 1])]  # (whole: its own)
    covered: set[int] = set()
    if all(isinstance(t, ir.RankedTensorType) for t in whole):
        shape, update_shape = ([None if ir.ShapedType.is_dynamic_size(k) else k for k in t.shape] for t in whole)
        covered = set(dims.covered(shape, update_shape).values())
    shifted = [k for k in moved if k not in dims.input_batching_dims and k not in covered]
    found, ix = split_positions(part, op, shifted, sizes=False)
    if not found:
        return
    indices = op.operands[n]
    given = ir.RankedTensorType(indices.type)
    if not given.has_static_shape:
        raise _unsupported(op, f"of indices of dynamic sizes is not supported yet ({given})")
    ivd = dims.index_vector_dim
    with ix.ip, ix.loc:
        i64 = ir.IntegerType.get_signless(64)
        wide = ir.RankedTensorType.get(given.shape, i64, given.encoding)
        if given.element_type.width < 64:
            indices = arith.ExtSIOp(wide, indices).result
        shifts = [arith.IndexCastOp(i64, ix.value(first)).result for _, first, _ in found]
        if len(moved) == 1:
            shift = tensor.SplatOp(wide, shifts[0], []).result
        else:  # one shift per component of the index vector, 0 for the dimensions not split
            zero = arith.ConstantOp(i64, 0).result
            by_dim = {d: v for (d, _, _), v in zip(found, shifts)}
            vector = tensor.FromElementsOp(
                ir.RankedTensorType.get([len(moved)], i64), [by_dim.get(k, zero) for k in moved]
            ).result
            empty = tensor.EmptyOp(given.shape, i64).result
            shift = linalg_ops.broadcast(vector, empty, [q for q in range(given.rank) if q != ivd])
        op.operands[n] = arith.SubIOp(indices, shift).result


def _iota(part: _Partition, op: ir.Operation) -> None:
    """Add this device's offset along the iota dimension, if it is split.

    A float iota too long for its type to hold every index exactly counts in
    i64 and converts once (`sitofp`), so that each element is rounded once,
    as the whole iota rounds it: the local float iota plus a float offset
    would round twice.  A shorter one adds the offset in its type, exactly."""
    from .mesh_partition import _Ix

    local = _static_local(part, op)
    r = op.results[0]
    s = part.layout.get(r)
    d = ir.IntegerAttr(op.attributes["iota_dimension"]).value
    if local is None or s is None or not s.axes_of(d):
        return
    whole = ir.RankedTensorType(part.global_type[r])
    ix = _Ix(part, ir.InsertionPoint(op), op.location)
    offset = ix.start(s, d, whole.shape[d], ix.group_index(s.axes_of(d)))
    if offset == 0:
        return
    element = local.element_type
    if isinstance(element, ir.IntegerType) and element.width == 1:
        # StableHLO has no boolean iota; adding the offset in i1 would wrap.
        raise _unsupported(op, "split along its dimension needs an element type that holds its indices, not i1")
    uses = [(u.owner, u.operand_number) for u in r.uses]
    counted = isinstance(element, ir.FloatType) and whole.shape[d] > _EXACT_INTEGERS.get(str(element), 0)
    with ir.InsertionPoint.after(op), op.location:
        index = ix.value(offset)
        if counted:
            i64 = ir.IntegerType.get_signless(64)
            r.set_type(ir.RankedTensorType.get(local.shape, i64, local.encoding))
            part.global_type[r] = ir.RankedTensorType.get(whole.shape, i64, whole.encoding)
            shift = tensor.SplatOp(r.type, arith.IndexCastOp(i64, index).result, []).result
            shifted = arith.SIToFPOp(local, arith.AddIOp(r, shift).result).result
        elif isinstance(element, ir.IntegerType) and not element.is_signless:
            # arith has no ops on signed or unsigned integers (jax.random's
            # ui32 counters): the offset is converted and added in hlo
            dialect = op.name.partition(".")[0]
            signless = ir.IntegerType.get_signless(element.width)
            splat = tensor.SplatOp(
                ir.RankedTensorType.get(local.shape, signless, local.encoding),
                arith.IndexCastOp(signless, index).result,
                [],
            ).result
            shift = ir.Operation.create(f"{dialect}.convert", results=[local], operands=[splat]).result
            shifted = ir.Operation.create(f"{dialect}.add", results=[local], operands=[r, shift]).result
        else:
            if isinstance(element, ir.IndexType):
                scalar = index
            elif isinstance(element, ir.IntegerType):
                scalar = arith.IndexCastOp(element, index).result
            else:
                wide = arith.IndexCastOp(ir.IntegerType.get_signless(64), index).result
                scalar = arith.SIToFPOp(element, wide).result
            shift = tensor.SplatOp(local, scalar, []).result
            add = arith.AddFOp if isinstance(element, ir.FloatType) else arith.AddIOp
            shifted = add(r, shift).result
    for owner, i in uses:
        owner.operands[i] = shifted
    part.layout[shifted] = s
    part.global_type[shifted] = whole


_EXACT_INTEGERS = {"f16": 2**11, "bf16": 2**8, "tf32": 2**11, "f32": 2**24, "f64": 2**53}
"""Float types whose every integer up to this bound is exact: an iota no
longer than that adds its offset in the float type without rounding."""


def _neutral_init(init: ir.Value, neutral) -> bool:
    """Whether `init` is a constant holding the reduction's neutral value."""
    owner = init.owner
    if not isinstance(owner, ir.Operation | ir.OpView) or owner.name not in _CONSTANTS:
        return False
    attr = readable_attr(owner, "value")
    if not isinstance(attr, ir.DenseElementsAttr) or not attr.is_splat:
        return False
    value = attr.get_splat_value()
    if isinstance(value, ir.IntegerAttr):
        return integer_value(value) == neutral
    return isinstance(value, ir.FloatAttr) and value.value == neutral


def _reduce(part: _Partition, op: ir.Operation) -> None:
    """Keep a split sum's (or product's) inits on the group's first device;
    finish a split argmax (`_select`)."""
    from .mesh_partition import _WHOLE, _neutral

    out = part.layout.get(op.results[0])
    if out is None or not out.partial_axes:
        _select(part, op)
        return
    if out.partial_type in IDEMPOTENT_KINDS:
        return
    n = len(op.results)
    for k in range(n):
        i = n + k
        init = op.operands[i]
        element = ir.RankedTensorType(init.type).element_type
        neutral = _neutral(out.partial_type, element)
        if neutral is None:
            why = f"a split {out.partial_type} reduction of {element} elements has no neutral value partition can make"
            raise _unsupported(op, why)
        if _neutral_init(init, neutral):
            continue
        kept = part.first_only(init, list(out.partial_axes), neutral, ir.InsertionPoint(op), op.location)
        op.operands[i] = kept
        part.layout[kept] = part.layout.get(init, _WHOLE)
        part.global_type[kept] = part.global_type.get(init, init.type)


def _select(part: _Partition, op: ir.Operation) -> None:
    """A reduce split along its reduced dimension whose results are not
    partial: an argmax (a `select` loop, `interfaces.rules`).  Each device
    has picked from its piece; its picks are reshaped to a new last
    dimension of size 1, gathered along it over the dimension's mesh axes
    (in the pieces' order), and picked from again by a copy of the reduce,
    whose results every device then holds whole along those axes."""
    s = part.layout.get(op.operands[0])
    dims = ints_of(op.attributes["dimensions"]) if "dimensions" in op.attributes else []
    axes = [a for d in dims for a in (s.axes_of(d) if s is not None else ())]
    if not axes:
        return
    if len(dims) != 1 or len(op.results) != 2 or not is_selection(op):
        raise _unsupported(op, f"split along reduced dimensions {dims} has no partial form to leave its results in")
    assert part.mesh is not None and part.mesh_name is not None
    k = math.prod(part.mesh.shape[a] for a in axes)
    dialect = op.name.partition(".")[0]
    picks = list(op.results)
    users = [[(use.owner, use.operand_number) for use in r.uses] for r in picks]
    gathered = []
    with op.location:
        ip = ir.InsertionPoint.after(op)
        for r in picks:
            t = ir.RankedTensorType(r.type)
            if not t.has_static_shape:
                raise _unsupported(op, f"of pieces of dynamic sizes is not supported yet (local type {t})")
            column = ir.RankedTensorType.get([*t.shape, 1], t.element_type)
            reshaped = ir.Operation.create(f"{dialect}.reshape", results=[column], operands=[r], ip=ip).result
            wide = ir.RankedTensorType.get([*t.shape, k], t.element_type)
            gathered.append(mesh_ops.AllGatherOp(wide, reshaped, part.mesh_name, t.rank, mesh_axes=axes, ip=ip).result)
        again = op.clone(ip=ip)
        for j, g in enumerate(gathered):
            again.operands[j] = g
        last = ir.RankedTensorType(picks[0].type).rank  # the picks' new dimension
        again.attributes["dimensions"] = ints_like(op.attributes["dimensions"], [last])
    for r, fresh, uses in zip(picks, again.results, users):
        for owner, i in uses:
            owner.operands[i] = fresh
        if r in part.layout:
            part.layout[fresh] = part.layout[r]
        if r in part.global_type:
            part.global_type[fresh] = part.global_type[r]


def _scan(part: _Partition, op: ir.Operation) -> None:
    """A `reduce_window` scanning a split dimension (`registry.hlo_scan`,
    `jnp.cumsum`): each device has scanned its own piece.  Every device's
    last row (a suffix scan: its first) is its piece's total; one
    all_gather brings the group's totals in the pieces' order, the totals
    of the pieces before this device's (after it) are sliced out and
    combined (none: the init, the combiner's identity), and that row is
    combined into every row of the piece.  Its other dimensions may be
    cut into pieces of any sizes."""
    from .mesh_partition import _Ix

    r = op.results[0]
    x = op.operands[0]
    found = hlo_scan(op, (part.global_type.get(x, x.type), part.global_type.get(r, r.type)))
    s = part.layout.get(r)
    if found is None or s is None or not s.axes_of(found[0]):
        return
    d, _, reverse = found
    axes = list(s.axes_of(d))
    assert part.mesh is not None and part.mesh_name is not None
    if any(part.mesh.shape[a] < 1 for a in axes):
        raise _unsupported(op, f"scanning along mesh axes {axes} of dynamic size is not supported")
    k = math.prod(part.mesh.shape[a] for a in axes)
    if k == 1:
        return  # (one piece along the scan: it is the whole scan)
    local = ir.RankedTensorType(r.type)
    if local.is_dynamic_dim(d):
        raise _unsupported(op, f"scanning pieces of different sizes is not supported yet (local type {local})")
    dialect, element = op.name.partition(".")[0], local.element_type
    body = list(op.regions[0].blocks[0].operations)
    combiner = body[-1].operands[0].owner.name  # (`hlo_scan` checked the body is one combiner)
    users = [(use.owner, use.operand_number) for use in r.uses]
    loc, ip = op.location, ir.InsertionPoint.after(op)
    ix = _Ix(part, ip, loc)
    m = local.shape[d]
    sizes = ix.sizes_of(r)
    row = [1 if e == d else n for e, n in enumerate(sizes)]
    wide = ir.RankedTensorType.get([k if e == d else n for e, n in enumerate(local.shape)], element)
    total_type = ir.RankedTensorType.get([n for e, n in enumerate(local.shape) if e != d], element)
    me = ix.group_index(axes)
    with loc, ip:
        last = ix.slice(r, [0 if reverse or e != d else m - 1 for e in range(local.rank)], row)
        totals = mesh_ops.AllGatherOp(wide, last, part.mesh_name, d, mesh_axes=axes, ip=ip).result
        start, count = (ix.add(me, 1), ix.sub(k - 1, me)) if reverse else (0, me)
        counted = ix.slice(
            totals,
            [start if e == d else 0 for e in range(local.rank)],
            [count if e == d else n for e, n in enumerate(sizes)],
        )
        reduce = ir.Operation.create(
            f"{dialect}.reduce",
            results=[total_type],
            operands=[counted, op.operands[1]],
            attributes={"dimensions": _i64s(op.attributes["window_dimensions"], [d])},
            regions=1,
        )
        copy = op.clone(ip=ip)
        copy.regions[0].blocks[0].append_to(reduce.regions[0])
        copy.erase()
        dims = _i64s(op.attributes["window_dimensions"], [e for e in range(local.rank) if e != d])
        spread = ir.Operation.create(
            f"{dialect}.broadcast_in_dim",
            results=[local],
            operands=[reduce.result],
            attributes={"broadcast_dimensions": dims},
        ).result
        done = ir.Operation.create(combiner, results=[local], operands=[r, spread]).result
    for owner, i in users:
        owner.operands[i] = done
    part.layout[done] = s
    part.global_type[done] = part.global_type[r]


def _i64s(like: ir.Attribute, values: list[int]) -> ir.Attribute:
    """`values` (any number of them) spelled as the integer list `like` is:
    stablehlo's `array<i64: ...>` or mhlo's `dense<...> : tensor<Nxi64>`."""
    if isinstance(like, ir.DenseI64ArrayAttr | ir.DenseI32ArrayAttr):
        return ir.DenseI64ArrayAttr.get(values)
    t = ir.RankedTensorType.get([len(values)], ir.IntegerType.get_signless(64))
    return ir.DenseElementsAttr.get(np.array(values, dtype=np.int64), type=t)


def _sized_by_type(part: _Partition, op: ir.Operation) -> None:
    """An op whose result size only its type gives (a reshape, a
    broadcast_in_dim): a local type of dynamic size says nothing, so pieces
    of different sizes are refused (hlo spells those as other ops)."""
    _static_local(part, op)


def _reshape(part: _Partition, op: ir.Operation) -> None:
    """A reshape of pieces of different sizes (a dimension cut unevenly,
    which the rule splits only where its group has no other dimension but
    units) cannot write its result size: it becomes `tensor.collapse_shape`
    and `tensor.expand_shape` of the runs of dimensions it merges and
    splits, each piece's size read from the operand's."""
    r = op.results[0]
    if r not in part.global_type or ir.RankedTensorType(r.type).has_static_shape:
        return
    x = op.operands[0]
    given, local = ir.RankedTensorType(x.type), ir.RankedTensorType(r.type)
    whole_x = ir.RankedTensorType(part.global_type.get(x, x.type)).shape
    groups = shape_groups(tuple(whole_x), tuple(ir.RankedTensorType(part.global_type[r]).shape))
    if groups is None:
        _static_local(part, op)
        return
    for ins, outs in groups:
        for t, dims in ((given, ins), (local, outs)):
            open_dims = [d for d in dims if t.is_dynamic_dim(d)]
            if open_dims and any(t.shape[d] != 1 for d in dims if d not in open_dims):
                _static_local(part, op)  # (a piece of dynamic size merged with another dimension)
    dyn = ir.ShapedType.get_dynamic_size()
    with ir.InsertionPoint(op), op.location:
        value = x
        if any(len(ins) > 1 for ins, _ in groups):
            runs = [
                dyn if any(given.is_dynamic_dim(d) for d in ins) else math.prod(given.shape[d] for d in ins)
                for ins, _ in groups
            ]
            run_type = ir.RankedTensorType.get(runs, local.element_type)
            value = tensor.CollapseShapeOp(run_type, value, ir.Attribute.parse(str([ins for ins, _ in groups]))).result
        if any(len(outs) > 1 for _, outs in groups) or value.type != local:
            sizes: list = []
            for k, (_, outs) in enumerate(groups):
                for d in outs:
                    if local.is_dynamic_dim(d):
                        index = arith.ConstantOp(ir.IndexType.get(), k).result
                        sizes.append(tensor.DimOp(value, index).result)
                    else:
                        sizes.append(local.shape[d])
            value = tensor.ExpandShapeOp(
                local,
                value,
                ir.Attribute.parse(str([outs for _, outs in groups])),
                [v for v in sizes if not isinstance(v, int)],
                [v if isinstance(v, int) else dyn for v in sizes],
            ).result
    if value == x:  # (the same type: nothing to do but read the operand)
        r.replace_all_uses_with(x)
        part.forget(r)
        op.erase()
        return
    part.replaced(op, value.owner.operation)


def _broadcast_in_dim(part: _Partition, op: ir.Operation) -> None:
    """A broadcast's result piece of dynamic size along a dimension its
    operand's piece gives (the same size, cut alike) is that piece's size;
    along any other (a new dimension, a stretched one of size 1) its type
    cannot say the size, and it is refused (`_sized_by_type`)."""
    r = op.results[0]
    if r not in part.global_type:
        return
    local = ir.RankedTensorType(r.type)
    if local.has_static_shape:
        return
    x = op.operands[0]
    given = ir.RankedTensorType(x.type)
    whole_x = ir.RankedTensorType(part.global_type.get(x, x.type))
    whole = ir.RankedTensorType(part.global_type[r])
    fed = {
        d
        for i, d in enumerate(ints_of(op.attributes["broadcast_dimensions"]))
        if given.is_dynamic_dim(i) and whole_x.shape[i] == whole.shape[d]
    }
    if any(local.is_dynamic_dim(d) and d not in fed for d in range(local.rank)):
        _static_local(part, op)


def _gather(part: _Partition, op: ir.Operation) -> None:
    """A gather runs on its pieces once each slice size that took a whole
    operand dimension takes that dimension's local piece (the rule splits
    only such offset dimensions); pieces of different sizes cannot be
    written in `slice_sizes`, but along the rows the ids pick one at a time
    (the rule's sum loop), which each device holds as many of as it may,
    and along the batch (slices of one row at the ids' own batch
    position), whose sizes the ids' piece gives."""
    dims = gather_dimensions(str(op.attributes["dimension_numbers"]))
    result = op.results[0]
    if result in part.global_type and dims is not None:
        local = ir.RankedTensorType(result.type)
        if any(local.is_dynamic_dim(p) for p in dims.offset_dims):
            raise _unsupported(op, f"of pieces of different or dynamic sizes is not supported yet (local type {local})")
    else:
        _static_local(part, op)
    operand = ir.RankedTensorType(op.operands[0].type)
    attr = op.attributes["slice_sizes"]
    sizes = ints_of(attr)
    layout = part.layout.get(op.operands[0])
    # the dimensions split along the rows the ids pick (the rule's sum loops)
    rows = [k for k in dims.start_index_map if layout.axes_of(k)] if dims is not None and layout is not None else []
    batching = dims.operand_batching_dims if dims is not None else ()
    whole = part.global_type.get(op.operands[0])
    changed = False
    for d, (n, k) in enumerate(zip(operand.shape, sizes)):
        if operand.is_dynamic_dim(d):
            if d in batching and k == 1 and layout is not None and whole is not None and part.mesh is not None:
                count = ir.RankedTensorType(whole).shape[d]
                if any(b <= a for a, b in layout.bounds(d, count, part.mesh)):  # (a slice of one row fits in none)
                    cut = list(layout.cut(d, count, part.mesh))
                    raise _unsupported(op, f"on batch pieces of no rows is not supported (rows cut at {cut})")
            if (d in rows or d in batching) and k == 1:
                continue
            raise _unsupported(op, f"on operand pieces of different or dynamic sizes is not supported yet ({operand})")
        if k > n:  # a whole dimension, now a piece
            sizes[d] = n
            changed = True
    if changed:
        op.attributes["slice_sizes"] = ints_like(attr, sizes)
    if dims is not None and layout is not None and rows:
        _gather_held_rows(part, op, dims, rows, layout)


def _gather_held_rows(part: _Partition, op: ir.Operation, dims: GatherDimensions, rows: list[int], layout) -> None:
    """A gather from rows split over the devices (the rule's sum loops): each
    device looks up the ids whose (clamped) element it holds, at its local
    position, and gives 0 for the others (-0.0 for floats: x + -0.0 is x),
    so that the sum over the devices is the gather.  With several picked
    dimensions (`t[r, c]`), each is one component of the index vector,
    shifted on its own, and a device holds an element when it holds its
    position along every split one.  A piece that may hold no rows along
    a picked dimension gets one row of zeros after its own (a slice of one
    row does not fit in none), which no device reads unmasked."""
    from .mesh_partition import _Ix

    whole = ir.RankedTensorType(part.global_type[op.operands[0]])
    ids = op.operands[1]
    given = ir.RankedTensorType(ids.type)
    if not isinstance(given.element_type, ir.IntegerType) or not given.element_type.is_signless:
        raise _unsupported(op, f"split along the rows it picks needs signless integer ids, not {given.element_type}")
    result = op.results[0]
    local = ir.RankedTensorType(result.type)
    ip, loc = ir.InsertionPoint(op), op.location
    ix = _Ix(part, ip, loc)
    grown = [row for row in rows if may_be_empty(part, ix, layout, row, whole.shape[row])]
    if grown:
        table = op.operands[0]
        element = ir.RankedTensorType(table.type).element_type
        held_sizes = ix.sizes_of(table)
        sizes = list(held_sizes)
        for row in grown:
            sizes[row] = ix.add(sizes[row], 1)
        with ip, loc:
            zero = arith.ConstantOp(element, zero_attr(op, element)).result
            zeros = linalg_ops.fill(zero, ix.empty(sizes, element))
        op.operands[0] = ix.insert(table, zeros, [0] * whole.rank, held_sizes)
    ivd = dims.index_vector_dim
    with ip, loc:
        # in i64, whatever the ids' width: a row count or a device's first
        # row need not fit an i8 id (StableHLO clamps in the ids' own values)
        element = ir.IntegerType.get_signless(64)
        ids_type = ir.RankedTensorType.get(given.shape, element, given.encoding)
        if given.element_type.width < 64:
            ids = arith.ExtSIOp(ids_type, ids).result
        # one component of the index vector: all of the ids when there is one
        # (a batch cut unevenly: the ids' sizes, read from them)
        sliced = len(dims.start_index_map) > 1
        shape = sizes_of(ids, given)
        if sliced:
            shape[ivd] = 1
        component = ir.RankedTensorType.get(
            [ir.ShapedType.get_dynamic_size() if isinstance(n, ir.Value) else n for n in shape],
            element,
            None if sliced else given.encoding,
        )
        id_sizes = [n for n in shape if isinstance(n, ir.Value)]

        def splat(x: ir.Value | int) -> ir.Value:
            scalar = arith.ConstantOp(element, x).result if isinstance(x, int) else x
            return tensor.SplatOp(component, scalar, id_sizes).result

        mine = None
        predicate = arith.CmpIPredicate
        for row in rows:
            index = ix.group_index(layout.axes_of(row))
            start = ix.value(ix.start(layout, row, whole.shape[row], index))
            held = ix.size(layout, row, whole.shape[row], index)  # (pieces of unequal sizes: a table)
            at = [0] * given.rank
            if sliced:
                at[ivd] = dims.start_index_map.index(row)
            picked = ix.slice(ids, at, shape) if sliced else ids
            clamped = arith.MinSIOp(arith.MaxSIOp(picked, splat(0)).result, splat(whole.shape[row] - 1)).result
            moved = arith.SubIOp(clamped, splat(arith.IndexCastOp(element, start).result)).result
            low = arith.CmpIOp(predicate.sge, moved, splat(0)).result
            high = arith.CmpIOp(
                predicate.slt, moved, splat(held if isinstance(held, int) else arith.IndexCastOp(element, held).result)
            ).result
            holds = arith.AndIOp(low, high).result
            mine = holds if mine is None else arith.AndIOp(mine, holds).result
            ids = ix.insert(moved, ids, at, shape) if sliced else moved
    op.operands[1] = ids
    with ir.InsertionPoint.after(op), loc:
        ivd = dims.index_vector_dim
        if ivd < ids_type.rank:  # the index vector (one id) goes: the mask is per batch element
            kept = [n for k, n in enumerate(ids_type.shape) if k != ivd]
            groups = [[k] for k in range(ids_type.rank) if k != ivd]
            if groups:
                groups[max(ivd - 1, 0)].append(ivd)
                groups[max(ivd - 1, 0)].sort()
            mine = tensor.CollapseShapeOp(
                ir.RankedTensorType.get(kept, mine.type.element_type), mine, ir.Attribute.parse(str(groups))
            ).result
        boolean = ir.IntegerType.get_signless(1)
        # (a batch cut unevenly: the result's sizes, read from it)
        shape = sizes_of(result, local)
        sizes = [n for n in shape if isinstance(n, ir.Value)]
        if dims.offset_dims:
            empty = tensor.EmptyOp(shape, boolean).result
            mine = linalg_ops.broadcast(mine, empty, dims.offset_dims)
        value = local.element_type
        zero = zero_attr(op, value)
        if sizes:
            scalar = arith.ConstantOp(value, zero).result
            zeros = tensor.SplatOp(local, scalar, sizes).result
        else:
            zeros = arith.ConstantOp(local, ir.DenseElementsAttr.get_splat(local, zero)).result
        select = arith.SelectOp(mine, result, zeros)
    # (the sizes read from the result read it too)
    result.replace_all_uses_except(select.result, [select.operation, *(v.owner.operation for v in sizes)])
    part.layout[select.result] = part.layout[result]
    part.global_type[select.result] = part.global_type[result]


def _convolution(part: _Partition, op: ir.Operation) -> None:
    """A grouped convolution split along its groups (the rule splits the
    features of a group of one input or one output channel, or the batch of
    one example per batch group) holds fewer groups on each device: its
    feature_group_count (batch_group_count) becomes the device's count."""
    dims = conv_dimensions(str(op.attributes["dimension_numbers"]))
    x = op.operands[0]
    if dims is None or x not in part.global_type:
        return
    local = ir.RankedTensorType(x.type)
    whole = ir.RankedTensorType(part.global_type[x]).shape
    for attr_name, d in (("feature_group_count", dims.input_feature), ("batch_group_count", dims.input_batch)):
        if attr_name not in op.attributes:
            continue
        groups = ir.IntegerAttr(op.attributes[attr_name]).value
        if groups == 1 or whole[d] % groups or local.shape[d] == whole[d]:
            continue
        per_group = whole[d] // groups
        if local.is_dynamic_dim(d):
            why = f"split over its groups into pieces of different sizes is not supported yet ({local})"
            raise _unsupported(op, why)
        if local.shape[d] % per_group:
            why = f"split within a group ({local.shape[d]} of {whole[d]} features, {per_group} a group)"
            raise _unsupported(op, why)
        op.attributes[attr_name] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), local.shape[d] // per_group)


_LOCALIZE = {
    "gather": _gather,
    "broadcast_in_dim": _broadcast_in_dim,
    "reshape": _reshape,
    "iota": _iota,
    "slice": _slice,
    "dynamic_slice": _dynamic_slice,
    "dynamic_update_slice": _dynamic_update_slice,
    "scatter": _scatter,
    "reduce": _reduce,
    "reduce_window": _scan,
    "convolution": _convolution,
}
