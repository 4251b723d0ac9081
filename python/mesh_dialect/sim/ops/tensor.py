"""The tensor dialect on numpy arrays (tensors are values: every op returns a
fresh array)."""

from __future__ import annotations

from typing import Any

import numpy as np
from mlir import ir

from ...ir.schema import DYNAMIC
from ..layout import garbage
from ..program import Compiler, dtype_of, fail, register, run_block_now


def _type_attrs(c: Compiler, op: ir.Operation) -> dict[str, Any]:
    t = ir.ShapedType(op.results[0].type)
    return {"dtype": dtype_of(t), "shape": [None if t.is_dynamic_dim(i) else d for i, d in enumerate(t.shape)]}


def _fill_shape(static: list[int | None], dynamic) -> tuple[int, ...]:
    it = iter(dynamic)
    return tuple(int(next(it)) if d is None else d for d in static)


@register("tensor.empty", prepare=_type_attrs)
def _empty(frame, step, *sizes):
    # The contents of tensor.empty are undefined: garbage, so that a use shows.
    return [garbage(_fill_shape(step.attrs["shape"], sizes), step.attrs["dtype"])]


@register("tensor.splat", prepare=_type_attrs)
def _splat(frame, step, value, *sizes):
    return [np.full(_fill_shape(step.attrs["shape"], sizes), value, dtype=step.attrs["dtype"])]


@register("tensor.from_elements", prepare=_type_attrs)
def _from_elements(frame, step, *elements):
    return [np.array(elements, dtype=step.attrs["dtype"]).reshape(step.attrs["shape"])]


def _index(step, t: np.ndarray, indices) -> tuple[int, ...]:
    idx = tuple(int(i) for i in indices)
    for axis, (i, n) in enumerate(zip(idx, t.shape)):
        if not 0 <= i < n:
            raise fail(step, f"index {i} is out of bounds for dimension {axis} of size {n}")
    return idx


@register("tensor.extract")
def _extract(frame, step, t, *indices):
    return [t[_index(step, t, indices)]]


@register("tensor.insert")
def _insert(frame, step, value, t, *indices):
    out = t.copy()
    out[_index(step, t, indices)] = value
    return [out]


@register("tensor.dim")
def _dim(frame, step, t, index):
    i = int(index)
    if not 0 <= i < t.ndim:
        raise fail(step, f"dimension {i} is out of range for a tensor of rank {t.ndim}")
    return [np.int64(t.shape[i])]


@register("tensor.rank")
def _rank(frame, step, t):
    return [np.int64(t.ndim)]


@register("tensor.cast")
def _cast(frame, step, t):
    want = ir.ShapedType(step.attrs["result_types"][0])
    for i, d in enumerate(want.shape):
        if not want.is_dynamic_dim(i) and d != t.shape[i]:
            raise fail(step, f"casts a tensor of shape {list(t.shape)} to {want}")
    return [t]


@register("tensor.bitcast", prepare=_type_attrs)
def _bitcast(frame, step, t):
    return [t.view(step.attrs["dtype"])]


def _slice_attrs(c: Compiler, op: ir.Operation) -> dict[str, Any]:
    def static(name):
        return [None if v == DYNAMIC else v for v in op.attributes[name]]

    return {
        "offsets": static("static_offsets"),
        "sizes": static("static_sizes"),
        "strides": static("static_strides"),
        "segments": list(op.attributes["operandSegmentSizes"]),
    }


def _slices(step, dynamic, source_shape) -> tuple[tuple[slice, ...], tuple[int, ...]]:
    """numpy slices of an extract/insert_slice and the full slice shape."""
    a = step.attrs
    n_off, n_size = a["segments"][-3], a["segments"][-2]
    offsets = _fill_shape(a["offsets"], dynamic[:n_off])
    sizes = _fill_shape(a["sizes"], dynamic[n_off : n_off + n_size])
    strides = _fill_shape(a["strides"], dynamic[n_off + n_size :])
    out = []
    for axis, (o, s, st, n) in enumerate(zip(offsets, sizes, strides, source_shape)):
        last = o + (s - 1) * st if s else o
        if o < 0 or s < 0 or st < 1 or (s and last >= n):
            raise fail(step, f"slice offset {o}, size {s}, stride {st} does not fit dimension {axis} of size {n}")
        out.append(slice(o, o + s * st, st))
    return tuple(out), sizes


@register("tensor.extract_slice", prepare=_slice_attrs)
def _extract_slice(frame, step, source, *dynamic):
    slices, sizes = _slices(step, dynamic, source.shape)
    result = np.ascontiguousarray(source[slices])
    want = ir.ShapedType(step.attrs["result_types"][0])
    return [result.reshape(_reduced_shape(want, step.attrs["sizes"], list(result.shape)))]


