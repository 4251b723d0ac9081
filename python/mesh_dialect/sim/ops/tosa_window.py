"""tosa's windowed ops on numpy values: `conv2d`, `conv3d`,
`depthwise_conv2d`, `max_pool2d` and `avg_pool2d` (NHWC / NDHWC).

Each output cell folds the input cells its window covers, kernel position
after kernel position in row-major order, so the float result of a cell
does not depend on the size of the tensor around it: a partitioned program
computing a piece gets the same bits as the whole.  Padding follows the
TOSA specification: a convolution reads its input zero point there (the
term is zero), a max pooling never picks it, and an average pooling divides
by the cells inside the tensor only.  Integer convolutions accumulate
exactly and wrap into the result type; integer average pooling (a rescale)
is not run.
"""

from __future__ import annotations

import itertools

import numpy as np
from mlir import ir

from .. import minmax
from ..program import Compiler, Step, dtype_of, fail, register


def _ints(op: ir.Operation, name: str) -> list[int] | None:
    if name not in op.attributes:
        return None
    return [int(v) for v in ir.DenseI64ArrayAttr(op.attributes[name])]


def _prepare(c: Compiler, op: ir.Operation) -> dict:
    nan = str(op.attributes["nan_mode"]) if "nan_mode" in op.attributes else ""
    return {
        "dtype": dtype_of(op.results[0].type),
        "pad": _ints(op, "pad"),
        "stride": _ints(op, "stride"),
        "dilation": _ints(op, "dilation"),
        "kernel": _ints(op, "kernel"),
        "ignore_nan": "IGNORE" in nan,
    }


def _scalar(step: Step, value, what: str):
    arr = np.asarray(value)
    if arr.size != 1:
        raise fail(step, f"needs a one-element {what}, got shape {arr.shape}")
    return arr.reshape(()).item()


def _geometry(step: Step, x: np.ndarray, kernel: list[int], out_shape: tuple[int, ...]):
    """(pad, stride, dilation) per spatial dimension, after checking that the
    output's spatial sizes are the ones TOSA's formula gives."""
    a = step.attrs
    spatial = x.ndim - 2
    pad, stride = a["pad"], a["stride"]
    dilation = a["dilation"] or [1] * spatial
    if pad is None or len(pad) != 2 * spatial or len(stride) != spatial or len(dilation) != spatial:
        raise fail(step, f"has pad/stride/dilation of the wrong length for a rank-{x.ndim} input")
    if len(kernel) != spatial:
        raise fail(step, f"has a kernel of rank {len(kernel)} for {spatial} spatial dimensions")
    for d in range(spatial):
        span = x.shape[1 + d] - 1 + pad[2 * d] + pad[2 * d + 1] - (kernel[d] - 1) * dilation[d]
        if span < 0 or span % stride[d] or span // stride[d] + 1 != out_shape[1 + d]:
            raise fail(
                step,
                f"has output size {out_shape[1 + d]} in spatial dimension {d}, which its input "
                f"{x.shape[1 + d]}, kernel {kernel[d]}, pad {pad[2 * d : 2 * d + 2]}, stride {stride[d]} and "
                f"dilation {dilation[d]} do not give",
            )
    return pad, stride, dilation


def _windows(x: np.ndarray, fill, kernel, pad, stride, dilation, out_spatial):
    """For each kernel position (row-major), the input cells it meets for
    every output cell, with `fill` where the window is outside the input,
    and a mask of the cells inside (shape: N, out spatial..., C)."""
    spatial = x.ndim - 2
    widths = [(0, 0)] + [(pad[2 * d], pad[2 * d + 1]) for d in range(spatial)] + [(0, 0)]
    padded = np.pad(x, widths, constant_values=fill)
    inside = np.pad(np.ones(x.shape[1:-1], dtype=bool), widths[1:-1], constant_values=False)
    for pos in itertools.product(*(range(k) for k in kernel)):
        index = tuple(
            slice(pos[d] * dilation[d], pos[d] * dilation[d] + (out_spatial[d] - 1) * stride[d] + 1, stride[d])
            for d in range(spatial)
        )
        yield pos, padded[(slice(None), *index, slice(None))], inside[index]


