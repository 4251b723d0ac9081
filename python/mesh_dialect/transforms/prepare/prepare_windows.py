"""`prepare-windows`: rewrites that let a convolution or pooling keep a
split dimension split, reading its neighbours' rows through halos, without
changing what the program computes.

PyTorch writes a causal convolution (Mamba's depthwise Conv1d, WaveNet's
dilated one) as `conv(x, padding=k-1)[..., :L]`: the input is padded on both
sides, the op computes L + k - 1 outputs, and a slice keeps the first L.
Those extra outputs give the op an output size the mesh rarely divides
(19 rows over 4 devices), so `sharding-propagation` cannot keep the
sequence split with halos; it moves the split to the channels and back, or
gathers the input.  And torch-mlir writes a grouped convolution's input as
a pad followed by an `expand_shape` that splits the channels into groups,
so the op reads a reshape, not the pad it could read through (see Halos).

Three rewrites, each an option:

* `narrow-slices`: a `tensor.extract_slice` (static offsets and sizes,
  stride 1, not rank-reducing) of the only use of a linalg convolution's or
  pooling's result, or of a `tensor.collapse_shape` of it (torch-mlir lifts a
  1-D convolution to 2-D and collapses the unit dimension again) where each
  sliced dimension collapses with unit dimensions only, all in one block,
  becomes the op computing only the kept outputs, when that only drops
  padding: every input row the kept outputs read comes from a `tensor.pad`
  read only there, the rows they read cover the pad's whole source, the
  kept outputs line up with that source (their count times the stride is
  its size, as in `conv(padding=k-1)[..., :L]`), and the init is a
  `tensor.empty`, a `linalg.fill` of one or a `linalg.broadcast` into one
  along the cut dimensions, made again at the smaller size.  The op's maps
  must read every input at a sum of loops with positive coefficients and
  no constant (as linalg's named convolutions do), so its attributes stay
  as they are; the pad keeps the padding still read.  Anything else would
  cut the data itself, which may split worse than the op did: it is left
  alone.
* `pads-past-reshapes`: a `tensor.expand_shape` (static) of a `tensor.pad`
  (static, one padding value) used only there, where every padded dimension
  expands into one dimension and unit ones, becomes the expand_shape of the
  pad's source, padded after it.
* `pad-uneven`: an hlo `reduce_window` (one input) or `convolution` reading
  a `mesh.shard` that cuts a dimension it slides along into pieces of c
  rows and a shorter last one (XLA's cut of a size its devices do not
  divide: 10 rows over 4 devices, 3, 3, 3 and 1, which JAX programs carry
  as offsets), or reading a value no annotation makes when the function's
  annotations cut that size one such way, runs on its input padded to c
  rows a piece (12), with the
  value its own padding holds (the init of a reduce_window, zero for a
  convolution), and its result is sliced back to the rows the program
  has.  The window must move one row at a time, undilated, and keep the
  dimension's size: its outputs at the rows the program has read exactly
  what they read before.  Halos need pieces of one size; the pad and the
  slice run on each device's own rows, so the op keeps the split and
  partition exchanges halos instead of moving the split away and back.
  Left alone: a cut of wider pieces (padding them moves more than it
  saves), a reduce_window whose init has another element type than its
  input (the pad would round it), and an input two window ops read (each
  padded alone would exchange its own halos, where one reshard serves
  both).

Ops the rewrites leave unused are erased.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from mlir import ir
from mlir.dialects import tensor

from ...interfaces.registry import affine_linear, fusible_pad, padding_value, single_use, window_lists
from ...ir.hlo import OversizedList, conv_dimensions, hlo_ints
from ...ir.linalg_ops import get_indexing_maps
from ...ir.types import float_zero
from ...sharding.spec import Mesh, Sharding
from ..base import Pass, mesh_scopes, sharding_of

Ranges = dict[int, tuple[int, int]]
"""Per dimension cut, its rows [start, end); dimensions kept whole are absent."""


@dataclasses.dataclass
class PrepareWindows(Pass):
    ARGUMENT: ClassVar[str] = "prepare-windows"
    SUMMARY: ClassVar[str] = "Rewrite convolutions and poolings so that they split with halos"
    DESCRIPTION: ClassVar[str] = (
        "narrow-slices: a linalg convolution or pooling whose result only a static tensor.extract_slice "
        "reads (directly or through a tensor.collapse_shape of unit dimensions) computes only the kept "
        "outputs when that only drops padding they do not read and they line up with the padded input: "
        "conv(padding=k-1)[..., :L] then has the input's size. pads-past-reshapes: a tensor.pad read only by "
        "a tensor.expand_shape that keeps each padded dimension whole pads after the reshape instead, so a "
        "convolution reads the pad directly and reads through it. pad-uneven: an hlo reduce_window or "
        "convolution reading an annotation that cuts a dimension it slides along into pieces of c rows and a "
        "shorter last one (XLA's cut) runs on its input padded to c rows a piece and slices its result back, "
        "when the window moves one row at a time, undilated, and keeps the dimension's size."
    )
    narrow_slices: bool = dataclasses.field(
        default=True, metadata={"help": "make a convolution read only through a slice compute the kept outputs only"}
    )
    pads_past_reshapes: bool = dataclasses.field(
        default=True, metadata={"help": "move a tensor.pad after the tensor.expand_shape reading it"}
    )
    pad_uneven: bool = dataclasses.field(
        default=True,
        metadata={"help": "run an hlo window op on its input padded to equal pieces where annotations cut it unevenly"},
    )

    def run(self, module: ir.Operation) -> None:
        found: dict[str, list[ir.Operation]] = {"tensor.extract_slice": [], "tensor.expand_shape": []}

        def visit(op: ir.Operation) -> ir.WalkResult:
            ops = found.get(op.name)
            if ops is not None:
                ops.append(op)
            return ir.WalkResult.ADVANCE

        module.walk(visit)
        if self.pads_past_reshapes:
            for op in found["tensor.expand_shape"]:
                _pad_past_expand(op)
        if self.narrow_slices:
            for op in found["tensor.extract_slice"]:
                window = _match(op)
                if window is not None:
                    _narrow(op, window)
        if self.pad_uneven:
            for shapes, functions in mesh_scopes(module):
                for f in functions:
                    ops, cuts = _hlo_windows(f, shapes)
                    for op in ops:
                        _pad_uneven(op, shapes, cuts)


def _ints(op: ir.Operation, name: str) -> list[int]:
    return [int(v) for v in ir.DenseI64ArrayAttr(op.attributes[name])]


def _groups(reshape: ir.Operation) -> list[list[int]]:
    """A collapse_shape's or expand_shape's reassociation: per dimension of
    the collapsed side, the dimensions of the expanded side it is."""
    return [
        [int(ir.IntegerAttr(d).value) for d in ir.ArrayAttr(g)]
        for g in ir.ArrayAttr(reshape.attributes["reassociation"])
    ]


def _static_shape(t: ir.Type) -> list[int] | None:
    if not isinstance(t, ir.RankedTensorType) or not t.has_static_shape:
        return None
    return list(t.shape)


def _producer(value: ir.Value, name: str | tuple[str, ...]) -> ir.Operation | None:
    """The op making `value` when its name is (one of) `name`."""
    if not isinstance(value, ir.OpResult):
        return None
    owner = value.owner.operation
    return owner if owner.name in ((name,) if isinstance(name, str) else name) else None


def _is_window_op(name: str) -> bool:
    return name.startswith("linalg.") and ("conv" in name or "pooling" in name)


@dataclasses.dataclass
class _Window:
    """The op to narrow and how: the rows each operand keeps."""

    op: ir.Operation
    collapse: ir.Operation | None
    operands: list[Ranges]  # per operand of `op`, the init last
    shape: list[int]  # the narrowed result's


def _match(slice_op: ir.Operation) -> _Window | None:
    if len(slice_op.operands) != 1:
        return None  # dynamic offsets, sizes or strides
    source = slice_op.operands[0]
    shape = _static_shape(source.type)
    result = _static_shape(slice_op.results[0].type)
    if shape is None or result is None or len(result) != len(shape):
        return None  # rank-reducing
    if any(s != 1 for s in _ints(slice_op, "static_strides")):
        return None
    offsets, sizes = _ints(slice_op, "static_offsets"), _ints(slice_op, "static_sizes")
    if min(sizes, default=1) < 1:
        return None  # an empty slice reads no row
    cut = {d: (o, o + n) for d, (o, n) in enumerate(zip(offsets, sizes)) if (o, n) != (0, shape[d])}
    if not cut or not single_use(source):
        return None
    collapse = _producer(source, "tensor.collapse_shape")
    if collapse is not None:
        cut = _through_collapse(collapse, cut)
        if cut is None or collapse.block != slice_op.block:
            return None
        source = collapse.operands[0]
        if not single_use(source):
            return None
    op = source.owner.operation if isinstance(source, ir.OpResult) else None
    if op is None or not _is_window_op(op.name) or len(op.results) != 1 or op.block != slice_op.block:
        return None
    window = _ranges(op, cut)
    return None if window is None else dataclasses.replace(window, collapse=collapse)


def _through_collapse(collapse: ir.Operation, cut: Ranges) -> Ranges | None:
    """`cut` of a `tensor.collapse_shape`'s result as a cut of its source:
    each cut dimension must collapse one dimension of size above 1 with
    unit ones."""
    inner = _static_shape(collapse.operands[0].type)
    if inner is None:
        return None
    groups = _groups(collapse)
    found: Ranges = {}
    for d, rows in cut.items():
        j = _wide(groups[d], inner)
        if j is None:
            return None
        found[j] = rows
    return found


def _wide(group: list[int], shape: list[int]) -> int | None:
    """The one dimension of a reassociation `group` above size 1 (the others
    are unit ones), or None."""
    wide = [j for j in group if shape[j] != 1]
    return wide[0] if len(wide) == 1 else None


def _ranges(op: ir.Operation, cut: Ranges) -> _Window | None:
    """How `op` narrows to the result rows `cut`: per operand, the rows its
    kept outputs read; None when its maps do not say it simply (a constant
    term, a negative coefficient, a loop of unknown extent)."""

    maps_attr = get_indexing_maps(op)
    if maps_attr is None:
        return None
    maps = [ir.AffineMapAttr(a).value for a in ir.ArrayAttr(maps_attr)]
    operands = list(op.operands)
    if len(maps) != len(operands) or "operandSegmentSizes" not in op.attributes:
        return None
    if list(ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"]))[-1] != 1:
        return None  # one init, whose map is the result's
    shapes = [_static_shape(v.type) if isinstance(v.type, ir.ShapedType) else [] for v in operands]
    if any(s is None or 0 in s for s in shapes):
        return None  # (MLIR refuses a slice of a tensor with a dimension of size 0)
    out = maps[-1].results
    if not all(isinstance(e, ir.AffineDimExpr) for e in out):
        return None
    extents: dict[int, int] = {}
    for m, s in zip(maps, shapes):
        for j, e in enumerate(m.results):
            if isinstance(e, ir.AffineDimExpr):
                extents.setdefault(e.position, s[j])
    rows = {ir.AffineDimExpr(out[d]).position: r for d, r in cut.items()}  # per sliced loop
    narrowed: list[Ranges] = []
    spans: list[dict[int, int]] = []  # per operand and cut dimension, the rows the kept outputs span
    for m, s in zip(maps, shapes):
        found: Ranges = {}
        span: dict[int, int] = {}
        for j, e in enumerate(m.results):
            linear = affine_linear(e)
            if linear is None:
                return None
            coeffs, constant = linear
            if not rows.keys() & coeffs.keys():
                continue
            if constant or any(c <= 0 for c in coeffs.values()) or any(d not in extents for d in coeffs):
                return None
            start = sum(c * rows[d][0] for d, c in coeffs.items() if d in rows)
            end = 1 + sum(c * ((rows[d][1] if d in rows else extents[d]) - 1) for d, c in coeffs.items())
            if (start, end) != (0, s[j]):
                found[j] = (start, end)
                span[j] = sum(c * (rows[d][1] - rows[d][0]) for d, c in coeffs.items() if d in rows)
        narrowed.append(found)
        spans.append(span)
    for k, found in enumerate(narrowed[:-1]):
        if found and not _drops_padding_only(operands[k], found, spans[k]):
            return None  # the data itself would be cut, or the outputs would not line up with it
    if narrowed[-1] and not _remakeable(operands[-1], narrowed[-1]):
        return None
    shape = list(shapes[-1])
    for d, (start, end) in cut.items():
        shape[d] = end - start
    return _Window(op, None, narrowed, shape)


def _drops_padding_only(value: ir.Value, rows: Ranges, spans: dict[int, int]) -> bool:
    """Whether `rows` of `value` are a `tensor.pad` an op may read through
    (`fusible_pad`: static, one padding value, read only here) with its
    whole source inside them,
    and the kept outputs line up with that source: along each cut
    dimension, the rows they span (their count times the stride) are its
    size.  Outputs that do not line up split no better narrowed."""
    found = fusible_pad(value)  # (a body reading its indices would read them moved)
    if found is None:
        return False
    low = found[0]
    source = ir.RankedTensorType(value.owner.operation.operands[0].type).shape
    return all(
        start <= low[d] and end >= low[d] + source[d] and spans[d] == source[d] for d, (start, end) in rows.items()
    )


def _remakeable(value: ir.Value, rows: Ranges) -> bool:
    """Whether an init is made by a `tensor.empty`, a `linalg.fill` of one or
    a `linalg.broadcast` into one along the cut dimensions, read only here,
    so that it can be made again at the kept size (`_cut_init`)."""
    maker = _producer(value, ("tensor.empty", "linalg.fill", "linalg.broadcast"))
    if maker is None or not single_use(value):
        return False
    if maker.name == "tensor.empty":
        return True
    if maker.name == "linalg.broadcast":
        added = {int(d) for d in ir.DenseI64ArrayAttr(maker.attributes["dimensions"])}
        if not rows.keys() <= added:
            return False  # a cut dimension of the broadcast's input
    init = maker.operands[-1]
    return _producer(init, "tensor.empty") is not None and single_use(init)


def _narrow(slice_op: ir.Operation, window: _Window) -> None:
    op = window.op
    operands = list(op.operands)
    remade = [v if not rows else _cut_pad(v, rows) for v, rows in zip(operands[:-1], window.operands[:-1])]
    init_rows = window.operands[-1]
    remade.append(_cut_init(operands[-1], init_rows) if init_rows else operands[-1])
    with ir.InsertionPoint(op), op.location:
        narrowed = op.clone()
        for k, v in enumerate(remade):
            if v != operands[k]:
                narrowed.operands[k] = v
        element = ir.RankedTensorType(op.results[0].type).element_type
        narrowed.results[0].set_type(ir.RankedTensorType.get(window.shape, element))
    value = narrowed.results[0]
    if window.collapse is not None:
        with ir.InsertionPoint(slice_op), slice_op.location:
            collapse = window.collapse.clone()
            collapse.operands[0] = value
            collapse.results[0].set_type(slice_op.results[0].type)
        value = collapse.results[0]
    slice_op.results[0].replace_all_uses_with(value)
    slice_op.erase()
    if window.collapse is not None:
        window.collapse.erase()
    op.erase()
    for v in operands:
        _erase_if_unused(v)


def _cut_pad(value: ir.Value, rows: Ranges) -> ir.Value:
    """The pad making `value` (`_drops_padding_only`), made again where it
    was with only the padding `rows` hold."""
    pad = value.owner.operation
    low, high = _ints(pad, "static_low"), _ints(pad, "static_high")
    source = ir.RankedTensorType(pad.operands[0].type).shape
    for d, (start, end) in rows.items():
        low[d], high[d] = low[d] - start, end - low[d] - source[d]
    t = ir.RankedTensorType(value.type)
    with ir.InsertionPoint(pad), pad.location:
        padded = pad.clone()
    padded.attributes["static_low"] = ir.DenseI64ArrayAttr.get(low)
    padded.attributes["static_high"] = ir.DenseI64ArrayAttr.get(high)
    shape = [rows[d][1] - rows[d][0] if d in rows else n for d, n in enumerate(t.shape)]
    padded.results[0].set_type(ir.RankedTensorType.get(shape, t.element_type))
    return padded.results[0]


def _cut_init(value: ir.Value, rows: Ranges) -> ir.Value:
    """The init (`_remakeable`) made again where it was, at its kept rows."""
    t = ir.RankedTensorType(value.type)
    shape = [rows[d][1] - rows[d][0] if d in rows else n for d, n in enumerate(t.shape)]
    maker = value.owner.operation
    with ir.InsertionPoint(maker), maker.location:
        fresh = tensor.EmptyOp(shape, t.element_type).result
        if maker.name == "tensor.empty":
            return fresh
        remade = maker.clone()
    remade.operands[len(maker.operands) - 1] = fresh
    remade.results[0].set_type(ir.RankedTensorType.get(shape, t.element_type))
    return remade.results[0]


def _pad_past_expand(expand: ir.Operation) -> None:
    """`expand_shape(pad(x))` as `pad(expand_shape(x))` when every padded
    dimension expands into one dimension and unit ones."""
    source = expand.operands[0]
    pad = _producer(source, "tensor.pad")
    if pad is None or len(pad.operands) != 1 or len(expand.operands) != 1 or not single_use(source):
        return
    inner, padded = _static_shape(pad.operands[0].type), _static_shape(source.type)
    out = _static_shape(expand.results[0].type)
    value = padding_value(pad)
    if inner is None or padded is None or out is None or value is None or pad.block != expand.block:
        return
    low, high = _ints(pad, "static_low"), _ints(pad, "static_high")
    if not any(low) and not any(high):
        return  # it pads nothing: moving it gains nothing
    groups = _groups(expand)
    out_low, out_high = [0] * len(out), [0] * len(out)
    shape = list(out)
    for d, group in enumerate(groups):
        if not low[d] and not high[d]:
            continue
        j = _wide(group, out)
        if j is None or out[j] != padded[d]:
            return
        out_low[j], out_high[j], shape[j] = low[d], high[d], inner[d]
    element = ir.RankedTensorType(source.type).element_type
    with ir.InsertionPoint(expand), expand.location:
        reshaped = expand.clone()
        reshaped.operands[0] = pad.operands[0]
        reshaped.attributes["static_output_shape"] = ir.DenseI64ArrayAttr.get(shape)
        reshaped.results[0].set_type(ir.RankedTensorType.get(shape, element))
        attributes = {name: attr for name, attr in pad.attributes.items() if name not in _PAD_SIZES}
        attributes["static_low"] = ir.DenseI64ArrayAttr.get(out_low)
        attributes["static_high"] = ir.DenseI64ArrayAttr.get(out_high)
        attributes["operandSegmentSizes"] = ir.DenseI32ArrayAttr.get([1, 0, 0])
        moved = ir.Operation.create(
            "tensor.pad",
            results=[expand.results[0].type],
            operands=[reshaped.results[0]],
            attributes=attributes,
            regions=1,
        )
        block = moved.regions[0].blocks.append(*[ir.IndexType.get()] * len(out))
        with ir.InsertionPoint(block):
            if isinstance(value, ir.Operation):  # the constant the old body made
                value = value.clone().results[0]
            tensor.YieldOp(value)
    expand.results[0].replace_all_uses_with(moved.results[0])
    expand.erase()
    _erase_if_unused(source)


_PAD_SIZES = frozenset({"static_low", "static_high", "operandSegmentSizes"})
"""A `tensor.pad`'s attributes that say its sizes (the rest are copied)."""