def _reduced_shape(want: ir.ShapedType, static: list[int | None], sizes: list[int]) -> list[int]:
    """The slice's sizes with the unit dimensions rank reduction drops, as
    MLIR matches them: a size is kept when its static value (None: dynamic)
    is the next result dimension's, dynamic meeting dynamic, else dropped
    (only a static unit size may be).  Dropping every unit size would turn
    tensor<1x3> into tensor<3>; matching a static 1 to a dynamic result
    dimension would keep the wrong one."""
    if want.rank == len(sizes):
        return sizes
    out: list[int] = []
    for given, size in zip(static, sizes):
        j = len(out)
        if j < want.rank and (None if want.is_dynamic_dim(j) else want.shape[j]) == given:
            out.append(size)
    return out


@register("tensor.insert_slice", prepare=_slice_attrs)
def _insert_slice(frame, step, source, dest, *dynamic):
    slices, sizes = _slices(step, dynamic, dest.shape)
    out = dest.copy()
    out[slices] = source.reshape(sizes)
    return [out]


@register("tensor.concat", prepare=lambda c, op: {"dim": ir.IntegerAttr(op.attributes["dim"]).value})
def _concat(frame, step, *inputs):
    return [np.concatenate(inputs, axis=step.attrs["dim"])]


def _reassociation(op: ir.Operation) -> list[list[int]]:
    return [[ir.IntegerAttr(i).value for i in ir.ArrayAttr(g)] for g in ir.ArrayAttr(op.attributes["reassociation"])]


@register("tensor.collapse_shape", prepare=lambda c, op: {"groups": _reassociation(op)})
def _collapse(frame, step, t):
    shape = [int(np.prod([t.shape[i] for i in g], dtype=np.int64)) for g in step.attrs["groups"]]
    return [t.reshape(shape)]


def _expand_attrs(c: Compiler, op: ir.Operation) -> dict[str, Any]:
    return {"static": [None if v == DYNAMIC else v for v in op.attributes["static_output_shape"]]}


@register("tensor.expand_shape", prepare=_expand_attrs)
def _expand(frame, step, t, *dynamic):
    return [t.reshape(_fill_shape(step.attrs["static"], dynamic))]


@register("tensor.reshape")
def _reshape(frame, step, t, shape):
    new = tuple(int(s) for s in np.asarray(shape))
    if int(np.prod(new, dtype=np.int64)) != t.size:
        raise fail(step, f"cannot reshape {list(t.shape)} to {list(new)}")
    return [t.reshape(new)]


def _pad_attrs(c: Compiler, op: ir.Operation) -> dict[str, Any]:
    return {
        "low": [None if v == DYNAMIC else v for v in op.attributes["static_low"]],
        "high": [None if v == DYNAMIC else v for v in op.attributes["static_high"]],
        **_type_attrs(c, op),
    }


@register("tensor.pad", prepare=_pad_attrs)
def _pad(frame, step, source, *dynamic):
    n_low = sum(1 for v in step.attrs["low"] if v is None)
    low = _fill_shape(step.attrs["low"], dynamic[:n_low])
    high = _fill_shape(step.attrs["high"], dynamic[n_low:])
    (body,) = step.regions
    if any(v < 0 for v in low + high):
        raise fail(step, "has a negative padding")
    out_shape = tuple(n + lo + hi for n, lo, hi in zip(source.shape, low, high))
    # The body yields the padding value; a body that ignores its indices is
    # evaluated once, otherwise once per padded element.
    first = run_block_now(frame, body, [np.int64(0)] * source.ndim)[0]
    out = np.full(out_shape, first, dtype=step.attrs["dtype"])
    if _uses_args(body):
        for idx in np.ndindex(*out_shape):
            inside = all(lo <= i < lo + n for i, lo, n in zip(idx, low, source.shape))
            if not inside:
                out[idx] = run_block_now(frame, body, [np.int64(i) for i in idx])[0]
    core = tuple(slice(lo, lo + n) for lo, n in zip(low, source.shape))
    out[core] = source
    return [out]


def _uses_args(block) -> bool:
    args = set(block.args)
    return any(set(s.operands) & args for s in block.steps) or (
        block.terminator is not None and bool(set(block.terminator.operands) & args)
    )


@register("tensor.generate", prepare=_type_attrs)
def _generate(frame, step, *sizes):
    shape = _fill_shape(step.attrs["shape"], sizes)
    (body,) = step.regions
    out = np.empty(shape, dtype=step.attrs["dtype"])
    for idx in np.ndindex(*shape):
        out[idx] = run_block_now(frame, body, [np.int64(i) for i in idx])[0]
    return [out]