def _accumulate(step: Step, x: np.ndarray) -> np.dtype:
    """The dtype convolution terms are summed in: `acc_type` (else the
    result's) for floats, int64 for integers (exact, then wrapped)."""
    if x.dtype.kind == "f":
        acc = step.attrs.get("acc_dtype")
        return acc if acc is not None and acc.kind == "f" else step.attrs["dtype"]
    if x.dtype.kind in "iu":
        return np.dtype(np.int64)
    raise fail(step, f"on {x.dtype} elements is not supported")


def _conv(step: Step, x, w, bias, x_zp, w_zp, depthwise: bool):
    dtype = step.attrs["dtype"]
    spatial = x.ndim - 2
    if w.ndim != x.ndim:
        raise fail(step, f"needs a weight of rank {x.ndim}, got shape {w.shape}")
    kernel = list(w.shape[:spatial]) if depthwise else list(w.shape[1:-1])
    izp, wzp = _scalar(step, x_zp, "input zero point"), _scalar(step, w_zp, "weight zero point")
    if x.dtype.kind == "f" and (izp or wzp):
        raise fail(step, "has non-zero zero points on floats")
    acc_t = _accumulate(step, x)
    channels = x.shape[-1]
    if depthwise:
        mult = w.shape[-1]
        if w.shape[spatial] != channels:
            raise fail(step, f"has {channels} input channels but a weight of shape {w.shape}")
        out_channels = channels * mult
    else:
        if w.shape[-1] != channels:
            raise fail(step, f"has {channels} input channels but a weight of shape {w.shape}")
        out_channels = w.shape[0]
    out_shape = _out_shape(step, x, out_channels)
    pad, stride, dilation = _geometry(step, x, kernel, out_shape)
    xs = x.astype(acc_t) - acc_t.type(izp)
    ws = w.astype(acc_t) - acc_t.type(wzp)
    acc = np.zeros(out_shape, dtype=acc_t)
    with np.errstate(all="ignore"):
        for pos, cells, _ in _windows(xs, 0, kernel, pad, stride, dilation, out_shape[1:-1]):
            if depthwise:
                k = ws[pos]  # [C, M]
                acc = acc + (cells[..., :, None] * k).reshape(cells.shape[:-1] + (out_channels,))
            else:
                k = ws[(slice(None), *pos, slice(None))]  # [OC, IC]
                acc = acc + cells @ k.T
        b = np.asarray(bias).astype(acc_t)
        if b.size not in (1, out_channels):
            raise fail(step, f"has a bias of {b.size} elements for {out_channels} output channels")
        acc = acc + b.reshape(-1)
    return [np.array(acc, dtype=dtype, copy=True)]


def _out_shape(step: Step, x: np.ndarray, channels: int) -> tuple[int, ...]:
    """The result's shape, the channel count checked.  A dynamic batch or
    channel size (a partitioned program's uneven piece) is the one the
    operands give; the spatial sizes stay static."""
    shape = step.attrs.get("out_shape")
    if shape is not None:
        shape = (
            x.shape[0] if shape[0] is None else shape[0],
            *shape[1:-1],
            channels if shape[-1] is None else shape[-1],
        )
    if shape is None or shape[-1] != channels or shape[0] != x.shape[0]:
        raise fail(step, f"has a result of shape {shape} for an input of shape {x.shape}")
    return tuple(shape)