_ERASABLE = frozenset({"tensor.pad", "tensor.empty", "linalg.fill", "linalg.broadcast"})
"""Ops the rewrite may leave unused, which read nothing but their operands."""


def _erase_if_unused(value: ir.Value) -> None:
    """Erase the op making `value` when nothing uses it any more, and so on
    up through its operands (ops of `_ERASABLE` only)."""
    if not isinstance(value, ir.OpResult):
        return
    op = value.owner.operation
    if op.name not in _ERASABLE or any(True for r in op.results for _ in r.uses):
        return
    operands = list(op.operands)
    op.erase()
    for v in operands:
        _erase_if_unused(v)


# -- pad-uneven -------------------------------------------------------------

_HLO_WINDOWS = frozenset(("stablehlo.reduce_window", "mhlo.reduce_window", "stablehlo.convolution", "mhlo.convolution"))


def _hlo_windows(
    func: ir.Operation, shapes: dict[str, tuple[int, ...]]
) -> tuple[list[ir.Operation], dict[int, set[tuple[int, ...]]]]:
    """The function's hlo window ops, and per size, the uneven XLA cuts its
    annotations give dimensions of that size (for an op whose input no
    annotation makes, `_pad_uneven`)."""
    found: list[ir.Operation] = []
    cuts: dict[int, set[tuple[int, ...]]] = {}

    def visit(op: ir.Operation) -> ir.WalkResult:
        if op.name in _HLO_WINDOWS:
            found.append(op)
        elif op.name == "mesh.shard":
            shape = _static_shape(op.operands[0].type)
            read = _layout(op, shapes)
            if shape is not None and read is not None and read[0].sharded_dims_offsets:
                for d in read[0].sharded_dims():
                    if d < len(shape):
                        cut = read[0].cut(d, shape[d], read[1])
                        if _padded_size(cut) is not None:
                            cuts.setdefault(shape[d], set()).add(cut)
        return ir.WalkResult.ADVANCE

    func.walk(visit)
    return found, cuts


