"""StableHLO (and mhlo, chlo) in generic form on numpy values.

These bindings have no stablehlo dialect, so JAX's exports are read in
generic form (`"stablehlo.add"(%a, %b) : ...`) as ops of an unregistered
dialect; their attributes are then opaque (`#stablehlo<comparison_direction
GT>`, `#stablehlo.dot<...>`) and read from their text. mhlo ops of the same
name run the same way.

Tensors are numpy arrays (rank 0 too), always fresh. Results follow the
StableHLO specification where it defines them and XLA where it leaves them
to the implementation: integer arithmetic wraps in the element type,
integer division truncates toward zero (a zero divisor is an error, as in
`arith`), float-to-integer `convert` truncates and saturates (NaN becomes
0), `reduce_precision` flushes values below the narrow format's normal
range to zero, `sign` keeps -0.0 and NaN, float `maximum`, `minimum` and
`clamp` order -0.0 below +0.0 (`sim.minmax`). `dot_general` goes through
numpy's einsum in the result type; `reduce` with a single `add`,
`multiply`, `maximum`, `minimum`, `and`, `or` or `xor` body combines with
numpy's reduction, any other body (JAX's argmax: compare and select over
two inputs) runs element by element along the reduced dimensions in
row-major order, starting from the init values.

`scatter` drops a whole update window that does not fit the input (XLA's
choice; the specification leaves it open) and applies the rest in the
updates' row-major order.

`sort` runs its comparator on every pair of a row at once (any body,
vectorized) and places each element after those that compare below it and
the equal ones before it: a stable sort, a valid order where `is_stable`
is false. chlo's `top_k` is a stable sort by IEEE total order, descending,
cut at k, as XLA gives it (NaN first, +0.0 before -0.0).

Not run (compiling names the op): a reduce_window of several inputs,
a padded select_and_scatter, fft, rng, complex numbers, and custom calls
other than GSPMD's `@Sharding` (an identity).
"""

from __future__ import annotations

import math
import re

import numpy as np
from mlir import ir

from ...ir.control import malformed
from ...ir.hlo import (
    MISFIT,
    OversizedList,
    bools_of,
    conv_dimensions,
    dot_dimensions,
    gather_dimensions,
    gather_problem,
    int_list,
    scatter_dimensions,
    scatter_problem,
)
from .. import minmax
from ..program import Block, Compiler, Step, dtype_of, fail, register, run_block, run_block_now
from .core import _div_trunc, _rem_trunc, round_half_away, tensor_constant

DIALECTS = ("stablehlo", "mhlo")
"""Dialects whose ops of one name mean the same here."""

# ---------------------------------------------------------------------------
# Reading attributes


def _ints(attr: ir.Attribute) -> list[int]:
    try:
        found = int_list(attr)
    except OversizedList as e:
        raise ValueError(str(e)) from None
    if found is None:
        raise ValueError(f"expected an integer list attribute, got {attr}")
    return found


def _int_attr(op: ir.Operation, name: str) -> int:
    return ir.IntegerAttr(op.attributes[name]).value


def _enum(op: ir.Operation, name: str, kind: str) -> str | None:
    """`#stablehlo<comparison_direction GT>` (or mhlo's) as "GT"."""
    if name not in op.attributes:
        return None
    found = re.search(kind + r"\s+(\w+)", str(op.attributes[name]))
    if found is None:
        raise ValueError(f"{name} = {op.attributes[name]} is not a {kind}")
    return found.group(1)


def _shape(t: ir.Type) -> list[int | None]:
    st = ir.ShapedType(t)
    return [None if st.is_dynamic_dim(d) else n for d, n in enumerate(st.shape)]


def _result(c: Compiler, op: ir.Operation) -> dict:
    return {"dtype": dtype_of(op.results[0].type), "shape": _shape(op.results[0].type)}


def _out(value, dtype: np.dtype) -> np.ndarray:
    """`value` as an array of `dtype` (integer conversions wrap); a copy
    when it would share memory with an operand."""
    with np.errstate(all="ignore"):
        if isinstance(value, np.ndarray) and value.dtype == dtype and value.base is None:
            return value
        return np.array(value, dtype=dtype, copy=True)


def _register(base: str, run, prepare=None, dialects: tuple[str, ...] = DIALECTS, generator: bool = False) -> None:
    for dialect in dialects:
        register(f"{dialect}.{base}", prepare=prepare, generator=generator)(run)


def _unsigned(dtype: np.dtype) -> np.dtype:
    return np.dtype(f"u{dtype.itemsize}") if dtype.kind == "i" else dtype


# ---------------------------------------------------------------------------
# Elementwise ops


def elementwise(base: str, fn, *, kinds: str = "iufb", dialects: tuple[str, ...] = DIALECTS, prepare=_result) -> None:
    """Register `<dialect>.<base>` computing `fn(step, *operands)` and
    converting to the result type; `kinds` are the numpy kinds of the first
    operand it accepts (others are refused naming the element type)."""

    def run(frame, step: Step, *xs):
        xs = tuple(np.asarray(x) for x in xs)
        if xs[0].dtype.kind not in kinds:
            raise fail(step, f"on {xs[0].dtype} elements is not supported")
        with np.errstate(all="ignore"):
            return [_out(fn(step, *xs), step.attrs["dtype"])]

    _register(base, run, prepare=prepare, dialects=dialects)


def _one(x: np.ndarray, v: float):
    return x.dtype.type(v)


def _by_nonzero(a, b):
    """`a`, `b` with every zero replaced by 1, and where the zeros were."""
    a, b = np.broadcast_arrays(a, b)
    zero = b == 0
    return a, np.where(zero, np.ones_like(b), b), zero


def _divide(step: Step, a, b):
    """Integer division toward zero.  A zero divisor is implementation-
    defined in StableHLO; XLA gives every bit set (-1, or the unsigned
    maximum), which `jnp.where(d != 0, n // d, 0)` computes and discards,
    so the simulator gives it too."""
    if a.dtype.kind == "f":
        return a / b
    a, safe, zero = _by_nonzero(a, b)
    q = _div_trunc(a, safe)
    return np.where(zero, np.array(-1).astype(q.dtype) if q.dtype.kind == "i" else np.iinfo(q.dtype).max, q)


def _remainder(step: Step, a, b):
    """The sign of the dividend; by zero, the dividend (XLA's result)."""
    if a.dtype.kind == "f":
        return np.fmod(a, b)
    a, safe, zero = _by_nonzero(a, b)
    return np.where(zero, a, _rem_trunc(a, safe))


