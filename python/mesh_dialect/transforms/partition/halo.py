"""Partition of ops that read an operand through a window: halos.

A convolution, a pooling or a stencil whose output loop i is split reads,
on each device, input rows beyond its own piece.  Propagation gives such an
operand a layout with halo sizes (`rules.Window.halo`), partition brings the
neighbours' rows in with `mesh.update_halo` (the planner's `UpdateHalo`
step, emitted by `emit_update_halo`), and `localize` then cuts out of the
halo'd local array exactly the rows the device's outputs read:

- device p of n (its position along the loop's mesh axes) computes outputs
  [p*P, (p+1)*P) and reads rows [a_p, a_p + span) with a_p = p*P*stride +
  offset; its local array holds rows [p*E/n - low, (p+1)*E/n + high), so
  the rows start at local position a_p - p*E/n + low, which depends on p
  unless the pieces align (E = stride * out): a `tensor.extract_slice` with
  an offset computed from `mesh.process_multi_index`;
- rows outside the tensor (tosa's padding) are not data, and the halo cells
  there are poison: the valid rows are extracted and inserted into a tensor
  filled with the op's padding value (the input zero point of a
  convolution, the lowest value for a max pooling), and the op's own `pad`
  on that dimension becomes 0;
- a `linalg.generic` whose map adds a constant (`d0 + d1 + 1`) reads from
  the window's first row once the constant is dropped from its map;
- an hlo `slice` taking every t-th element (a window one element wide)
  moves its own start and limit instead of being given a copy, where every
  device finds its rows at the same place (`_slice_rows`).

The op's results already have their piece types (partition retypes them), so
the local op computes exactly the device's outputs.  Plain functions of the
op, its rule and layouts: `mesh_partition` calls them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from mlir import ir
from mlir.dialects import arith, tensor

from ...interfaces.registry import padding_value
from ...interfaces.rules import ShardingRule, Window
from ...ir import linalg_ops
from ...ir import ops as mesh_ops
from ...ir.exchange import device_table
from ...ir.hlo import conv_dimensions, ints_like, ints_of
from ...ir.types import float_extreme
from ...sharding.resharding import halos_within
from ...sharding.spec import Mesh, Sharding

_TOSA_ZERO_POINT = {"tosa.conv2d": 3, "tosa.conv3d": 3, "tosa.depthwise_conv2d": 3}
"""tosa convolutions pad with their input zero point: its operand index."""
_TOSA_LOWEST = ("tosa.max_pool2d",)
"""tosa poolings whose padding never wins: padded with the lowest value."""


def emit_update_halo(step, value: ir.Value, out: ir.Type, mesh_name: str, ip, loc: ir.Location) -> ir.Value:
    """The planner's `UpdateHalo` step on one device's local array `value`:
    a `mesh.update_halo` into a fresh tensor of the local type `out`.  A
    step that drops or narrows halos moves nothing: it is a local slice of
    the core and the halos it keeps."""
    t = ir.RankedTensorType(out)
    split = [list(axes) for axes in step.split_axes] or [[]]
    with ip, loc:
        # a dimension of dynamic size is not split (halos need static
        # pieces): the same on both sides, read from the value
        sizes = sizes_of(value, t)
        if halos_within(step.destination_halos, step.source_halos):
            src = ir.RankedTensorType(value.type)
            offsets = [0] * src.rank
            sharded = [d for d, axes in enumerate(step.split_axes) if axes]
            source, destination = list(step.source_halos), list(step.destination_halos)
            for k, d in enumerate(sharded):
                low = source[2 * k] if 2 * k < len(source) else 0
                offsets[d] = low - (destination[2 * k] if 2 * k < len(destination) else 0)
            return _slice(value, t, offsets, sizes)
        dest = tensor.EmptyOp(sizes, t.element_type).result
        return mesh_ops.UpdateHaloOp(
            value,
            dest,
            mesh_name,
            split,
            source_halo_sizes=[int(h) for h in step.source_halos],
            destination_halo_sizes=[int(h) for h in step.destination_halos],
        ).result


def sizes_of(value: ir.Value, t: ir.RankedTensorType) -> list[int | ir.Value]:
    """The sizes of `t` (`value`'s type, or a type of its shape), a dynamic
    one read from `value` at the current insertion point."""
    return [
        tensor.DimOp(value, arith.ConstantOp(ir.IndexType.get(), d).result).result if t.is_dynamic_dim(d) else n
        for d, n in enumerate(t.shape)
    ]


@dataclass
class _Dim:
    """One windowed operand dimension split over `axes` into `n` pieces."""

    dim: int
    axes: tuple[int, ...]
    n: int
    window: Window
    low: int  # the halos the operand's layout carries
    high: int
    local: int  # the local array's size: core + halos

    @property
    def core(self) -> int:
        return self.window.extent // self.n

    @property
    def span(self) -> int:
        return self.window.rows(self.n)

    def rows(self, p: int) -> tuple[int, int, int]:
        """(local offset, rows, padding before) of piece p's window: the
        rows inside the tensor, where they sit in the local array, and how
        many padding rows precede them."""
        start, stop = self.window.reads(self.n, p)
        first, last = max(start, 0), min(stop, self.window.extent)
        return first - (p * self.core - self.low), max(last - first, 0), first - start

    def check(self, operand: int) -> None:
        """Every piece's window rows inside the tensor are in its local array."""
        for p in range(self.n):
            start, stop = self.window.reads(self.n, p)
            first, last = max(start, 0), min(stop, self.window.extent)
            if first < p * self.core - self.low or last > (p + 1) * self.core + self.high:
                need = self.window.halo(self.n)
                raise ValueError(
                    f"operand {operand} dimension {self.dim} is read through a window that needs halos "
                    f"{list(need)}, but its layout has {[self.low, self.high]}"
                )


def windowed_dims(
    rule: ShardingRule,
    operand: int,
    layout: Sharding | None,
    global_shape: Sequence[int],
    mesh: Mesh,
    dynamic_axes: Sequence[int] = (),
) -> list[_Dim]:
    """The windowed dimensions of an operand its layout splits over more
    than one device (ValueError for pieces of uneven or unknown size)."""
    if not rule.windows or rule.windows[operand] is None or layout is None:
        return []
    windows = rule.windows[operand]
    for d in layout.sharded_dims() if any(layout.halo_sizes) else ():
        if (d >= len(windows) or windows[d] is None) and any(a in dynamic_axes for a in layout.axes_of(d)):
            # only `slice_whole` cuts a halo'd layout from a whole value, and only into static pieces
            raise ValueError(
                f"operand {operand} has halos and its dimension {d} is split over a mesh axis of dynamic size: "
                "its pieces would have sizes only known at run time, which halos do not support yet"
            )
    out = []
    for d, w in enumerate(windows):
        if w is None:
            continue
        axes = tuple(layout.axes_of(d))
        if any(a in dynamic_axes for a in axes):
            raise ValueError(
                f"operand {operand} dimension {d} is read through a window and split over a mesh axis of dynamic "
                "size: its halos depend on the size"
            )
        n = math.prod(mesh.shape[a] for a in axes)
        if n <= 1:
            continue
        if w.out % n == 0 and w.extent % n == 0 and global_shape[d] == w.extent and not w.even(n):
            raise ValueError(
                f"operand {operand} dimension {d} is dilated by {w.base} and its {w.out} outputs split into {n} "
                f"pieces of {w.out // n}, which would not all read as many of its rows at the same place "
                f"(each piece must move a multiple of {w.base} positions and read a row)"
            )
        if not w.even(n) or global_shape[d] != w.extent:
            raise ValueError(
                f"operand {operand} dimension {d} of size {w.extent} and its {w.out} outputs do not split evenly "
                f"into {n} pieces; uneven pieces are not supported yet"
            )
        low, high = layout.halo(d)
        local = w.extent // n + low + high
        out.append(_Dim(d, axes, n, w, low, high, local))
    return out


def localize(
    op: ir.Operation,
    rule: ShardingRule,
    layouts: Sequence[Sharding | None],
    global_types: Sequence[ir.Type],
    mesh: Mesh,
    mesh_name: str,
    dynamic_axes: Sequence[int] = (),
    pads: dict[int, ir.Operation] | None = None,
) -> None:
    """Give `op` (already on local pieces, its results retyped) the rows of
    each windowed operand its device's outputs read.  Raises ValueError when
    an operand lacks the halos its window needs.  `pads`: per operand the
    rule describes as a pad's source (`rule.fused`), that `tensor.pad`, now
    read through: `op` reads the source there, whose split dimensions get
    their window rows with the pad's padding value outside the tensor, and
    whose other dimensions are padded as the pad did (`_pad_rest`)."""
    if not rule.windows:
        return
    pads = pads or {}
    indices: dict[tuple[int, ...], ir.Value] = {}
    dropped: list[tuple[int, _Dim]] = []
    for i in range(len(rule.windows)):
        t = global_types[i]
        if not isinstance(t, ir.RankedTensorType):
            continue
        dims = windowed_dims(rule, i, layouts[i], list(t.shape), mesh, dynamic_axes)
        pad = pads.get(i)
        for dim in dims:
            dim.check(i)
        if dims and op.name.partition(".")[2] == "slice" and op.name.startswith(("stablehlo.", "mhlo.")):
            _slice_rows(op, dims, mesh, mesh_name, indices)
            continue
        with ir.InsertionPoint(op), op.location:
            if dims:
                op.operands[i] = _window(op, i, dims, mesh, mesh_name, indices, pad)
            if pad is not None:
                op.operands[i] = _pad_rest(op.operands[i], pad, [dim.dim for dim in dims], layouts[i], i)
        dropped += [(i, dim) for dim in dims]
    _unpad(op, dropped, pads)


def _pad_rest(value: ir.Value, pad: ir.Operation, cut: list[int], layout: Sharding | None, i: int) -> ir.Value:
    """`value` (operand `i`'s local rows: its windows cut along `cut`,
    padding included) padded as `pad` pads it along its other dimensions
    (not split, or split over one device), by a copy of `pad` at the
    insertion point; `value` itself when they are not padded."""
    low = [int(v) for v in ir.DenseI64ArrayAttr(pad.attributes["static_low"])]
    high = [int(v) for v in ir.DenseI64ArrayAttr(pad.attributes["static_high"])]
    for d in cut:
        low[d] = high[d] = 0
    padded = [d for d in range(len(low)) if low[d] or high[d]]
    if layout is not None:
        for d in padded:
            if any(layout.halo(d)):
                raise ValueError(
                    f"operand {i} dimension {d} is padded and split over one device with halos "
                    f"{list(layout.halo(d))}, which a pad read through does not support yet"
                )
    if not padded:
        return value
    t = ir.RankedTensorType(value.type)
    dynamic = ir.ShapedType.get_dynamic_size()
    shape = [dynamic if t.is_dynamic_dim(d) else n + low[d] + high[d] for d, n in enumerate(t.shape)]
    copy = pad.clone()
    copy.operands[0] = value
    copy.attributes["static_low"] = _i64(low)
    copy.attributes["static_high"] = _i64(high)
    copy.results[0].set_type(ir.RankedTensorType.get(shape, t.element_type))
    return copy.results[0]


def _slice_rows(
    op: ir.Operation, dims: list[_Dim], mesh: Mesh, mesh_name: str, indices: dict[tuple[int, ...], ir.Value]
) -> None:
    """An hlo `slice` taking every t-th element of split dimensions (its
    windows are one element wide, inside the tensor): where every device
    finds its first element at the same place in its local array, the
    slice starts there (no copy: `x[:, ::2]` of pieces whose size the
    stride divides keeps its start, and its limit becomes the local size);
    elsewhere the rows are cut at an offset read from the device's index
    (`_window`) and the slice starts at 0.  The stride stays."""
    starts, limits = (ints_of(op.attributes[k]) for k in ("start_indices", "limit_indices"))
    moving = []
    for dim in dims:
        rows = [dim.rows(p) for p in range(dim.n)]
        w, d = dim.window, dim.dim
        first, local = rows[0][0], dim.local
        if any(r != rows[0] for r in rows):
            moving.append(dim)
            first, local = 0, dim.span
        starts[d] = first
        limits[d] = min(first + w.out // dim.n * w.stride, local)
    if moving:
        with ir.InsertionPoint(op), op.location:
            op.operands[0] = _window(op, 0, moving, mesh, mesh_name, indices)
    for key, values in (("start_indices", starts), ("limit_indices", limits)):
        op.attributes[key] = ints_like(op.attributes[key], values)


def _window(
    op: ir.Operation,
    i: int,
    dims: list[_Dim],
    mesh: Mesh,
    mesh_name: str,
    indices: dict[tuple[int, ...], ir.Value],
    pad: ir.Operation | None = None,
) -> ir.Value:
    """The window rows of operand `i` (at the insertion point); rows outside
    the tensor hold the op's padding value, or `pad`'s when the operand is
    the source of that `tensor.pad` read through."""
    value = op.operands[i]
    t = ir.RankedTensorType(value.type)
    shape = list(t.shape)
    idx = ir.IndexType.get()
    offsets: list[int | ir.Value] = [0] * t.rank
    before: list[int | ir.Value] = [0] * t.rank
    window_shape = list(shape)
    padded = False

    def const(v: int) -> ir.Value:
        return arith.ConstantOp(idx, v).result

    sizes: list[int | ir.Value] = list(shape)
    for dim in dims:
        if shape[dim.dim] != dim.local:
            raise ValueError(
                f"operand {i} dimension {dim.dim} holds {shape[dim.dim]} rows locally, not the {dim.local} "
                "its layout says"
            )
        rows = [dim.rows(p) for p in range(dim.n)]
        window_shape[dim.dim] = dim.span
        if all(r == rows[0] for r in rows) and rows[0][1] == dim.span:
            offsets[dim.dim] = rows[0][0]
            sizes[dim.dim] = dim.span
            continue
        p = _piece(dim.axes, mesh, mesh_name, indices)
        w = dim.window
        # piece p's rows start at first + p * step (`Window.step`)
        first_row = w.reads(dim.n, 0)[0]
        if all(r[1] == dim.span for r in rows):
            # inside the tensor everywhere: offset low + first + p * (step - E/n)
            step = w.step(dim.n) - dim.core
            offset = const(dim.low + first_row)
            if step:
                offset = arith.AddIOp(offset, arith.MulIOp(p, const(step)).result).result
            offsets[dim.dim] = offset
            sizes[dim.dim] = dim.span
            continue
        padded = True
        start = arith.AddIOp(arith.MulIOp(p, const(w.step(dim.n))).result, const(first_row)).result
        first = arith.MaxSIOp(start, const(0)).result
        last = arith.MinSIOp(arith.AddIOp(start, const(dim.span)).result, const(w.extent)).result
        count = arith.MaxSIOp(arith.SubIOp(last, first).result, const(0)).result
        origin = arith.SubIOp(arith.MulIOp(p, const(dim.core)).result, const(dim.low)).result
        offsets[dim.dim] = arith.SubIOp(first, origin).result
        sizes[dim.dim] = count
        before[dim.dim] = arith.SubIOp(first, start).result
    if all(isinstance(o, int) and o == 0 for o in offsets) and window_shape == shape and not padded:
        return value
    # a dimension the window does not cut keeps the device's whole piece,
    # whose size is only known at run time when the pieces differ
    for d in range(t.rank):
        if t.is_dynamic_dim(d):
            sizes[d] = tensor.DimOp(value, const(d)).result
    if not padded:
        return _slice(value, ir.RankedTensorType.get(window_shape, t.element_type), offsets, sizes)
    dynamic = ir.ShapedType.get_dynamic_size()
    piece_shape = [dynamic if isinstance(s, ir.Value) else s for s in sizes]
    rows = _slice(value, ir.RankedTensorType.get(piece_shape, t.element_type), offsets, sizes)
    filled = [s if t.is_dynamic_dim(d) else n for d, (n, s) in enumerate(zip(window_shape, sizes))]
    scalar = _pad_value(op, t.element_type) if pad is None else _padding_of(pad)
    fill = linalg_ops.fill(scalar, tensor.EmptyOp(filled, t.element_type).result)
    return _insert(rows, fill, before, sizes)


def slice_whole(
    value: ir.Value,
    global_type: ir.Type,
    target: Sharding,
    mesh: Mesh,
    mesh_name: str,
    ip,
    loc: ir.Location,
    dynamic_axes: Sequence[int] = (),
) -> ir.Value:
    """A value every device holds whole, cut to `target`'s local arrays
    (core and halos) without communication: each device slices the rows of
    its piece and its halos.  Each piece's rows are the layout's own cut
    (`Sharding.bounds`: even, the default uneven cut or given offsets), so
    an uneven dimension beside a halo'd one gets the pieces the local types
    say.  Halo cells past the tensor's edge are left undefined (a
    `tensor.empty`'s), as `update_halo` leaves them."""
    t = ir.RankedTensorType(global_type)
    shape = list(t.shape)
    idx = ir.IndexType.get()
    with ip, loc:

        def const(v: int) -> ir.Value:
            return arith.ConstantOp(idx, v).result

        indices: dict[tuple[int, ...], ir.Value] = {}
        tables: dict[tuple, ir.Value] = {}
        offsets: list[int | ir.Value] = [0] * t.rank
        sizes: list[int | ir.Value] = list(shape)
        before: list[int | ir.Value] = [0] * t.rank
        local: list[int | ir.Value] = list(shape)
        for d in range(t.rank):
            if t.is_dynamic_dim(d):  # not cut (refused below if it is): the whole size, read at run time
                sizes[d] = local[d] = tensor.DimOp(value, const(d)).result
        clipped = False
        for d, axes in enumerate(target.split_axes):
            # a dimension split over one device still gets its halos (all past the edges)
            cut = target.shard_count(d, mesh) > 1 or any(target.halo(d))
            if any(a in dynamic_axes for a in axes) or (t.is_dynamic_dim(d) and cut):
                raise _refused(
                    loc,
                    f"a whole value cut to halos ({target}) needs static pieces, but dimension {d} of {t} has "
                    "pieces of a size only known at run time",
                )
            if not cut:
                continue
            low, high = target.halo(d)
            p = _piece(tuple(axes), mesh, mesh_name, indices)
            bounds = target.bounds(d, shape[d], mesh)
            core = bounds[0][1] - bounds[0][0]
            if all(b - a == core for a, b in bounds):
                # pieces of one size: piece p starts at p * core
                local[d] = core + low + high
                edges = [(a - low, b + high) for a, b in bounds]
                if all(a >= 0 and b <= shape[d] for a, b in edges):
                    offsets[d] = arith.SubIOp(arith.MulIOp(p, const(core)).result, const(low)).result
                    sizes[d] = local[d]
                    continue
                clipped = True
                start = arith.SubIOp(arith.MulIOp(p, const(core)).result, const(low)).result
                first = arith.MaxSIOp(start, const(0)).result
                last = arith.MinSIOp(arith.AddIOp(start, const(local[d])).result, const(shape[d])).result
                offsets[d] = first
                sizes[d] = arith.SubIOp(last, first).result
                before[d] = arith.SubIOp(first, start).result
                continue
            # pieces of different sizes: each one's rows with halos, and the part inside the tensor, from tables
            spans = [(a - low, b + high) for a, b in bounds]
            firsts = [max(a, 0) for a, _ in spans]
            counts = [max(min(b, shape[d]) - f, 0) for f, (_, b) in zip(firsts, spans)]
            pads = [f - a for f, (a, _) in zip(firsts, spans)]
            widths = [b - a for a, b in spans]
            offsets[d] = device_table(firsts, p, tables)
            sizes[d] = device_table(counts, p, tables)
            local[d] = device_table(widths, p, tables)
            if counts != widths:
                clipped = True
                before[d] = device_table(pads, p, tables)
        dynamic = ir.ShapedType.get_dynamic_size()
        local_shape = [dynamic if isinstance(v, ir.Value) else v for v in local]
        if not clipped:
            return _slice(value, ir.RankedTensorType.get(local_shape, t.element_type), offsets, sizes)
        piece = [dynamic if isinstance(v, ir.Value) else v for v in sizes]
        rows = _slice(value, ir.RankedTensorType.get(piece, t.element_type), offsets, sizes)
        return _insert(rows, tensor.EmptyOp(local, t.element_type).result, before, sizes)


def _refused(loc: ir.Location, message: str) -> Exception:
    """Partition's located error (raised from a reshard, outside an op's
    `localize`)."""
    from .mesh_partition import _Unsupported

    return _Unsupported(loc, message)


def _piece(axes: tuple[int, ...], mesh: Mesh, mesh_name: str, cache: dict[tuple[int, ...], ir.Value]) -> ir.Value:
    """This device's piece index along `axes` (the first outermost)."""
    found = cache.get(axes)
    if found is not None:
        return found
    idx = ir.IndexType.get()
    index = mesh_ops.ProcessMultiIndexOp(mesh_name, axes=list(axes)).operation.results
    linear = index[0]
    for k in range(1, len(axes)):
        size = arith.ConstantOp(idx, mesh.shape[axes[k]]).result
        linear = arith.AddIOp(arith.MulIOp(linear, size).result, index[k]).result
    cache[axes] = linear
    return linear


def _split(values: Sequence[int | ir.Value]) -> tuple[list[ir.Value], list[int]]:
    dynamic = ir.ShapedType.get_dynamic_size()
    return [v for v in values if isinstance(v, ir.Value)], [dynamic if isinstance(v, ir.Value) else v for v in values]


def _slice(value: ir.Value, result: ir.Type, offsets: Sequence[int | ir.Value], sizes: Sequence[int | ir.Value]):
    if 0 in sizes:  # no element: MLIR refuses any offset into a dimension of size 0, even 0
        return tensor.EmptyOp(list(sizes), ir.RankedTensorType(result).element_type).result
    off_values, off_static = _split(offsets)
    size_values, size_static = _split(sizes)
    ones = [1] * len(offsets)
    return tensor.ExtractSliceOp(
        result, value, off_values, size_values, [], _i64(off_static), _i64(size_static), _i64(ones)
    ).result


def _insert(source: ir.Value, dest: ir.Value, offsets, sizes) -> ir.Value:
    off_values, off_static = _split(offsets)
    size_values, size_static = _split(sizes)
    ones = [1] * len(offsets)
    return tensor.InsertSliceOp(
        source, dest, off_values, size_values, [], _i64(off_static), _i64(size_static), _i64(ones)
    ).result


def _i64(values: Sequence[int]) -> ir.Attribute:
    return ir.DenseI64ArrayAttr.get([int(v) for v in values])


def _pad_value(op: ir.Operation, element: ir.Type) -> ir.Value:
    """The value the op pads its input with."""
    name = op.name
    if name in _TOSA_ZERO_POINT:
        zp = op.operands[_TOSA_ZERO_POINT[name]]
        zero = arith.ConstantOp(ir.IndexType.get(), 0).result
        return tensor.ExtractOp(zp, [zero]).result
    if name in _TOSA_LOWEST:
        if isinstance(element, ir.FloatType):
            lowest = float_extreme(element, False)
            if lowest is None:
                raise ValueError(f"'{name}' pads with the lowest {element}, which is not known")
            return arith.ConstantOp(element, lowest).result
        width = ir.IntegerType(element).width
        return arith.ConstantOp(element, -(2 ** (width - 1))).result
    hlo = name.partition(".")[0] in ("stablehlo", "mhlo")
    if hlo and name.endswith(".convolution"):
        zero = 0.0 if isinstance(element, ir.FloatType) else 0
        return arith.ConstantOp(element, zero).result  # an hlo convolution pads with zeros
    if hlo and name.endswith(".reduce_window"):
        return tensor.ExtractOp(op.operands[1], []).result  # padding cells hold the init value
    raise ValueError(f"'{name}' reads outside its input, which it does not pad")


def _padding_of(pad: ir.Operation) -> ir.Value:
    """The one value `pad` (a `tensor.pad`) pads every cell with, at the
    insertion point: a value from outside it, or a copy of its body's constant."""
    found = padding_value(pad)
    assert found is not None  # (`fusible_pad` said so)
    if isinstance(found, ir.Value):
        return found
    return found.clone().results[0]


def _unpad(op: ir.Operation, dims: list[tuple[int, _Dim]], pads: dict[int, ir.Operation] | None = None) -> None:
    """What the windows made explicit leaves the op: tosa's `pad` on the
    split dimensions, a generic map's constant term (of an operand read
    through a pad (`pads`), the constant on the padded tensor: the window's
    offset plus the low padding)."""
    if not dims:
        return
    name = op.name
    if name.startswith("tosa.") and "pad" in op.attributes:
        pad = [int(v) for v in ir.DenseI64ArrayAttr(op.attributes["pad"])]
        for _, dim in dims:
            j = dim.dim - 1  # input dimension 1 + j is spatial dimension j (NHWC)
            pad[2 * j] = pad[2 * j + 1] = 0
        op.attributes["pad"] = _i64(pad)
        return
    if name.endswith((".convolution", ".reduce_window")) and "padding" in op.attributes:
        # `padding` has one (low, high) row per spatial dimension of a
        # convolution (input dimension `d` is spatial dimension j), per
        # dimension of a reduce_window
        if name.endswith(".convolution"):
            spatial = conv_dimensions(str(op.attributes["dimension_numbers"]))
            assert spatial is not None  # its rule read them
            row = spatial.input_spatial.index
        else:
            row = int
        attr = op.attributes["padding"]
        pad = [int(v) for v in ir.DenseIntElementsAttr(attr)]  # a splat lists every entry too
        for _, dim in dims:
            # a dilated input (a transposed convolution) keeps the padding
            # between its window's edges and its first and last rows
            j = row(dim.dim)
            pad[2 * j], pad[2 * j + 1] = dim.window.dilated_padding(dim.n)
        op.attributes["padding"] = ints_like(attr, pad)
        return
    lows = {
        (i, d): int(low)
        for i, pad in (pads or {}).items()
        for d, low in enumerate(ir.DenseI64ArrayAttr(pad.attributes["static_low"]))
    }
    shifted = [(i, dim) for i, dim in dims if dim.window.offset + lows.get((i, dim.dim), 0)]
    if not shifted:
        return
    if name != "linalg.generic":
        raise ValueError(f"'{name}' reads its window at an offset partition cannot drop")
    maps = [ir.AffineMapAttr(a).value for a in ir.ArrayAttr(op.attributes["indexing_maps"])]
    for i, dim in shifted:
        m = maps[i]
        w = dim.window
        expr = ir.AffineDimExpr.get(w.loop) * w.stride
        if w.window_loop is not None:
            expr = expr + ir.AffineDimExpr.get(w.window_loop) * w.dilation
        results = list(m.results)
        results[dim.dim] = expr
        maps[i] = ir.AffineMap.get(m.n_dims, m.n_symbols, results)
    op.attributes["indexing_maps"] = ir.ArrayAttr.get([ir.AffineMapAttr.get(m) for m in maps])


__all__ = ["emit_update_halo", "localize", "slice_whole", "windowed_dims"]