def _layout(shard: ir.Operation, shapes: dict[str, tuple[int, ...]]) -> tuple[Sharding, Mesh] | None:
    """A `mesh.shard`'s layout and its static mesh, None when either is not known."""
    found = sharding_of(shard.operands[1])
    mesh_shape = None if found is None else shapes.get(found[0])
    if found is None or found[2] or not mesh_shape or min(mesh_shape) < 1:
        return None
    return found[1], Mesh(mesh_shape)


@dataclasses.dataclass(frozen=True)
class _Slide:
    """How a window op moves along one input dimension: the output
    dimension it gives, the window's size, stride and dilations, and the
    padding before and after."""

    input_dim: int
    output_dim: int
    size: int
    stride: int
    dilations: tuple[int, int]  # the input's (base, lhs) and the window's (rhs)
    low: int
    high: int


def _slides(op: ir.Operation, x: list[int], kernel: list[int] | None) -> list[_Slide] | None:
    """Per windowed input dimension of an hlo reduce_window (`kernel`
    None) or convolution (the kernel's shape), how the window moves, as
    their sharding rules read the window's lists (`window_lists`)."""
    if kernel is None:
        n, dims = len(x), [(d, d, d) for d in range(len(x))]
        names = ("window_dimensions", "window_strides", "base_dilations", "window_dilations")
    else:
        numbers = op.attributes["dimension_numbers"] if "dimension_numbers" in op.attributes else None
        conv = None if numbers is None else conv_dimensions(str(numbers))
        if conv is None:
            return None
        n = len(conv.input_spatial)
        dims = list(zip(conv.input_spatial, conv.output_spatial, conv.kernel_spatial))
        names = ("window_strides", "lhs_dilation", "rhs_dilation")
    try:
        found = window_lists(op, names, n)
    except OversizedList:
        return None
    if found is None:
        return None
    if kernel is None:
        sizes, strides, base, window, padding = found
    else:
        strides, base, window, padding = found
        sizes = [kernel[k] for _, _, k in dims]
    return [
        _Slide(i, o, sizes[k], strides[k], (base[k], window[k]), padding[2 * k], padding[2 * k + 1])
        for k, (i, o, _) in enumerate(dims)
    ]