def _prepare_conv(c: Compiler, op: ir.Operation) -> dict:
    attrs = _prepare(c, op)
    t = op.results[0].type
    if not isinstance(t, ir.RankedTensorType) or any(t.is_dynamic_dim(d) for d in range(1, t.rank - 1)):
        raise ValueError(f"'{op.name}' needs static spatial sizes in its result type, got {t}")
    attrs["out_shape"] = tuple(None if t.is_dynamic_dim(d) else n for d, n in enumerate(t.shape))
    # floats sum in `acc_type` (f16 data, f32 sums), then convert
    acc = op.attributes["acc_type"] if "acc_type" in op.attributes else None
    attrs["acc_dtype"] = dtype_of(ir.TypeAttr(acc).value) if isinstance(acc, ir.TypeAttr) else None
    return attrs


@register("tosa.conv2d", prepare=_prepare_conv)
def _conv2d(frame, step: Step, x, w, bias, x_zp, w_zp):
    if x.ndim != 4:
        raise fail(step, f"needs a rank-4 input, got shape {x.shape}")
    return _conv(step, x, w, bias, x_zp, w_zp, False)


@register("tosa.conv3d", prepare=_prepare_conv)
def _conv3d(frame, step: Step, x, w, bias, x_zp, w_zp):
    if x.ndim != 5:
        raise fail(step, f"needs a rank-5 input, got shape {x.shape}")
    return _conv(step, x, w, bias, x_zp, w_zp, False)


@register("tosa.depthwise_conv2d", prepare=_prepare_conv)
def _depthwise(frame, step: Step, x, w, bias, x_zp, w_zp):
    if x.ndim != 4:
        raise fail(step, f"needs a rank-4 input, got shape {x.shape}")
    return _conv(step, x, w, bias, x_zp, w_zp, True)


def _lowest(dtype: np.dtype):
    return -np.inf if dtype.kind == "f" else np.iinfo(dtype).min


@register("tosa.max_pool2d", prepare=_prepare_conv)
def _max_pool(frame, step: Step, x):
    if x.ndim != 4:
        raise fail(step, f"needs a rank-4 input, got shape {x.shape}")
    if x.dtype.kind not in "fiu":
        raise fail(step, f"on {x.dtype} elements is not supported")
    kernel = step.attrs["kernel"]
    out_shape = _out_shape(step, x, x.shape[-1])
    pad, stride, dilation = _geometry(step, x, kernel, out_shape)
    ignore = step.attrs["ignore_nan"] and x.dtype.kind == "f"
    # padding never wins: the lowest value, or a NaN that IGNORE skips
    fill = np.nan if ignore else _lowest(x.dtype)
    combine = minmax.maximum_number if ignore else minmax.maximum
    best = np.full(out_shape, fill, dtype=x.dtype)
    for _, cells, _ in _windows(x, fill, kernel, pad, stride, dilation, out_shape[1:-1]):
        best = combine(best, cells)
    return [best.astype(step.attrs["dtype"], copy=False)]


@register("tosa.avg_pool2d", prepare=_prepare_conv)
def _avg_pool(frame, step: Step, x, x_zp, out_zp):
    if x.ndim != 4:
        raise fail(step, f"needs a rank-4 input, got shape {x.shape}")
    if x.dtype.kind != "f":
        raise fail(step, f"on {x.dtype} elements is not supported (integer average pooling rescales)")
    if _scalar(step, x_zp, "input zero point") or _scalar(step, out_zp, "output zero point"):
        raise fail(step, "has non-zero zero points on floats")
    kernel = step.attrs["kernel"]
    dtype = step.attrs["dtype"]
    acc_t = _accumulate(step, x)  # the sum and the division in acc_type, then the result's type
    out_shape = _out_shape(step, x, x.shape[-1])
    pad, stride, dilation = _geometry(step, x, kernel, out_shape)
    total = np.zeros(out_shape, dtype=acc_t)
    count = np.zeros(out_shape[1:-1], dtype=np.int64)
    with np.errstate(all="ignore"):
        for _, cells, inside in _windows(x.astype(acc_t), 0, kernel, pad, stride, dilation, out_shape[1:-1]):
            total = total + cells
            count = count + inside
        result = total / np.maximum(count, 1).astype(acc_t)[None, ..., None]
    return [result.astype(dtype, copy=False)]