def _int_power(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Integer power by squaring, wrapping in the type; a negative exponent
    gives 0 except for bases 1 and -1 (XLA's result)."""
    a, b = np.broadcast_arrays(a, b)
    result = np.ones_like(a)
    base = a.copy()
    e = np.where(b < 0, 0, b).astype(np.int64)
    while np.any(e):
        odd = (e & 1) == 1
        result = np.where(odd, result * base, result)
        base = base * base
        e >>= 1
    if a.dtype.kind == "i":
        negative = b < 0
        one = np.ones_like(a)
        odd_exp = (np.abs(b.astype(np.int64)) & 1) == 1
        minus_one = np.where(odd_exp, -one, one)
        negative_result = np.where(a == 1, one, np.where(a == -1, minus_one, np.zeros_like(a)))
        result = np.where(negative, negative_result, result)
    return result


def _power(step: Step, a, b):
    if a.dtype.kind == "f":
        return np.power(a, b)
    return _int_power(a, b)


def _bitwise(logical, bitwise):
    def fn(step: Step, *xs):
        return logical(*xs) if xs[0].dtype.kind == "b" else bitwise(*xs)

    return fn


def _shift(step: Step, a, b, kind: str):
    width = a.dtype.itemsize * 8
    u = _unsigned(a.dtype)
    amount = b.astype(u)  # a negative amount is a huge one
    big = amount >= width
    safe = np.where(big, 0, amount).astype(u)
    if kind == "left":
        return np.where(big, 0, (a.astype(u) << safe)).astype(a.dtype)
    if kind == "logical":
        return np.where(big, 0, (a.astype(u) >> safe)).astype(a.dtype)
    # Arithmetic: the bits shift as a signed integer of the same width, also
    # for unsigned types (as XLA does), filling with the sign bit.
    s = np.dtype(f"i{a.dtype.itemsize}")
    signed = a.astype(s, copy=False) if a.dtype.kind == "u" else a
    fill = np.where(signed < 0, -1, 0).astype(s)
    out = np.where(big, fill, signed >> safe.astype(s))
    return out.astype(a.dtype, copy=False)


def _sign(step: Step, a):
    if a.dtype.kind == "f":
        return np.where(a == 0, a, np.sign(a))  # keeps -0.0 and NaN
    return np.sign(a)


def _round_afz(step: Step, a):
    return round_half_away(a)  # math.round's rounding


def _logistic(step: Step, a):
    return _one(a, 1) / (_one(a, 1) + np.exp(-a))


def _count_leading_zeros(step: Step, a):
    width = a.dtype.itemsize * 8
    u = a.astype(_unsigned(a.dtype))
    lengths = np.vectorize(lambda v: int(v).bit_length(), otypes=[np.int64])(u) if u.size else u
    return width - np.asarray(lengths, dtype=np.int64)


_FLOAT_BITS = {2: (5, 10), 4: (8, 23), 8: (11, 52)}
"""Exponent and mantissa bits of f16, f32 and f64."""


def _prepare_reduce_precision(c: Compiler, op: ir.Operation) -> dict:
    return {
        **_result(c, op),
        "exponent_bits": _int_attr(op, "exponent_bits"),
        "mantissa_bits": _int_attr(op, "mantissa_bits"),
    }


def _reduce_precision(step: Step, x):
    """Round to `mantissa_bits` (to nearest, ties to even), then send values
    past the narrow exponent range to infinity and below it to zero."""
    if x.dtype.itemsize not in _FLOAT_BITS or x.dtype.kind != "f":
        raise fail(step, f"on {x.dtype} elements is not supported")
    exp_bits, man_bits = _FLOAT_BITS[x.dtype.itemsize]
    e, m = step.attrs["exponent_bits"], step.attrs["mantissa_bits"]
    if e < 1 or m < 0:
        raise fail(step, f"needs exponent_bits >= 1 and mantissa_bits >= 0, got {e} and {m}")
    u = np.dtype(f"u{x.dtype.itemsize}")
    bits = x.view(u).copy()
    if m < man_bits:
        drop = man_bits - m
        last = u.type(1) << u.type(drop)
        half = (last >> u.type(1)) - u.type(1)
        bias = half + ((bits & last) >> u.type(drop))
        bits = (bits + bias) & ~(last - u.type(1))
    if e < exp_bits:
        sign = u.type(1) << u.type(man_bits + exp_bits)
        exp_mask = ((u.type(1) << u.type(exp_bits)) - u.type(1)) << u.type(man_bits)
        full_bias = (1 << (exp_bits - 1)) - 1
        narrow_bias = (1 << (e - 1)) - 1
        exponent = bits & exp_mask
        overflow = exponent > (u.type(full_bias + narrow_bias) << u.type(man_bits))
        underflow = exponent <= (u.type(full_bias - narrow_bias) << u.type(man_bits))
        signed_zero = bits & sign
        bits = np.where(overflow, signed_zero | exp_mask, np.where(underflow, signed_zero, bits))
    out = bits.astype(u).view(x.dtype)
    return np.where(np.isnan(x), x, out)


_COMPARISONS = {
    "EQ": np.equal,
    "NE": np.not_equal,
    "LT": np.less,
    "LE": np.less_equal,
    "GT": np.greater,
    "GE": np.greater_equal,
}


def _prepare_compare(c: Compiler, op: ir.Operation) -> dict:
    direction = _enum(op, "comparison_direction", "comparison_direction")
    if direction not in _COMPARISONS:
        raise ValueError(f"comparison_direction {direction}")
    kind = _enum(op, "compare_type", "comparison_type")
    return {**_result(c, op), "direction": direction, "compare_type": kind}


def _total_order(x: np.ndarray) -> np.ndarray:
    """Signed integers ordered as IEEE's totalOrder orders the floats:
    -NaN < -inf < ... < -0 < +0 < ... < inf < NaN."""
    i = x.view(np.dtype(f"i{x.dtype.itemsize}"))
    return np.where(i < 0, i ^ np.iinfo(i.dtype).max, i)


def _compare(step: Step, a, b):
    fn = _COMPARISONS[step.attrs["direction"]]
    kind = step.attrs["compare_type"]
    if kind == "TOTALORDER" and a.dtype.kind == "f":
        return fn(_total_order(a), _total_order(b))
    if kind == "UNSIGNED" and a.dtype.kind == "i":
        u = _unsigned(a.dtype)
        return fn(a.astype(u), b.astype(u))
    if kind == "SIGNED" and a.dtype.kind == "u":
        s = np.dtype(f"i{a.dtype.itemsize}")
        return fn(a.astype(s), b.astype(s))
    return fn(a, b)  # FLOAT: NaN compares unordered (only NE is true)


def _convert(step: Step, x):
    dtype = step.attrs["dtype"]
    if dtype == np.bool_:
        return x != 0
    if x.dtype.kind == "f" and dtype.kind in "iu":
        info = np.iinfo(dtype)
        t = np.trunc(np.where(np.isnan(x), 0, x))
        low, high = np.float64(info.min), np.float64(info.max)
        clipped = np.clip(t.astype(np.float64), low, high)
        out = np.where(clipped >= high, info.max, np.where(clipped <= low, info.min, 0)).astype(dtype)
        inside = (clipped > low) & (clipped < high)
        return np.where(inside, clipped.astype(dtype), out)
    return x.astype(dtype)


def _bitcast_convert(step: Step, x):
    dtype = step.attrs["dtype"]
    if dtype.itemsize != x.dtype.itemsize:
        raise fail(step, f"between {x.dtype} and {dtype} (different widths) is not supported")
    return x.view(dtype)


def _select(step: Step, pred, a, b):
    return np.where(pred, a, b)


def _clamp(step: Step, low, x, high):
    return minmax.minimum(minmax.maximum(x, low), high)


_FLOAT_UNARY = {
    "exponential": np.exp,
    "exponential_minus_one": np.expm1,
    "log": np.log,
    "log_plus_one": np.log1p,
    "sqrt": np.sqrt,
    "cbrt": np.cbrt,
    "tanh": np.tanh,
    "sine": np.sin,
    "cosine": np.cos,
    "tan": np.tan,
    "floor": np.floor,
    "ceil": np.ceil,
    "round_nearest_even": np.rint,
}
for _base, _fn in _FLOAT_UNARY.items():
    elementwise(_base, lambda s, a, _fn=_fn: _fn(a), kinds="f")
elementwise("rsqrt", lambda s, a: _one(a, 1) / np.sqrt(a), kinds="f")
elementwise("logistic", _logistic, kinds="f")
elementwise("round_nearest_afz", _round_afz, kinds="f")
elementwise("is_finite", lambda s, a: np.isfinite(a), kinds="f")
elementwise("abs", lambda s, a: np.abs(a), kinds="iuf")
elementwise("negate", lambda s, a: np.negative(a), kinds="iuf")
elementwise("sign", _sign, kinds="iuf")
elementwise("not", _bitwise(np.logical_not, np.invert), kinds="iub")
elementwise("popcnt", lambda s, a: np.bitwise_count(a.astype(_unsigned(a.dtype))), kinds="iu")
elementwise("count_leading_zeros", _count_leading_zeros, kinds="iu")
elementwise("add", _bitwise(np.logical_or, np.add))
elementwise("subtract", lambda s, a, b: np.subtract(a, b), kinds="iuf")
elementwise("multiply", _bitwise(np.logical_and, np.multiply))
elementwise("divide", _divide, kinds="iuf")
elementwise("remainder", _remainder, kinds="iuf")
elementwise("maximum", lambda s, a, b: minmax.maximum(a, b))
elementwise("minimum", lambda s, a, b: minmax.minimum(a, b))
elementwise("power", _power, kinds="iuf")
elementwise("atan2", lambda s, a, b: np.arctan2(a, b), kinds="f")
elementwise("and", _bitwise(np.logical_and, np.bitwise_and), kinds="iub")
elementwise("or", _bitwise(np.logical_or, np.bitwise_or), kinds="iub")
elementwise("xor", _bitwise(np.logical_xor, np.bitwise_xor), kinds="iub")
elementwise("shift_left", lambda s, a, b: _shift(s, a, b, "left"), kinds="iu")
elementwise("shift_right_logical", lambda s, a, b: _shift(s, a, b, "logical"), kinds="iu")
elementwise("shift_right_arithmetic", lambda s, a, b: _shift(s, a, b, "arithmetic"), kinds="iu")
elementwise("convert", _convert)
elementwise("bitcast_convert", _bitcast_convert)
elementwise("select", _select, kinds="b")
elementwise("clamp", _clamp, kinds="iuf")
elementwise("compare", _compare, prepare=_prepare_compare)
elementwise("reduce_precision", _reduce_precision, kinds="f", prepare=_prepare_reduce_precision)

_erf = np.vectorize(math.erf, otypes=[np.float64])
_erfc = np.vectorize(math.erfc, otypes=[np.float64])


def _lgamma_one(x: float) -> float:
    try:
        return math.lgamma(x)
    except ValueError:  # a pole (0, a negative integer): XLA gives +inf
        return math.inf


_lgamma = np.vectorize(_lgamma_one, otypes=[np.float64])


def _digamma(a: np.ndarray) -> np.ndarray:
    """The digamma function in f64: the reflection formula below 1/2, the
    recurrence up to 8, then the asymptotic series. Poles (0, the negative
    integers) and -inf give NaN, +inf gives +inf, as XLA's do."""
    x = np.asarray(a, dtype=np.float64)
    pole = (x <= 0) & (np.floor(x) == x)
    flip = x < 0.5
    y = np.where(flip, 1.0 - x, x)
    shift = np.zeros_like(y)
    for _ in range(8):
        small = y < 8
        shift = shift - np.where(small, 1.0 / np.where(small, y, 1.0), 0.0)
        y = np.where(small, y + 1, y)
    inv2 = 1.0 / (y * y)
    series = inv2 * (1 / 12 - inv2 * (1 / 120 - inv2 * (1 / 252 - inv2 * (1 / 240 - inv2 / 132))))
    out = shift + np.log(y) - 0.5 / y - series
    out = np.where(flip, out - math.pi / np.tan(math.pi * np.where(flip, x, 0.5)), out)
    return np.where(pole | np.isneginf(x), np.nan, np.where(np.isposinf(x), np.inf, out))


def _erf_inv(a: np.ndarray) -> np.ndarray:
    """The inverse error function in f64: Newton's method on erf from a
    logarithmic first guess; +-1 give +-inf, beyond them NaN."""
    x = np.asarray(a, dtype=np.float64)
    inside = np.abs(x) < 1
    z = np.where(inside, x, 0.0)
    w = -np.log((1.0 - z) * (1.0 + z))  # -ln(1 - x^2)
    t = 2.0 / (math.pi * 0.147) - w / 2  # Winitzki's approximation, to 2e-3
    y = np.sign(z) * np.sqrt(np.sqrt(t * t + w / 0.147) - t)
    for _ in range(4):
        y = y - (_erf(y) - z) / (2.0 / math.sqrt(math.pi) * np.exp(-y * y))
    edge = np.where(x == 1, np.inf, np.where(x == -1, -np.inf, np.nan))
    return np.where(inside, np.where(z == 0, z, y), edge)  # -0.0 stays -0.0


_CHLO_UNARY = {
    "square": lambda a: a * a,
    "erf": _erf,
    "erfc": _erfc,
    "tan": np.tan,
    "sinh": np.sinh,
    "cosh": np.cosh,
    "asin": np.arcsin,
    "acos": np.arccos,
    "atan": np.arctan,
    "asinh": np.arcsinh,
    "acosh": np.arccosh,
    "atanh": np.arctanh,
    "lgamma": _lgamma,
    "digamma": _digamma,
    "erf_inv": _erf_inv,
}
for _base, _fn in _CHLO_UNARY.items():
    elementwise(_base, lambda s, a, _fn=_fn: _fn(a), kinds="f", dialects=("chlo",))
elementwise("is_inf", lambda s, a: np.isinf(a), kinds="f", dialects=("chlo",))
elementwise("is_pos_inf", lambda s, a: np.isposinf(a), kinds="f", dialects=("chlo",))
elementwise("is_neg_inf", lambda s, a: np.isneginf(a), kinds="f", dialects=("chlo",))


# ---------------------------------------------------------------------------
# Constants, iota, identities


def _prepare_constant(c: Compiler, op: ir.Operation) -> dict:
    return {"value": tensor_constant(op.attributes["value"], op.results[0].type)}


def _constant(frame, step: Step):
    return [step.attrs["value"].copy()]


_register("constant", _constant, prepare=_prepare_constant)


def _static(step: Step, what: str = "result") -> list[int]:
    shape = step.attrs["shape"]
    if None in shape:
        raise fail(step, f"needs a static {what} shape, got {shape}")
    return shape


def _prepare_iota(c: Compiler, op: ir.Operation) -> dict:
    return {**_result(c, op), "dimension": _int_attr(op, "iota_dimension")}


def _iota(frame, step: Step):
    shape = _static(step)
    d = step.attrs["dimension"]
    if not 0 <= d < len(shape):
        raise fail(step, f"iota_dimension {d} is out of range for rank {len(shape)}")
    line = np.arange(shape[d], dtype=np.int64).reshape([-1 if k == d else 1 for k in range(len(shape))])
    return [_out(np.broadcast_to(line, shape), step.attrs["dtype"])]


_register("iota", _iota, prepare=_prepare_iota)


def _identity(frame, step: Step, *xs):
    return [np.array(x, copy=True) for x in xs]


_register("optimization_barrier", _identity)
register("sdy.sharding_constraint")(_identity)


def _prepare_custom_call(c: Compiler, op: ir.Operation) -> dict:
    target = ir.StringAttr(op.attributes["call_target_name"]).value
    if target != "Sharding":
        raise ValueError(f"custom_call @{target} is unknown to the simulator (only @Sharding is run)")
    return {}


_register("custom_call", _identity, prepare=_prepare_custom_call)


def _no_run(frame, step: Step, *values):  # pragma: no cover - read as a terminator
    raise fail(step, "outside a region the simulator runs")


_register("return", _no_run)


def _body(step: Step, index: int = 0, regions: int = 1) -> Block:
    """Region `index` of `regions` as a block with its `stablehlo.return` as
    the terminator (the compiler knows only the upstream terminators)."""
    key = "body" if index == 0 else f"body{index}"
    body = step.attrs.get(key)
    if body is None:
        if len(step.regions) != regions:
            raise fail(step, f"needs {regions} single-block region{'s' if regions > 1 else ''}")
        block = step.regions[index]
        if block.terminator is None:
            if not block.steps or not block.steps[-1].name.endswith(".return"):
                raise fail(step, "has a region that does not end in a return")
            block = Block(block.args, block.steps[:-1], block.steps[-1])
        body = step.attrs[key] = block
    return body


def _while(frame, step: Step, *init):
    """Run the body while the condition holds; collectives may sit in both."""
    cond, body = _body(step, 0, 2), _body(step, 1, 2)
    values = list(init)
    while True:
        (flag,) = yield from run_block(frame, cond, values)
        if not bool(np.asarray(flag)):
            return values
        values = yield from run_block(frame, body, values)


def _prepare_control(c: Compiler, op: ir.Operation) -> dict:
    """A while, if or case whose regions do not fit its operands and results
    (an unregistered dialect: MLIR never verified it) is refused here, as the
    passes refuse it, rather than run on mismatched values."""
    why = malformed(op)
    if why is not None:
        raise ValueError(f"'{op.name}' {why}")
    return {}


_register("while", _while, generator=True, prepare=_prepare_control)


def _if(frame, step: Step, pred):
    """The first region when the predicate holds, else the second."""
    taken = 0 if bool(np.asarray(pred)) else 1
    return (yield from run_block(frame, _body(step, taken, 2), []))


def _case(frame, step: Step, index):
    """Region `index`; an index out of range runs the last region, as the
    StableHLO specification says."""
    n = len(step.regions)
    k = int(np.asarray(index))
    if not 0 <= k < n:
        k = n - 1
    return (yield from run_block(frame, _body(step, k, n), []))


_register("if", _if, generator=True, prepare=_prepare_control)
_register("case", _case, generator=True, prepare=_prepare_control)


# ---------------------------------------------------------------------------
# Data movement


def _prepare_broadcast(c: Compiler, op: ir.Operation) -> dict:
    return {**_result(c, op), "dims": _ints(op.attributes["broadcast_dimensions"])}


def _broadcast_in_dim(frame, step: Step, x):
    x = np.asarray(x)
    dims = step.attrs["dims"]
    shape = list(step.attrs["shape"])
    if len(dims) != x.ndim or len(set(dims)) != len(dims) or any(not 0 <= d < len(shape) for d in dims):
        rank = len(shape)
        raise fail(
            step, f"broadcast_dimensions {dims} do not fit an operand of rank {x.ndim} and a result of rank {rank}"
        )
    for i, d in enumerate(dims):
        if shape[d] is None:
            shape[d] = x.shape[i]  # a dynamic size the operand gives
    if None in shape:
        raise fail(step, f"needs a static result shape, got {step.attrs['shape']}")
    for i, d in enumerate(dims):
        if x.shape[i] not in (1, shape[d]):
            raise fail(step, f"cannot broadcast dimension {i} of size {x.shape[i]} to size {shape[d]}")
    # The operand's dimensions in result order, with size-1 dimensions between.
    order = sorted(range(x.ndim), key=lambda i: dims[i])
    placed = [1] * len(shape)
    for i, d in enumerate(dims):
        placed[d] = x.shape[i]
    expanded = np.transpose(x, order).reshape(placed)
    return [_out(np.broadcast_to(expanded, shape), step.attrs["dtype"])]


_register("broadcast_in_dim", _broadcast_in_dim, prepare=_prepare_broadcast)


def _reshape(frame, step: Step, x, *rest):
    shape = [-1 if n is None else n for n in step.attrs["shape"]]
    if shape.count(-1) > 1:
        raise fail(step, f"needs a result shape with at most one dynamic size, got {step.attrs['shape']}")
    x = np.asarray(x)
    if -1 not in shape and math.prod(shape) != x.size:
        raise fail(step, f"cannot reshape {x.shape} to {shape}")
    return [np.array(x.reshape(shape), dtype=step.attrs["dtype"], copy=True)]


_register("reshape", _reshape, prepare=_result)


def _prepare_transpose(c: Compiler, op: ir.Operation) -> dict:
    return {**_result(c, op), "perm": _ints(op.attributes["permutation"])}


def _transpose(frame, step: Step, x):
    return [_out(np.transpose(np.asarray(x), step.attrs["perm"]).copy(), step.attrs["dtype"])]


_register("transpose", _transpose, prepare=_prepare_transpose)


def _prepare_reverse(c: Compiler, op: ir.Operation) -> dict:
    return {**_result(c, op), "dims": _ints(op.attributes["dimensions"])}


def _reverse(frame, step: Step, x):
    x = np.asarray(x)
    dims = step.attrs["dims"]
    if any(not 0 <= d < x.ndim for d in dims) or len(set(dims)) != len(dims):
        raise fail(step, f"dimensions {dims} do not fit an operand of rank {x.ndim}")
    return [_out(np.flip(x, dims).copy() if dims else x.copy(), step.attrs["dtype"])]


_register("reverse", _reverse, prepare=_prepare_reverse)


def _prepare_concatenate(c: Compiler, op: ir.Operation) -> dict:
    return {**_result(c, op), "dimension": _int_attr(op, "dimension")}


def _concatenate(frame, step: Step, *xs):
    return [_out(np.concatenate([np.asarray(x) for x in xs], axis=step.attrs["dimension"]), step.attrs["dtype"])]


_register("concatenate", _concatenate, prepare=_prepare_concatenate)


def _prepare_slice(c: Compiler, op: ir.Operation) -> dict:
    starts = _ints(op.attributes["start_indices"])
    limits = _ints(op.attributes["limit_indices"])
    strides = _ints(op.attributes["strides"]) if "strides" in op.attributes else [1] * len(starts)
    return {**_result(c, op), "slices": tuple(slice(a, b, s) for a, b, s in zip(starts, limits, strides))}


def _slice(frame, step: Step, x):
    x = np.asarray(x)
    slices = step.attrs["slices"]
    if len(slices) != x.ndim:
        raise fail(step, f"has {len(slices)} start indices for an operand of rank {x.ndim}")
    for d, (s, n) in enumerate(zip(slices, x.shape)):
        if not (0 <= s.start <= s.stop <= n and s.step > 0):
            raise fail(step, f"slice {s.start}:{s.stop}:{s.step} does not fit dimension {d} of size {n}")
    return [_out(x[slices].copy(), step.attrs["dtype"])]


_register("slice", _slice, prepare=_prepare_slice)


def _clamped_starts(x: np.ndarray, sizes, starts) -> list[int]:
    """Start indices clamped so that the window fits, as the spec says."""
    return [min(max(int(np.asarray(s)), 0), n - k) for s, n, k in zip(starts, x.shape, sizes)]


def _prepare_dynamic_slice(c: Compiler, op: ir.Operation) -> dict:
    return {**_result(c, op), "sizes": _ints(op.attributes["slice_sizes"])}


def _dynamic_slice(frame, step: Step, x, *starts):
    x = np.asarray(x)
    sizes = step.attrs["sizes"]
    if len(sizes) != x.ndim or len(starts) != x.ndim or any(not 0 <= k <= n for k, n in zip(sizes, x.shape)):
        raise fail(step, f"slice_sizes {sizes} do not fit an operand of shape {x.shape}")
    begin = _clamped_starts(x, sizes, starts)
    window = tuple(slice(b, b + k) for b, k in zip(begin, sizes))
    return [_out(x[window].copy(), step.attrs["dtype"])]


_register("dynamic_slice", _dynamic_slice, prepare=_prepare_dynamic_slice)


def _dynamic_update_slice(frame, step: Step, x, update, *starts):
    x, update = np.asarray(x), np.asarray(update)
    if update.ndim != x.ndim or len(starts) != x.ndim or any(k > n for k, n in zip(update.shape, x.shape)):
        raise fail(step, f"cannot place an update of shape {update.shape} in an operand of shape {x.shape}")
    begin = _clamped_starts(x, update.shape, starts)
    out = np.array(x, dtype=step.attrs["dtype"], copy=True)
    out[tuple(slice(b, b + k) for b, k in zip(begin, update.shape))] = update
    return [out]


_register("dynamic_update_slice", _dynamic_update_slice, prepare=_result)


def _prepare_gather(c: Compiler, op: ir.Operation) -> dict:
    attr = op.attributes["dimension_numbers"]
    dims = gather_dimensions(str(attr))
    if dims is None:
        raise fail(op, f"dimension_numbers {attr} is not a #stablehlo.gather this simulator reads")
    types = [v.type for v in (op.results[0], op.operands[0], op.operands[1])]
    if all(isinstance(t, ir.RankedTensorType) for t in types):
        problem = gather_problem(dims, (types[0].rank, types[1].rank), _shape(types[2]))
        if problem is not None:
            raise fail(op, f"{MISFIT}: {problem}")
    return {**_result(c, op), "dims": dims, "sizes": _ints(op.attributes["slice_sizes"])}


def _start_vectors(step: Step, indices, ivd: int, what: str) -> np.ndarray:
    """A gather's or scatter's indices as i64 start vectors along a last
    dimension (`index_vector_dim`, implicit when it is the rank). uint64
    indices are capped at the i64 maximum first: past every size anyway,
    and no start wraps negative."""
    idx = np.asarray(indices)
    if idx.dtype.kind not in "iu" or not 0 <= ivd <= idx.ndim:
        raise fail(step, f"index_vector_dim {ivd} does not fit {what} of shape {list(idx.shape)}")
    if ivd == idx.ndim:
        idx = idx[..., None]
    if idx.dtype == np.uint64:
        idx = np.minimum(idx, np.uint64(np.iinfo(np.int64).max))
    return np.moveaxis(idx, ivd, -1).astype(np.int64)


def _gather(frame, step: Step, operand, start_indices):
    """StableHLO's gather: each result element reads the operand at its
    batch's (clamped) start, plus its batching index, plus its offset."""
    x = np.asarray(operand)
    d, sizes = step.attrs["dims"], step.attrs["sizes"]
    ivd = d.index_vector_dim
    starts = _start_vectors(step, start_indices, ivd, "start indices")
    batch_shape = starts.shape[:-1]
    offset_of = [k for k in range(x.ndim) if k not in d.collapsed_slice_dims and k not in d.operand_batching_dims]
    if (
        len(sizes) != x.ndim
        or any(not 0 <= k <= n for k, n in zip(sizes, x.shape))
        or starts.shape[-1] != len(d.start_index_map)
        or len(offset_of) != len(d.offset_dims)
        or any(sizes[k] > 1 for k in (*d.collapsed_slice_dims, *d.operand_batching_dims))
    ):
        raise fail(step, f"dimension numbers and slice_sizes {sizes} do not fit an operand of shape {list(x.shape)}")
    rank = len(batch_shape) + len(d.offset_dims)
    batch_at = [p for p in range(rank) if p not in d.offset_dims]
    shape = [0] * rank
    for p, n in zip(batch_at, batch_shape):
        shape[p] = n
    for p, k in zip(d.offset_dims, offset_of):
        shape[p] = sizes[k]
    expected = step.attrs["shape"]
    if len(expected) != rank or any(e is not None and e != n for e, n in zip(expected, shape)):
        raise fail(step, f"result shape {expected} is not the gathered shape {shape}")
    grid = np.indices(shape, dtype=np.int64)
    batch = tuple(grid[p] for p in batch_at)
    start = starts[batch] if batch_shape else np.broadcast_to(starts, (*shape, starts.shape[-1]))
    index = [np.zeros(shape, dtype=np.int64) for _ in range(x.ndim)]
    for k, od in enumerate(d.start_index_map):
        index[od] = index[od] + np.clip(start[..., k], 0, x.shape[od] - sizes[od])
    for ob, ib in zip(d.operand_batching_dims, d.start_indices_batching_dims):
        index[ob] = index[ob] + batch[ib if ib < ivd else ib - 1]
    for p, k in zip(d.offset_dims, offset_of):
        index[k] = index[k] + grid[p]
    return [_out(x[tuple(index)], step.attrs["dtype"])]


_register("gather", _gather, prepare=_prepare_gather)


def _edges(low: list[int], sizes: list[int], high: list[int]) -> tuple[tuple[slice, ...], tuple[slice, ...]]:
    """(source, destination) slices that place an array of `sizes` into
    its padded extent: a negative edge cuts, and cuts more than the array
    holds leave nothing of it (the padded extent may still be positive)."""
    src, dst = [], []
    for lo, n, hi in zip(low, sizes, high):
        start = max(-lo, 0)
        stop = max(n - max(-hi, 0), start)
        src.append(slice(start, stop))
        dst.append(slice(max(lo, 0), max(lo, 0) + stop - start))
    return tuple(src), tuple(dst)


def _dilated_padded(step: Step, x: np.ndarray, lead: int, dilation, low, high, fill, dtype) -> np.ndarray:
    """`x` with its dimensions from `lead` on dilated (`dilation - 1` new
    cells between neighbours) and edge-padded (a negative edge cuts), every
    new cell holding `fill`: pad's interior and edges, a convolution's
    lhs_dilation and padding, a reduce_window's base_dilations and padding."""
    keep = (slice(None),) * lead
    outer = x.shape[:lead]
    spread = [(n - 1) * k + 1 if n else 0 for n, k in zip(x.shape[lead:], dilation)]
    sizes = [lo + n + hi for lo, n, hi in zip(low, spread, high)]
    if any(n < 0 for n in sizes):
        raise fail(step, f"padding {low}, {high} cuts more than the operand of shape {list(x.shape)} holds")
    dilated = np.full((*outer, *spread), fill, dtype=dtype)
    dilated[keep + tuple(slice(None, None, k) for k in dilation)] = x
    out = np.full((*outer, *sizes), fill, dtype=dtype)
    src, dst = _edges(low, spread, high)
    out[keep + dst] = dilated[keep + src]
    return out


def _window_counts(sizes, window, dilation, strides) -> list[int]:
    """How many windows (`window` cells, `dilation` apart, moved by
    `strides`) fit along each dimension of `sizes`."""
    reach = [(k - 1) * d + 1 for k, d in zip(window, dilation)]
    return [(n - r) // s + 1 if n >= r else 0 for n, r, s in zip(sizes, reach, strides)]


def _window_cells(at, dilation, counts, strides) -> tuple[slice, ...]:
    """The cells window position `at` reads in every window, window by
    window (strided slices, one per dimension)."""
    return tuple(
        slice(a * d, a * d + (n - 1) * s + 1, s) if n else slice(0, 0)
        for a, d, n, s in zip(at, dilation, counts, strides)
    )


def _prepare_pad(c: Compiler, op: ir.Operation) -> dict:
    return {
        **_result(c, op),
        "low": _ints(op.attributes["edge_padding_low"]),
        "high": _ints(op.attributes["edge_padding_high"]),
        "interior": _ints(op.attributes["interior_padding"]),
    }


def _pad(frame, step: Step, x, value):
    """Interior padding first, then the edges; a negative edge cuts."""
    x = np.asarray(x)
    low, high, interior = step.attrs["low"], step.attrs["high"], step.attrs["interior"]
    if not len(low) == len(high) == len(interior) == x.ndim or any(i < 0 for i in interior):
        raise fail(step, f"padding {low}, {high}, {interior} does not fit an operand of rank {x.ndim}")
    fill = np.asarray(value).reshape(())
    return [_dilated_padded(step, x, 0, [i + 1 for i in interior], low, high, fill, step.attrs["dtype"])]


_register("pad", _pad, prepare=_prepare_pad)


# ---------------------------------------------------------------------------
# Contractions and reductions


def _dot_dimensions(attr: ir.Attribute) -> dict[str, list[int]]:
    """`#stablehlo.dot<lhs_batching_dimensions = [0], ...>`, omitted fields empty."""
    dims = dot_dimensions(str(attr))
    if dims is None:
        raise ValueError(f"dot_dimension_numbers {attr} is not a #stablehlo.dot")
    return dims.lists()


def _subscripts(lhs_rank: int, rhs_rank: int, dims: dict[str, list[int]]) -> str:
    """einsum subscripts: the result is batch, lhs free, rhs free dims."""
    letters = iter("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    lhs: list[str | None] = [None] * lhs_rank
    rhs: list[str | None] = [None] * rhs_rank
    pairs = [*zip(dims["lhs_batching"], dims["rhs_batching"]), *zip(dims["lhs_contracting"], dims["rhs_contracting"])]
    if len(dims["lhs_batching"]) != len(dims["rhs_batching"]) or len(dims["lhs_contracting"]) != len(
        dims["rhs_contracting"]
    ):
        raise ValueError("lhs and rhs have different numbers of batching or contracting dimensions")
    for ld, rd in pairs:
        if not (0 <= ld < lhs_rank and 0 <= rd < rhs_rank) or lhs[ld] or rhs[rd]:
            raise ValueError(f"dimension numbers {dims} do not fit ranks {lhs_rank} and {rhs_rank}")
        lhs[ld] = rhs[rd] = next(letters)
    batch = "".join(lhs[d] or "" for d in dims["lhs_batching"])
    lhs_free = rhs_free = ""
    for d in range(lhs_rank):
        if lhs[d] is None:
            lhs[d] = next(letters)
            lhs_free += lhs[d]
    for d in range(rhs_rank):
        if rhs[d] is None:
            rhs[d] = next(letters)
            rhs_free += rhs[d]
    return f"{''.join(lhs)},{''.join(rhs)}->{batch}{lhs_free}{rhs_free}"  # type: ignore[arg-type]


def _prepare_dot_general(c: Compiler, op: ir.Operation) -> dict:
    ranks = [ir.ShapedType(v.type).rank for v in op.operands]
    if op.name.endswith(".dot"):
        dims = {"lhs_batching": [], "rhs_batching": [], "lhs_contracting": [ranks[0] - 1], "rhs_contracting": [0]}
    else:
        dims = _dot_dimensions(op.attributes["dot_dimension_numbers"])
    return {**_result(c, op), "subscripts": _subscripts(ranks[0], ranks[1], dims)}


def _dot_general(frame, step: Step, lhs, rhs):
    dtype = step.attrs["dtype"]
    with np.errstate(all="ignore"):
        a, b = np.asarray(lhs).astype(dtype, copy=False), np.asarray(rhs).astype(dtype, copy=False)
        return [_out(np.einsum(step.attrs["subscripts"], a, b, optimize=dtype.kind == "f"), dtype)]


_register("dot_general", _dot_general, prepare=_prepare_dot_general)
_register("dot", _dot_general, prepare=_prepare_dot_general)


def _window_attr(op: ir.Operation, name: str, rank: int, default: int) -> list[int]:
    return _ints(op.attributes[name]) if name in op.attributes else [default] * rank


def _prepare_convolution(c: Compiler, op: ir.Operation) -> dict:
    attr = op.attributes["dimension_numbers"] if "dimension_numbers" in op.attributes else None
    dims = conv_dimensions(str(attr))
    if dims is None:
        raise fail(op, f"dimension_numbers {attr} is not a #stablehlo.conv this simulator reads")
    n = len(dims.input_spatial)
    padding = _window_attr(op, "padding", 2 * n, 0)
    flags = op.attributes["window_reversal"] if "window_reversal" in op.attributes else None
    reversal = [False] * n if flags is None else bools_of(flags)
    if reversal is None:
        raise fail(op, f"window_reversal {flags} is not a list of flags this simulator reads")
    groups = [_int_attr(op, k) if k in op.attributes else 1 for k in ("feature_group_count", "batch_group_count")]
    window = {
        "strides": _window_attr(op, "window_strides", n, 1),
        "low": padding[0::2],
        "high": padding[1::2],
        "lhs_dilation": _window_attr(op, "lhs_dilation", n, 1),
        "rhs_dilation": _window_attr(op, "rhs_dilation", n, 1),
    }
    if any(len(v) != n for v in (*window.values(), reversal)):
        raise fail(op, f"window attributes do not fit {n} spatial dimensions")
    if min(groups) < 1 or min(groups) > 1:
        raise fail(
            op,
            f"group counts must be positive with one of them 1: feature_group_count {groups[0]}, "
            f"batch_group_count {groups[1]}",
        )
    if any(v < 1 for k in ("strides", "lhs_dilation", "rhs_dilation") for v in window[k]):
        raise fail(op, f"strides and dilations {window} must be positive")
    return {**_result(c, op), "dims": dims, "window": window, "reversal": reversal, "groups": groups}


def _convolution(frame, step: Step, lhs, rhs):
    """StableHLO's convolution: the input dilated and padded (a negative pad
    cuts), the kernel dilated and reversed where asked, and each output
    element the sum over the window and the input features of its group,
    summed one kernel position at a time in the result type."""
    d, w, (fgc, bgc) = step.attrs["dims"], step.attrs["window"], step.attrs["groups"]
    dtype = step.attrs["dtype"]
    x = np.transpose(np.asarray(lhs), (d.input_batch, d.input_feature, *d.input_spatial)).astype(dtype, copy=False)
    k = np.transpose(np.asarray(rhs), (d.kernel_output_feature, d.kernel_input_feature, *d.kernel_spatial))
    k = k.astype(dtype, copy=False)
    (n, c), (o, ci) = x.shape[:2], k.shape[:2]
    if c != ci * fgc or n % bgc or o % (fgc * bgc):
        raise fail(
            step,
            f"input of shape {list(np.shape(lhs))} and kernel of shape {list(np.shape(rhs))} do not fit the groups",
        )
    for j, rev in enumerate(step.attrs["reversal"]):
        if rev:
            k = np.flip(k, axis=2 + j)
    padded = _dilated_padded(step, x, 2, w["lhs_dilation"], w["low"], w["high"], 0, dtype)
    padded_shape = padded.shape[2:]
    out_sizes = _window_counts(padded_shape, k.shape[2:], w["rhs_dilation"], w["strides"])
    # groups: input (batch groups, batch, feature groups, features), kernel
    # (batch groups, feature groups, outputs, features)
    x = padded.reshape(bgc, n // bgc, fgc, ci, *padded_shape)
    k = k.reshape(bgc, fgc, o // (bgc * fgc), ci, *k.shape[2:])
    out = np.zeros((n // bgc, bgc, fgc, o // (bgc * fgc), *out_sizes), dtype=dtype)
    with np.errstate(all="ignore"):
        for at in np.ndindex(*k.shape[4:]):
            piece = x[(slice(None),) * 4 + _window_cells(at, w["rhs_dilation"], out_sizes, w["strides"])]
            out += np.einsum("bngc...,bgoc->nbgo...", piece, k[(Ellipsis, *at)]).astype(dtype, copy=False)
    out = out.reshape(n // bgc, o, *out_sizes)
    order = (d.output_batch, d.output_feature, *d.output_spatial)
    result = np.transpose(out, np.argsort(order))
    expected = step.attrs["shape"]
    if len(expected) != result.ndim or any(e is not None and e != m for e, m in zip(expected, result.shape)):
        raise fail(step, f"result shape {expected} is not the convolved shape {list(result.shape)}")
    return [_out(result, dtype)]


_register("convolution", _convolution, prepare=_prepare_convolution)

_COMBINERS = {
    "add": (np.add, np.logical_or),
    "multiply": (np.multiply, np.logical_and),
    "maximum": (np.maximum, np.maximum),
    "minimum": (np.minimum, np.minimum),
    "and": (np.bitwise_and, np.logical_and),
    "or": (np.bitwise_or, np.logical_or),
    "xor": (np.bitwise_xor, np.logical_xor),
}
"""Bodies `return op(acc, x)` that numpy reduces: (for numbers, for i1)."""
_FLOAT_EXTREMA = {"maximum": minmax.maximum, "minimum": minmax.minimum}
"""Float `maximum`/`minimum` bodies: -0.0 < +0.0 (`sim.minmax`)."""


def _combiner(op: ir.Operation, n: int) -> str | None:
    """The body's combiner when it is one `op(arg 0, arg 1)` returned."""
    if n != 1 or len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
        return None
    block = op.regions[0].blocks[0]
    ops = list(block.operations)
    if len(ops) != 2 or len(block.arguments) != 2:
        return None
    dialect, _, base = ops[0].name.partition(".")
    if dialect not in DIALECTS or base not in _COMBINERS or list(ops[1].operands) != [ops[0].results[0]]:
        return None
    if set(ops[0].operands) != set(block.arguments) or len(ops[0].operands) != 2:
        return None
    return base


def _prepare_reduce(c: Compiler, op: ir.Operation) -> dict:
    n = len(op.results)
    if len(op.operands) != 2 * n:
        raise ValueError(f"has {len(op.operands)} operands for {n} results")
    return {
        "dims": tuple(_ints(op.attributes["dimensions"])),
        "dtypes": [dtype_of(r.type) for r in op.results],
        "combiner": _combiner(op, n),
    }


def _reduce(frame, step: Step, *operands):
    n = len(operands) // 2
    inputs = [np.asarray(x) for x in operands[:n]]
    inits = [np.asarray(v).reshape(()) for v in operands[n:]]
    dims = step.attrs["dims"]
    rank = inputs[0].ndim
    if any(not 0 <= d < rank for d in dims) or len(set(dims)) != len(dims):
        raise fail(step, f"dimensions {list(dims)} do not fit inputs of rank {rank}")
    if any(x.shape != inputs[0].shape for x in inputs):
        raise fail(step, f"needs inputs of one shape, got {[x.shape for x in inputs]}")
    dtypes = step.attrs["dtypes"]
    combiner = step.attrs["combiner"]
    with np.errstate(all="ignore"):
        if combiner is not None:
            numbers, logical = _COMBINERS[combiner]
            x = inputs[0].astype(dtypes[0], copy=False)
            fn = logical if x.dtype == np.bool_ else numbers
            initial = inits[0].astype(dtypes[0])[()]
            if x.dtype.kind == "f" and combiner in _FLOAT_EXTREMA:
                return [_out(minmax.reduce(_FLOAT_EXTREMA[combiner], x, dims, initial=initial), dtypes[0])]
            return [_out(fn.reduce(x, axis=dims, initial=initial), dtypes[0])]
        return _fold(frame, step, inputs, inits, dims, dtypes)


def _fold(frame, step: Step, inputs, inits, dims, dtypes) -> list[np.ndarray]:
    """Any body, run on whole slices: the accumulators have the kept shape
    and take the inputs' elements one reduced position at a time."""
    body = _body(step)
    rank = inputs[0].ndim
    kept = [d for d in range(rank) if d not in dims]
    kept_shape = [inputs[0].shape[d] for d in kept]
    order = kept + list(dims)
    # the reduced count given, not -1: a piece with no kept element (an
    # uneven split's empty piece) has no size to infer it from
    reduced = math.prod(inputs[0].shape[d] for d in dims)
    flat = [np.transpose(x, order).reshape([*kept_shape, reduced]) for x in inputs]
    acc = [np.broadcast_to(v.astype(t), kept_shape).copy() for v, t in zip(inits, dtypes)]
    for k in range(flat[0].shape[-1]):
        out = run_block_now(frame, body, [*acc, *(f[..., k] for f in flat)])
        acc = [_out(np.broadcast_to(np.asarray(v), kept_shape), t) for v, t in zip(out, dtypes)]
    return acc


_register("reduce", _reduce, prepare=_prepare_reduce)


def _prepare_reduce_window(c: Compiler, op: ir.Operation) -> dict:
    if len(op.operands) != 2 or len(op.results) != 1:
        raise ValueError("with several inputs is not supported by the simulator")
    rank = ir.ShapedType(op.operands[0].type).rank
    padding = _window_attr(op, "padding", 2 * rank, 0)
    window = {
        "size": _window_attr(op, "window_dimensions", rank, 1),
        "strides": _window_attr(op, "window_strides", rank, 1),
        "base": _window_attr(op, "base_dilations", rank, 1),
        "dilation": _window_attr(op, "window_dilations", rank, 1),
        "low": padding[0::2],
        "high": padding[1::2],
    }
    if any(len(v) != rank for v in window.values()) or any(
        v < 1 for k in ("size", "strides", "base", "dilation") for v in window[k]
    ):
        raise fail(op, f"window attributes {window} do not fit an input of rank {rank}")
    return {**_result(c, op), "window": window, "combiner": _combiner(op, 1)}


def _reduce_window(frame, step: Step, x, init):
    """StableHLO's reduce_window: the input dilated (`base_dilations`) and
    padded, every new cell holding the init value; each output element
    folds its window's cells into the init value, one window position at a
    time (a single-combiner body with numpy, any other body by running it)."""
    w, dtype = step.attrs["window"], step.attrs["dtype"]
    x = np.asarray(x).astype(dtype, copy=False)
    init = np.asarray(init).astype(dtype).reshape(())
    padded = _dilated_padded(step, x, 0, w["base"], w["low"], w["high"], init, dtype)
    sizes = _window_counts(padded.shape, w["size"], w["dilation"], w["strides"])
    expected = step.attrs["shape"]
    if len(expected) != len(sizes) or any(e is not None and e != n for e, n in zip(expected, sizes)):
        raise fail(step, f"result shape {expected} is not the windows' shape {sizes}")
    combiner = step.attrs["combiner"]
    acc = np.full(sizes, init, dtype=dtype)
    body = None if combiner is not None else _body(step)
    with np.errstate(all="ignore"):
        for at in np.ndindex(*w["size"]):
            cells = padded[_window_cells(at, w["dilation"], sizes, w["strides"])]
            if combiner is None:
                (acc,) = run_block_now(frame, body, [acc, cells])
                acc = _out(np.broadcast_to(np.asarray(acc), sizes), dtype)
            elif dtype.kind == "f" and combiner in _FLOAT_EXTREMA:
                acc = _FLOAT_EXTREMA[combiner](acc, cells)
            else:
                numbers, logical = _COMBINERS[combiner]
                acc = (logical if dtype == np.bool_ else numbers)(acc, cells)
    return [_out(acc, dtype)]


_register("reduce_window", _reduce_window, prepare=_prepare_reduce_window)


def _prepare_select_and_scatter(c: Compiler, op: ir.Operation) -> dict:
    rank = ir.ShapedType(op.operands[0].type).rank
    padding = _window_attr(op, "padding", 2 * rank, 0)
    window = {
        "size": _window_attr(op, "window_dimensions", rank, 1),
        "strides": _window_attr(op, "window_strides", rank, 1),
    }
    if len(padding) != 2 * rank or any(len(v) != rank or min(v, default=1) < 1 for v in window.values()):
        raise fail(op, f"window attributes {window} do not fit an operand of rank {rank}")
    if any(padding):
        raise ValueError(f"with padding {padding} is not supported by the simulator (JAX pads the operand itself)")
    return {**_result(c, op), "window": window}


def _select_and_scatter(frame, step: Step, operand, source, init):
    """StableHLO's select_and_scatter: in each window of the operand, the
    select body picks one cell (the first, then each later one unless the
    body keeps the one it holds); the result starts at the init value and
    each window's source value is folded into its picked cell by the
    scatter body, windows in row-major order."""
    w, dtype = step.attrs["window"], step.attrs["dtype"]
    x, src = np.asarray(operand), np.asarray(source)
    sizes = _window_counts(x.shape, w["size"], [1] * x.ndim, w["strides"])
    if list(src.shape) != sizes:
        raise fail(step, f"source of shape {list(src.shape)} is not the windows' shape {sizes}")
    select, scatter = _body(step, 0, 2), _body(step, 1, 2)
    grid = np.indices(sizes, dtype=np.int64)
    best = picked = None
    for at in np.ndindex(*w["size"]):
        where = tuple(g * s + a for g, s, a in zip(grid, w["strides"], at))
        cells = x[where]
        if best is None:
            best, picked = cells, [c.copy() for c in where]
            continue
        (keep,) = run_block_now(frame, select, [best, cells])
        move = ~np.broadcast_to(np.asarray(keep, dtype=bool), best.shape)
        best = np.where(move, cells, best)
        picked = [np.where(move, c, p) for c, p in zip(where, picked)]
    out = np.full(x.shape, np.asarray(init).astype(dtype).reshape(()), dtype=dtype)
    if best is None or not src.size:
        return [out]
    targets = np.ravel_multi_index(tuple(p.ravel() for p in picked), x.shape)
    flat, values = out.reshape(-1), src.astype(dtype, copy=False).ravel()
    for t, v in zip(targets, values):  # row-major windows: repeated cells fold in order
        (flat[t],) = (_out(np.asarray(r).reshape(()), dtype) for r in run_block_now(frame, scatter, [flat[t], v]))
    return [out]


_register("select_and_scatter", _select_and_scatter, prepare=_prepare_select_and_scatter)


def _replaces(op: ir.Operation, n: int) -> bool:
    """Whether a scatter's body returns its update arguments unchanged
    (`.at[].set`): the new values replace the old ones."""
    if len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
        return False
    block = op.regions[0].blocks[0]
    ops = list(block.operations)
    return len(ops) == 1 and len(block.arguments) == 2 * n and list(ops[0].operands) == list(block.arguments)[n:]


def _prepare_scatter(c: Compiler, op: ir.Operation) -> dict:
    n = len(op.results)
    if len(op.operands) != 2 * n + 1:
        raise ValueError(f"has {len(op.operands)} operands for {n} results")
    attr = op.attributes["scatter_dimension_numbers"]
    dims = scatter_dimensions(str(attr))
    if dims is None:
        raise fail(op, f"scatter_dimension_numbers {attr} is not a #stablehlo.scatter this simulator reads")
    types = [v.type for v in (op.operands[n + 1], op.operands[0], op.operands[n])]
    if all(isinstance(t, ir.RankedTensorType) for t in types):
        problem = scatter_problem(dims, (types[0].rank, types[1].rank), _shape(types[2]))
        if problem is not None:
            raise fail(op, f"{MISFIT}: {problem}")
    return {
        "dims": dims,
        "dtypes": [dtype_of(r.type) for r in op.results],
        "replaces": _replaces(op, n),
        "combiner": _combiner(op, n),
    }


def _scatter_targets(step: Step, shape: tuple[int, ...], indices, update_shape: tuple[int, ...]):
    """Per update element in row-major order, the flat input position it
    lands on, and a mask of the elements whose window fits the input."""
    d = step.attrs["dims"]
    rank = len(shape)
    ivd = d.index_vector_dim
    starts = _start_vectors(step, indices, ivd, "scatter indices")
    window_of = d.window_of(rank)
    scattered = [u for u in range(len(update_shape)) if u not in d.update_window_dims]
    if (
        starts.shape[-1] != len(d.scatter_dims_to_operand_dims)
        or len(window_of) != len(d.update_window_dims)
        or [update_shape[u] for u in scattered] != list(starts.shape[:-1])
        or any(not 0 <= k < rank for k in (*d.scatter_dims_to_operand_dims, *d.input_batching_dims))
        or any(update_shape[u] > shape[k] for u, k in zip(d.update_window_dims, window_of))
    ):
        raise fail(
            step,
            f"scatter dimension numbers do not fit an input of shape {list(shape)}, indices of shape "
            f"{list(np.shape(indices))} and updates of shape {list(update_shape)}",
        )
    grid = np.indices(update_shape, dtype=np.int64)
    batch = tuple(grid[u] for u in scattered)
    start = starts[batch] if scattered else np.broadcast_to(starts, (*update_shape, starts.shape[-1]))
    corner = [np.zeros(update_shape, dtype=np.int64) for _ in range(rank)]
    for j, k in enumerate(d.scatter_dims_to_operand_dims):
        corner[k] = corner[k] + start[..., j]
    for ob, ib in zip(d.input_batching_dims, d.scatter_indices_batching_dims):
        corner[ob] = corner[ob] + batch[ib if ib < ivd else ib - 1]
    width = [1] * rank
    for u, k in zip(d.update_window_dims, window_of):
        width[k] = update_shape[u]
    fits = np.ones(update_shape, dtype=bool)
    for k in range(rank):
        fits &= (corner[k] >= 0) & (corner[k] <= shape[k] - width[k])
    for u, k in zip(d.update_window_dims, window_of):
        corner[k] = corner[k] + grid[u]
    index = tuple(np.where(fits, c, 0) for c in corner)
    return np.ravel_multi_index(index, shape).ravel(), fits.ravel()


def _scatter(frame, step: Step, *operands):
    """StableHLO's scatter: each update element lands on its window's start
    (from the indices, plus its batching index) plus its place in the window,
    folded into the input by the body; `.at[].set` bodies replace, a single
    numpy combiner folds repeats in one call, any other body runs element
    by element in the updates' row-major order."""
    n = len(step.attrs["dtypes"])
    inputs = [np.asarray(x) for x in operands[:n]]
    updates = [np.asarray(u) for u in operands[n + 1 :]]
    dtypes = step.attrs["dtypes"]
    if any(x.shape != inputs[0].shape for x in inputs) or any(u.shape != updates[0].shape for u in updates):
        raise fail(step, "needs inputs of one shape and updates of one shape")
    targets, fits = _scatter_targets(step, inputs[0].shape, operands[n], updates[0].shape)
    targets = targets[fits]
    # (row-major copies: a flat view of one is the copy itself, where a
    # column-major input, a matmul's result, would give a flat copy the
    # writes below never reach)
    outs = [np.array(x, dtype=t, copy=True, order="C") for x, t in zip(inputs, dtypes)]
    flats = [o.reshape(-1) for o in outs]
    values = [u.astype(t, copy=False).ravel()[fits] for u, t in zip(updates, dtypes)]
    combiner = step.attrs["combiner"]
    with np.errstate(all="ignore"):
        if step.attrs["replaces"]:
            # the last update to a position wins, as in row-major order
            last = len(targets) - 1 - np.unique(targets[::-1], return_index=True)[1]
            for flat, v in zip(flats, values):
                flat[targets[last]] = v[last]
        elif combiner is not None and not (dtypes[0].kind == "f" and combiner in _FLOAT_EXTREMA):
            numbers, logical = _COMBINERS[combiner]
            (logical if dtypes[0] == np.bool_ else numbers).at(flats[0], targets, values[0])
        else:
            body = _body(step)
            for k, t in enumerate(targets):
                out = run_block_now(frame, body, [*(f[t] for f in flats), *(v[k] for v in values)])
                for f, r, dtype in zip(flats, out, dtypes):
                    f[t] = _out(np.asarray(r).reshape(()), dtype)
    return outs


_register("scatter", _scatter, prepare=_prepare_scatter)


def _prepare_sort(c: Compiler, op: ir.Operation) -> dict:
    if len(op.operands) != len(op.results) or not op.operands:
        raise ValueError(f"has {len(op.operands)} operands for {len(op.results)} results")
    return {"dimension": _int_attr(op, "dimension"), "dtypes": [dtype_of(r.type) for r in op.results]}


_PAIRS_AT_ONCE = 1 << 22
"""How many comparator calls `_sort` runs in one go (memory, not results)."""


def _sort(frame, step: Step, *operands):
    """StableHLO's sort: an element's place along the dimension is the count
    of elements the comparator puts before it, plus the equal ones (neither
    before the other) that come before it: a stable sort when the
    comparator is a strict weak order, as the specification requires."""
    xs = [np.asarray(x) for x in operands]
    dim = step.attrs["dimension"]
    if any(x.shape != xs[0].shape for x in xs) or not 0 <= dim < xs[0].ndim:
        raise fail(step, f"dimension {dim} does not fit operands of shapes {[list(x.shape) for x in xs]}")
    body = _body(step)
    rows = [np.moveaxis(x, dim, -1) for x in xs]
    n = rows[0].shape[-1]
    place = np.zeros(rows[0].shape, dtype=np.int64)
    block = max(1, _PAIRS_AT_ONCE // max(1, rows[0].size * 2))
    with np.errstate(all="ignore"):
        for start in range(0, n, block):
            mine = slice(start, min(n, start + block))
            # [..., j, i]: element j against element i of the block
            others = [np.broadcast_to(r[..., :, None], (*r.shape, len(range(n)[mine]))) for r in rows]
            these = [np.broadcast_to(r[..., None, mine], others[0].shape) for r in rows]
            pairs = [v for o, t in zip(others, these) for v in (o, t)]
            (before,) = run_block_now(frame, body, pairs)
            pairs = [v for o, t in zip(others, these) for v in (t, o)]
            (after,) = run_block_now(frame, body, pairs)
            before = np.broadcast_to(np.asarray(before, dtype=bool), others[0].shape)
            after = np.broadcast_to(np.asarray(after, dtype=bool), others[0].shape)
            j = np.arange(n)[:, None]
            i = np.arange(n)[mine][None, :]
            equal_before = ~before & ~after & (j < i)
            place[..., mine] = (before | equal_before).sum(axis=-2)
    if not np.array_equal(np.sort(place, axis=-1), np.broadcast_to(np.arange(n), place.shape)):
        raise fail(step, "has a comparator that is not a strict weak order (elements tie with a different ordering)")
    outs = []
    for r, dtype in zip(rows, step.attrs["dtypes"]):
        out = np.empty_like(r)
        np.put_along_axis(out, place, r, axis=-1)
        outs.append(_out(np.moveaxis(out, -1, dim), dtype))
    return outs


_register("sort", _sort, prepare=_prepare_sort)


def _prepare_top_k(c: Compiler, op: ir.Operation) -> dict:
    return {"k": _int_attr(op, "k"), "dtypes": [dtype_of(r.type) for r in op.results]}


def _top_k(frame, step: Step, x):
    x = np.asarray(x)
    k = step.attrs["k"]
    if x.ndim < 1 or not 0 <= k <= x.shape[-1]:
        raise fail(step, f"k = {k} does not fit an operand of shape {list(x.shape)}")
    key = _total_order(x) if x.dtype.kind == "f" else x
    # descending, ties in index order: a stable ascending sort of the
    # reversed row, read backwards
    n = x.shape[-1]
    order = (n - 1) - np.argsort(key[..., ::-1], axis=-1, kind="stable")[..., ::-1]
    order = order[..., :k].astype(np.int64)
    values, indices = step.attrs["dtypes"]
    return [_out(np.take_along_axis(x, order, axis=-1), values), _out(order, indices)]


_register("top_k", _top_k, prepare=_prepare_top_k, dialects=("chlo",))