def _padded_size(cut: tuple[int, ...]) -> int | None:
    """The size that makes every piece of `cut` as long as the first, when
    `cut` is XLA's cut of its size n over p pieces (pieces of c = ceil(n /
    p) rows, a shorter one, then empty ones); None for any other cut (one
    of wider pieces pads more rows than it saves), or an even one."""
    pieces = len(cut) - 1
    c = cut[1] - cut[0]
    if cut[0] != 0 or c != -(-cut[-1] // pieces) or c * pieces == cut[-1]:
        return None
    if any(cut[k] != min(k * c, cut[-1]) for k in range(pieces + 1)):
        return None
    return c * pieces


def _pad_uneven(op: ir.Operation, shapes: dict[str, tuple[int, ...]], cuts: dict[int, set[tuple[int, ...]]]) -> None:
    """`pad-uneven` on one hlo window op (see the module's docstring): its
    input's cut is its annotation's, or where it has none, the one uneven
    XLA cut the function's annotations give dimensions of its size (a
    window op reading a value computed from annotated ones: propagation
    prices that cut for such a size)."""
    reduce_window = op.name.endswith("reduce_window")
    if len(op.operands) != 2 or len(op.results) != 1:
        return  # (a reduce_window of several inputs)
    x, result = op.operands[0], op.results[0]
    shape, out = _static_shape(x.type), _static_shape(result.type)
    kernel = None if reduce_window else _static_shape(op.operands[1].type)
    if shape is None or out is None or (kernel is None and not reduce_window):
        return
    element = ir.RankedTensorType(x.type).element_type
    if not isinstance(element, ir.FloatType | ir.IntegerType) or (not reduce_window and _zero(element) is None):
        return
    if reduce_window and ir.RankedTensorType(op.operands[1].type).element_type != element:
        return  # an init of a wider type (bf16 rows, an f32 sum): the pad would round it
    if sum(1 for use in x.uses if use.owner.name in _HLO_WINDOWS) > 1:
        return  # each op padded alone exchanges its own halos, where one reshard serves them all
    shard = _producer(x, "mesh.shard")
    read = None if shard is None else _layout(shard, shapes)
    if shard is not None and read is None:
        return  # a layout not known here

    def cut_of(dim: int) -> tuple[int, ...] | None:
        if read is None:
            found = cuts.get(shape[dim], set())
            return next(iter(found)) if len(found) == 1 else None
        layout, mesh = read
        if not layout.sharded_dims_offsets or dim not in layout.sharded_dims():
            return None
        return layout.cut(dim, shape[dim], mesh)

    slides = _slides(op, shape, kernel)
    if slides is None:
        return
    high = [0] * len(shape)
    padded_out = list(out)
    for w in slides:
        if w.input_dim >= len(shape) or w.output_dim >= len(out) or w.size == 1 and w.low == w.high == 0:
            continue  # (a dimension read one row at a time splits as it is)
        size = shape[w.input_dim]
        cut = cut_of(w.input_dim)
        padded = None if cut is None else _padded_size(cut)
        if padded is None:
            continue
        if w.stride != 1 or w.dilations != (1, 1) or out[w.output_dim] != size or min(w.low, w.high) < 0:
            continue  # (the outputs the program has read rows the padding would change)
        if max(w.low, w.high) > cut[1]:
            continue  # halos past a neighbour's piece: a scan's window (a cumulative sum), split otherwise
        high[w.input_dim] = padded - size
        padded_out[w.output_dim] = padded
    if not any(high):
        return
    dialect = op.name.partition(".")[0]
    with ir.InsertionPoint(op), op.location:
        if reduce_window:
            value = op.operands[1]  # a reduce_window pads with its init
        else:
            scalar = ir.RankedTensorType.get([], element)
            zero = ir.DenseElementsAttr.get_splat(scalar, _zero(element))
            value = ir.Operation.create(f"{dialect}.constant", results=[scalar], attributes={"value": zero}).result
        padded_type = ir.RankedTensorType.get([n + h for n, h in zip(shape, high)], element)
        zeros = hlo_ints(dialect, [0] * len(shape))
        pad = ir.Operation.create(
            f"{dialect}.pad",
            results=[padded_type],
            operands=[x, value],
            attributes={
                "edge_padding_low": zeros,
                "edge_padding_high": hlo_ints(dialect, high),
                "interior_padding": zeros,
            },
        )
        wide = op.clone(ip=ir.InsertionPoint(op))
        wide.operands[0] = pad.result
        wide.results[0].set_type(ir.RankedTensorType.get(padded_out, ir.RankedTensorType(result.type).element_type))
        kept = ir.Operation.create(
            f"{dialect}.slice",
            results=[result.type],
            operands=[wide.results[0]],
            attributes={
                "start_indices": hlo_ints(dialect, [0] * len(out)),
                "limit_indices": hlo_ints(dialect, out),
                "strides": hlo_ints(dialect, [1] * len(out)),
            },
        )
    result.replace_all_uses_with(kept.result)
    op.erase()


def _zero(element: ir.Type) -> ir.Attribute | None:
    """The zero a convolution pads with (+0.0 of a float, 0 of an integer);
    None in a float format without a zero."""
    if isinstance(element, ir.IntegerType):
        return ir.IntegerAttr.get(element, 0)
    return None if float_zero(element) is None else ir.FloatAttr.get(element, 0.0)


__all__ = ["PrepareWindows"]
