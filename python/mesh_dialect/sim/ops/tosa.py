"""tosa on numpy values (the TOSA 1.0 form of this MLIR version).

Operands that this version passes as values rather than attributes are read
at run time: zero points and the `mul` shift are one-element tensors, and
`reshape`, `slice`, `tile` and `pad` take `!tosa.shape` values, which are
tuples of ints here (made by `tosa.const_shape`).

Results follow MLIR's tosa-to-linalg lowering, which is what a compiled
program computes: integer arithmetic wraps in the element type, float
reductions and `matmul` accumulate in loop order from a +0.0 (or 1.0)
start, `cast` from float to int rounds half to even. Where the lowering and
the TOSA specification give different answers for float-to-int casts (out
of range, NaN) the op fails instead of picking one; `reduce_max`/`reduce_min`
give the true extreme as the specification does (the lowering starts from
the largest finite value, so it differs on rows of infinities).  Float max
and min, in either nan_mode, order -0.0 below +0.0 (`sim.minmax`).

Convolutions and pooling (`conv2d`, `conv3d`, `depthwise_conv2d`,
`max_pool2d`, `avg_pool2d`) are in `tosa_window.py`.  Not run (no handler,
so compiling fails naming the op): transpose_conv2d, resize, rescale,
table, fft, the shape-arithmetic ops, variables and the region ops
cond_if/while_loop.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from mlir import ir

from .. import minmax
from ..floats import to_bf16
from ..program import Compiler, Step, dtype_of, fail, register
from .core import tensor_constant

# ---------------------------------------------------------------------------
# Helpers.


def _result_dtype(c: Compiler, op: ir.Operation) -> dict:
    return {"dtype": dtype_of(op.results[0].type)}


def _with(*preparers: Callable[[Compiler, ir.Operation], dict]):
    """A prepare function merging several."""

    def prepare(c: Compiler, op: ir.Operation) -> dict:
        out: dict = {}
        for p in preparers:
            out.update(p(c, op))
        return out

    return prepare


def _int_attr(name: str, key: str | None = None):
    def prepare(c: Compiler, op: ir.Operation) -> dict:
        return {key or name: ir.IntegerAttr(op.attributes[name]).value}

    return prepare


def _nan_mode(c: Compiler, op: ir.Operation) -> dict:
    """True when NaNs are ignored (nan_mode = IGNORE); PROPAGATE is the default."""
    if "nan_mode" not in op.attributes:
        return {"ignore_nan": False}
    text = str(op.attributes["nan_mode"])
    if "IGNORE" in text:
        return {"ignore_nan": True}
    if "PROPAGATE" in text:
        return {"ignore_nan": False}
    raise ValueError(f"nan_mode {text}")


def _out(value, dtype: np.dtype) -> np.ndarray:
    """`value` as a fresh array of `dtype` (integer conversions wrap)."""
    with np.errstate(all="ignore"):
        return np.array(value, dtype=dtype, copy=True, order="C")


def _broadcast(step: Step, *arrays: np.ndarray) -> None:
    """TOSA broadcasting: equal ranks, each dim equal or 1."""
    rank = arrays[0].ndim
    if any(a.ndim != rank for a in arrays):
        raise fail(step, f"needs operands of equal rank, got shapes {[a.shape for a in arrays]}")
    try:
        np.broadcast_shapes(*(a.shape for a in arrays))
    except ValueError:
        raise fail(step, f"cannot broadcast shapes {[a.shape for a in arrays]}") from None


def _scalar_operand(step: Step, value, what: str) -> int | float:
    """The single value of a one-element tensor operand (zero point, shift)."""
    arr = np.asarray(value)
    if arr.size != 1:
        raise fail(step, f"needs a one-element {what}, got shape {arr.shape}")
    return arr.reshape(()).item()


def _unsigned(dtype: np.dtype) -> np.dtype:
    return np.dtype(f"u{dtype.itemsize}") if dtype.kind == "i" else dtype


def _require_int(step: Step, dtype: np.dtype) -> None:
    if dtype.kind not in "iu":
        raise fail(step, f"on {dtype} elements is not supported (TOSA defines it for integers)")


# ---------------------------------------------------------------------------
# Elementwise ops.


def _elementwise(name: str, fn, *, kinds: str = "iufb", prepare=_result_dtype) -> None:
    """Register `tosa.<name>` computing `fn(step, *operands)` then converting
    to the result type; `kinds` are the numpy kinds of the first operand it
    accepts."""

    def run(frame, step: Step, *xs):
        _broadcast(step, *xs)
        if xs[0].dtype.kind not in kinds:
            raise fail(step, f"on {xs[0].dtype} elements is not supported")
        with np.errstate(all="ignore"):
            return [_out(fn(step, *xs), step.attrs["dtype"])]

    register("tosa." + name, prepare=prepare)(run)


def _float_const(x: np.ndarray, v: float):
    return x.dtype.type(v)


_elementwise("add", lambda s, a, b: np.add(a, b), kinds="iuf")
_elementwise("sub", lambda s, a, b: np.subtract(a, b), kinds="iuf")
_elementwise("abs", lambda s, a: np.abs(a), kinds="iuf")
_elementwise("bitwise_and", lambda s, a, b: np.bitwise_and(a, b), kinds="iu")
_elementwise("bitwise_or", lambda s, a, b: np.bitwise_or(a, b), kinds="iu")
_elementwise("bitwise_xor", lambda s, a, b: np.bitwise_xor(a, b), kinds="iu")
_elementwise("bitwise_not", lambda s, a: np.invert(a), kinds="iu")
_elementwise("logical_and", lambda s, a, b: np.logical_and(a, b), kinds="b")
_elementwise("logical_or", lambda s, a, b: np.logical_or(a, b), kinds="b")
_elementwise("logical_xor", lambda s, a, b: np.logical_xor(a, b), kinds="b")
_elementwise("logical_not", lambda s, a: np.logical_not(a), kinds="b")
_elementwise("greater", lambda s, a, b: np.greater(a, b), kinds="iuf")
_elementwise("greater_equal", lambda s, a, b: np.greater_equal(a, b), kinds="iuf")
_elementwise("equal", lambda s, a, b: np.equal(a, b), kinds="iufb")
_elementwise("select", lambda s, c, a, b: np.where(c, a, b), kinds="b")

for _name, _fn in {
    "exp": np.exp,
    "log": np.log,
    "tanh": np.tanh,
    "sin": np.sin,
    "cos": np.cos,
    "ceil": np.ceil,
    "floor": np.floor,
    "erf": np.vectorize(math.erf, otypes=[np.float64]),
}.items():
    _elementwise(_name, lambda s, a, _fn=_fn: _fn(a), kinds="f")
_elementwise("pow", lambda s, a, b: np.power(a, b), kinds="f")
_elementwise("reciprocal", lambda s, a: _float_const(a, 1) / a, kinds="f")
_elementwise("rsqrt", lambda s, a: _float_const(a, 1) / np.sqrt(a), kinds="f")
_elementwise(
    "sigmoid",
    lambda s, a: _float_const(a, 1) / (np.exp(-a) + _float_const(a, 1)),
    kinds="f",
)


def _max_min(s: Step, a, b, propagate, ignore):
    if a.dtype.kind == "f" and s.attrs["ignore_nan"]:
        return ignore(a, b)
    return propagate(a, b)


_elementwise(
    "maximum",
    lambda s, a, b: _max_min(s, a, b, minmax.maximum, minmax.maximum_number),
    kinds="iuf",
    prepare=_with(_result_dtype, _nan_mode),
)
_elementwise(
    "minimum",
    lambda s, a, b: _max_min(s, a, b, minmax.minimum, minmax.minimum_number),
    kinds="iuf",
    prepare=_with(_result_dtype, _nan_mode),
)


def _intdiv(s: Step, a, b):
    if np.any(b == 0):
        raise fail(s, "divides by zero")
    if a.dtype.kind == "i" and np.any((a == np.iinfo(a.dtype).min) & (b == -1)):
        raise fail(s, "overflows (the most negative value divided by -1)")
    q = np.floor_divide(a, b)
    fix = (np.remainder(a, b) != 0) & ((a < 0) != (b < 0))
    return q + fix.astype(q.dtype)  # round toward zero, as arith.divsi


_elementwise("intdiv", _intdiv, kinds="iu")


def _check_shift(s: Step, a, b) -> None:
    bits = a.dtype.itemsize * 8
    if np.any((b < 0) | (b >= bits)):
        raise fail(s, f"shifts by an amount outside [0, {bits})")


def _shl(s: Step, a, b):
    _check_shift(s, a, b)
    return np.left_shift(a, b.astype(a.dtype))


def _shr_logical(s: Step, a, b):
    _check_shift(s, a, b)
    u = _unsigned(a.dtype)
    return np.right_shift(a.astype(u), b.astype(u)).astype(a.dtype)


def _prepare_round(c: Compiler, op: ir.Operation) -> dict:
    return {"round": bool(ir.BoolAttr(op.attributes["round"]).value) if "round" in op.attributes else False}


def _shr_arith(s: Step, a, b):
    _check_shift(s, a, b)
    b = b.astype(a.dtype)
    out = np.right_shift(a, b)
    if s.attrs["round"]:
        last = np.right_shift(a, np.where(b > 0, b - 1, 0)) & 1
        out = out + np.where(b > 0, last, 0).astype(a.dtype)
    return out


_elementwise("logical_left_shift", _shl, kinds="iu")
_elementwise("logical_right_shift", _shr_logical, kinds="iu")
_elementwise("arithmetic_right_shift", _shr_arith, kinds="iu", prepare=_with(_result_dtype, _prepare_round))


def _clz(s: Step, a):
    bits = a.dtype.itemsize * 8
    u = a.astype(_unsigned(a.dtype))
    count = np.full(a.shape, bits, dtype=np.int64)
    for i in range(bits):  # the highest set bit decides
        count = np.where(((u >> np.array(i, u.dtype)) & 1) == 1, bits - 1 - i, count)
    return count


_elementwise("clz", _clz, kinds="iu")


@register("tosa.mul", prepare=_result_dtype)
def _mul(frame, step: Step, a, b, shift):
    _broadcast(step, a, b)
    dtype = step.attrs["dtype"]
    s = int(_scalar_operand(step, shift, "shift"))
    if a.dtype.kind == "f":
        if s != 0:
            raise fail(step, f"has shift {s} on floats (only 0 is valid)")
        return [_out(np.multiply(a, b), dtype)]
    _require_int(step, a.dtype)
    if s == 0:
        with np.errstate(all="ignore"):
            return [_out(np.multiply(a.astype(dtype), b.astype(dtype)), dtype)]
    if not 0 < s < 63:
        raise fail(step, f"has shift {s} outside [0, 62]")
    # tosa.apply_scale (single round): 64-bit product, rounded, shifted,
    # truncated to i32 and then to the result type.
    product = a.astype(np.int32).astype(np.int64) * b.astype(np.int32).astype(np.int64)
    with np.errstate(all="ignore"):
        scaled = (product + (np.int64(1) << np.int64(s - 1))) >> np.int64(s)
        return [_out(scaled.astype(np.int32), dtype)]


@register("tosa.negate", prepare=_result_dtype)
def _negate(frame, step: Step, x, in_zp, out_zp):
    dtype = step.attrs["dtype"]
    zi = _scalar_operand(step, in_zp, "input zero point")
    zo = _scalar_operand(step, out_zp, "output zero point")
    if x.dtype.kind == "f":
        if zi != 0 or zo != 0:
            raise fail(step, "has non-zero zero points on floats")
        return [_out(np.negative(x), dtype)]
    _require_int(step, x.dtype)
    if zi == 0 and zo == 0:
        with np.errstate(all="ignore"):
            return [_out(np.negative(x), dtype)]  # 0 - x, wrapping
    info = np.iinfo(x.dtype)
    value = np.clip(int(zi) + int(zo) - x.astype(np.int64), info.min, info.max)
    return [_out(value, dtype)]


def _prepare_clamp(c: Compiler, op: ir.Operation) -> dict:
    dtype = dtype_of(op.results[0].type)
    lo, hi = op.attributes["min_val"], op.attributes["max_val"]
    if dtype.kind == "f":
        return {"lo": dtype.type(ir.FloatAttr(lo).value), "hi": dtype.type(ir.FloatAttr(hi).value)}
    lo_i, hi_i = ir.IntegerAttr(lo).value, ir.IntegerAttr(hi).value
    info = np.iinfo(dtype) if dtype.kind in "iu" else None
    if info is None:
        raise ValueError(f"clamp on {dtype} elements")
    lo_i = min(max(lo_i, info.min), info.max)
    hi_i = min(max(hi_i, info.min), info.max)
    return {"lo": dtype.type(lo_i), "hi": dtype.type(hi_i)}


@register("tosa.clamp", prepare=_with(_result_dtype, _nan_mode, _prepare_clamp))
def _clamp(frame, step: Step, x):
    dtype = step.attrs["dtype"]
    lo, hi = step.attrs["lo"], step.attrs["hi"]
    out = minmax.minimum(hi, minmax.maximum(lo, x))  # as the lowering: min(hi, max(lo, x))
    if dtype.kind == "f" and step.attrs["ignore_nan"]:
        out = np.where(np.isnan(x), lo, out)
    return [_out(out, dtype)]


@register("tosa.cast", prepare=_result_dtype)
def _cast(frame, step: Step, x):
    dtype = step.attrs["dtype"]
    src = x.dtype
    if src == dtype:
        return [_out(x, dtype)]
    if dtype.kind == "b":
        return [np.not_equal(x, 0)]  # floats: NaN is "not equal", so true
    if src.kind == "f" and dtype.kind in "iu":
        info = np.iinfo(dtype)
        rounded = np.rint(x)  # half to even
        if np.any(np.isnan(rounded)) or np.any((rounded < info.min) | (rounded > info.max)):
            raise fail(
                step,
                f"casts a NaN or a value outside the range of {dtype}: TOSA and its lowering "
                "disagree on the result, so the simulator does not pick one",
            )
        return [_out(rounded, dtype)]
    # float<->float rounds to nearest, int->float rounds to nearest, i1
    # converts to 0/1, int->int sign-extends or truncates (wrapping).
    if step.bf16:  # once from the source, not through f32
        return [to_bf16(x if src.kind == "f" else x.astype(np.float64))]
    return [_out(x, dtype)]


# ---------------------------------------------------------------------------
# matmul


@register("tosa.matmul", prepare=_result_dtype)
def _matmul(frame, step: Step, a, b, a_zp, b_zp):
    dtype = step.attrs["dtype"]
    if a.ndim != 3 or b.ndim != 3:
        raise fail(step, f"needs 3-D operands, got shapes {a.shape} and {b.shape}")
    n, h, c = a.shape
    if b.shape[0] != n or b.shape[1] != c:
        raise fail(step, f"cannot multiply shapes {a.shape} and {b.shape}")
    za = _scalar_operand(step, a_zp, "zero point of A")
    zb = _scalar_operand(step, b_zp, "zero point of B")
    if a.dtype.kind == "f":
        if za != 0 or zb != 0:
            raise fail(step, "has non-zero zero points on floats")
        # batch_matmul from a +0.0 fill: acc + a*b in the result type, k in order.
        aa, bb = a.astype(dtype), b.astype(dtype)
        acc = np.zeros((n, h, b.shape[2]), dtype=dtype)
        for k in range(c):
            acc = acc + aa[:, :, k, None] * bb[:, None, k, :]
        return [acc]
    _require_int(step, a.dtype)
    if dtype.kind not in "iu":
        raise fail(step, f"from integers to {dtype} is not supported")
    # Integer sums wrap, so any order gives the same bits: compute modulo
    # 2**64 (well defined for uint64) and truncate.
    aa = (a.astype(np.int64) - int(za)).astype(np.uint64)
    bb = (b.astype(np.int64) - int(zb)).astype(np.uint64)
    with np.errstate(all="ignore"):
        return [_out(np.matmul(aa, bb).astype(np.int64), dtype)]


# ---------------------------------------------------------------------------
# Reductions.


def _axis(step: Step, x: np.ndarray) -> int:
    axis = step.attrs["axis"]
    if not 0 <= axis < x.ndim:
        raise fail(step, f"has axis {axis} for a rank-{x.ndim} operand")
    return axis


def _in_order(ufunc: np.ufunc, x: np.ndarray, axis: int, init, dtype: np.dtype) -> np.ndarray:
    """Fold `x` along `axis` into `init` one element after the other, as the
    lowered loop does (float sums depend on the order)."""
    moved = np.moveaxis(x.astype(dtype, copy=False), axis, -1)
    start = np.full(moved.shape[:-1] + (1,), init, dtype=dtype)
    seq = np.concatenate([start, moved], axis=-1)
    return np.expand_dims(ufunc.accumulate(seq, axis=-1, dtype=dtype)[..., -1], axis)


def _reduce(name: str, kinds: str, run_kind) -> None:
    def run(frame, step: Step, x):
        if x.dtype.kind not in kinds:
            raise fail(step, f"on {x.dtype} elements is not supported")
        axis = _axis(step, x)
        with np.errstate(all="ignore"):
            return [_out(run_kind(step, x, axis), step.attrs["dtype"])]

    register("tosa." + name, prepare=_with(_result_dtype, _int_attr("axis"), _nan_mode))(run)


def _sum(step: Step, x, axis):
    if x.dtype.kind == "f":
        return _in_order(np.add, x, axis, 0.0, x.dtype)
    return np.add.reduce(x, axis=axis, dtype=x.dtype, keepdims=True)


def _prod(step: Step, x, axis):
    if x.dtype.kind == "f":
        return _in_order(np.multiply, x, axis, 1.0, x.dtype)
    return np.multiply.reduce(x, axis=axis, dtype=x.dtype, keepdims=True)


def _extreme(propagate, ignore):
    """`propagate`/`ignore`: a pair from `sim.minmax` (-0.0 < +0.0)."""

    def run(step: Step, x, axis):
        if x.shape[axis] == 0:
            raise fail(step, "reduces an empty axis")
        fn = ignore if x.dtype.kind == "f" and step.attrs["ignore_nan"] else propagate
        return minmax.reduce(fn, x, axis, keepdims=True)

    return run


_reduce("reduce_sum", "iuf", _sum)
_reduce("reduce_product", "iuf", _prod)
_reduce("reduce_max", "iuf", _extreme(minmax.maximum, minmax.maximum_number))
_reduce("reduce_min", "iuf", _extreme(minmax.minimum, minmax.minimum_number))
_reduce("reduce_all", "b", lambda s, x, axis: np.logical_and.reduce(x, axis=axis, keepdims=True))
_reduce("reduce_any", "b", lambda s, x, axis: np.logical_or.reduce(x, axis=axis, keepdims=True))


@register("tosa.argmax", prepare=_with(_result_dtype, _int_attr("axis"), _nan_mode))
def _argmax(frame, step: Step, x):
    axis = _axis(step, x)
    if x.shape[axis] == 0:
        raise fail(step, "reduces an empty axis")
    if x.dtype.kind == "f" and step.attrs["ignore_nan"]:
        x = np.where(np.isnan(x), -np.inf, x)  # an all-NaN row gives index 0
    return [_out(np.argmax(x, axis=axis), step.attrs["dtype"])]  # first of equal maxima; NaN wins


# ---------------------------------------------------------------------------
# Data movement and constants.


def _prepare_values(c: Compiler, op: ir.Operation) -> dict:
    return {"value": tensor_constant(op.attributes["values"], op.results[0].type)}


@register("tosa.const", prepare=_prepare_values)
def _const(frame, step: Step):
    return [step.attrs["value"].copy()]


def _prepare_shape(c: Compiler, op: ir.Operation) -> dict:
    # index elements come back unsigned; shapes may hold -1
    values = (int(v) for v in ir.DenseIntElementsAttr(op.attributes["values"]))
    return {"value": tuple(v - (1 << 64) if v >= 1 << 63 else v for v in values)}


@register("tosa.const_shape", prepare=_prepare_shape)
def _const_shape(frame, step: Step):
    return [step.attrs["value"]]


def _shape_operand(step: Step, value, what: str) -> tuple[int, ...]:
    if isinstance(value, tuple):
        return value
    arr = np.asarray(value)
    if arr.ndim != 1 or arr.dtype.kind not in "iu":
        raise fail(step, f"needs a shape value for its {what}, got {value!r}")
    return tuple(int(v) for v in arr)


@register("tosa.identity")
def _identity(frame, step: Step, x):
    return [np.array(x, copy=True, order="C")]


def _prepare_perms(c: Compiler, op: ir.Operation) -> dict:
    return {"perms": [int(p) for p in ir.DenseI32ArrayAttr(op.attributes["perms"])]}


@register("tosa.transpose", prepare=_prepare_perms)
def _transpose(frame, step: Step, x):
    perms = step.attrs["perms"]
    if sorted(perms) != list(range(x.ndim)):
        raise fail(step, f"has perms {perms} that do not permute a rank-{x.ndim} operand")
    return [np.array(np.transpose(x, perms), copy=True, order="C")]


@register("tosa.reshape")
def _reshape(frame, step: Step, x, shape):
    new = _shape_operand(step, shape, "new shape")
    try:
        return [np.array(x.reshape(new), copy=True, order="C")]
    except ValueError:
        raise fail(step, f"cannot reshape {x.shape} to {new}") from None


@register("tosa.slice")
def _slice(frame, step: Step, x, start, size):
    start = _shape_operand(step, start, "start")
    size = _shape_operand(step, size, "size")
    if len(start) != x.ndim or len(size) != x.ndim:
        raise fail(step, f"needs start and size of rank {x.ndim}")
    index = []
    for d, (s, n, dim) in enumerate(zip(start, size, x.shape)):
        n = dim - s if n == -1 else n
        if s < 0 or n < 0 or s + n > dim:
            raise fail(step, f"reads [{s}, {s + n}) of dim {d}, which has size {dim}")
        index.append(slice(s, s + n))
    return [np.array(x[tuple(index)], copy=True, order="C")]


@register("tosa.tile")
def _tile(frame, step: Step, x, multiples):
    reps = _shape_operand(step, multiples, "multiples")
    if len(reps) != x.ndim or any(r < 0 for r in reps):
        raise fail(step, f"has multiples {reps} for a rank-{x.ndim} operand")
    return [np.tile(x, reps)]


@register("tosa.pad")
def _pad(frame, step: Step, x, padding, pad_const):
    pads = _shape_operand(step, padding, "padding")
    if len(pads) != 2 * x.ndim or any(p < 0 for p in pads):
        raise fail(step, f"has padding {pads} for a rank-{x.ndim} operand")
    value = _scalar_operand(step, pad_const, "pad value")
    pairs = [(pads[2 * d], pads[2 * d + 1]) for d in range(x.ndim)]
    return [np.pad(x, pairs, mode="constant", constant_values=x.dtype.type(value))]


@register("tosa.concat", prepare=_int_attr("axis"))
def _concat(frame, step: Step, *xs):
    axis = _axis(step, xs[0])
    try:
        return [np.concatenate(xs, axis=axis)]
    except ValueError as e:
        raise fail(step, f"cannot concatenate: {e}") from None


@register("tosa.reverse", prepare=_int_attr("axis"))
def _reverse(frame, step: Step, x):
    return [np.array(np.flip(x, _axis(step, x)), copy=True, order="C")]


@register("tosa.gather")
def _gather(frame, step: Step, values, indices):
    if values.ndim != 3 or indices.ndim != 2 or indices.shape[0] != values.shape[0]:
        raise fail(step, f"needs values [N,K,C] and indices [N,W], got {values.shape} and {indices.shape}")
    if np.any((indices < 0) | (indices >= values.shape[1])):
        raise fail(step, f"has an index outside [0, {values.shape[1]})")
    return [np.take_along_axis(values, indices.astype(np.int64)[:, :, None], axis=1)]


@register("tosa.scatter")
def _scatter(frame, step: Step, values_in, indices, source):
    n, k, c = values_in.shape if values_in.ndim == 3 else (None, None, None)
    if n is None or indices.ndim != 2 or source.shape != indices.shape + (c,) or indices.shape[0] != n:
        raise fail(step, f"has shapes {values_in.shape}, {indices.shape}, {source.shape} that do not fit")
    if np.any((indices < 0) | (indices >= k)):
        raise fail(step, f"has an index outside [0, {k})")
    for row in indices:
        if len(set(row.tolist())) != len(row):
            raise fail(step, "writes one position twice (undefined in TOSA)")
    out = np.array(values_in, copy=True, order="C")
    for i in range(n):
        out[i, indices[i].astype(np.int64), :] = source[i]
    return [out]
