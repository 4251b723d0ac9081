"""func, arith, math and scf on numpy values.

Scalars are numpy scalars of the op's exact type (index is int64, i1 is
bool), tensors numpy arrays. Integer arithmetic wraps in its type as MLIR's
does; signless integers are read as signed unless the op says unsigned.
"""

from __future__ import annotations

import math
import re

import numpy as np
from mlir import ir

from ...ir.types import integer_value
from ..floats import bf16_from_bits, to_bf16
from ..minmax import maximum, maximum_number, minimum, minimum_number
from ..program import Compiler, Frame, dtype_of, fail, is_bf16, register, run_block, run_function

# ---------------------------------------------------------------------------
# func


def _prepare_call(c: Compiler, op: ir.Operation) -> dict:
    return {"callee": op.attributes["callee"].value}


@register("func.call", prepare=_prepare_call, generator=True)
def _call(frame, step, *args):
    fn = frame.runner.compiler.function(step.attrs["callee"])
    callee = Frame([None] * fn.slots, frame.device, frame.runner)
    return (yield from run_function(callee, fn, list(args)))


# ---------------------------------------------------------------------------
# cf.assert (torch-mlir checks every gathered index with one)


def _prepare_assert(c: Compiler, op: ir.Operation) -> dict:
    msg = op.attributes["msg"] if "msg" in op.attributes else None
    return {"msg": ir.StringAttr(msg).value if isinstance(msg, ir.StringAttr) else ""}


@register("cf.assert", prepare=_prepare_assert)
def _assert(frame, step, condition):
    """A run stops where the program's own check fails, as the compiled
    program would abort."""
    if not np.all(condition):
        raise fail(step, f"assertion failed: {step.attrs['msg']}")
    return []


# ---------------------------------------------------------------------------
# arith


def _result_dtype(c: Compiler, op: ir.Operation) -> dict:
    return {"dtype": dtype_of(op.results[0].type)}


def _as(value, dtype):
    """`value` converted to `dtype`, as an array or a scalar like `value`."""
    if isinstance(value, np.ndarray):
        return value.astype(dtype, copy=False)
    return dtype.type(value)


def _unsigned(dtype: np.dtype) -> np.dtype:
    return np.dtype(f"u{dtype.itemsize}") if dtype.kind == "i" else dtype


def _binary(name: str, fn, *, unsigned: bool = False, on_bool=None):
    """Register `fn` for `name`; `on_bool` replaces it on i1 (numpy bool)."""

    def run(frame, step, a, b):
        dtype = step.attrs["dtype"]
        if unsigned:
            u = _unsigned(dtype)
            return [_as(fn(_as(a, u), _as(b, u)), dtype)]
        if on_bool is not None and dtype.kind == "b":
            return [_as(on_bool(a, b), dtype)]
        return [_as(fn(a, b), dtype)]

    register(name, prepare=_result_dtype)(run)


def _check_divisor(step, b) -> None:
    if np.any(np.asarray(b) == 0):
        raise fail(step, "divides by zero")


def _div_trunc(a, b):
    q = np.floor_divide(a, b)
    fix = (np.remainder(a, b) != 0) & ((np.asarray(a) < 0) != (np.asarray(b) < 0))
    return q + fix.astype(q.dtype if isinstance(q, np.ndarray) else type(q))


def _rem_trunc(a, b):
    return a - _div_trunc(a, b) * b


def _bool_int(x, signed: bool):
    """An i1 read as an integer: true is -1 read signed, 1 unsigned."""
    v = np.asarray(x).astype(np.int8)
    return -v if signed else v


def _bool_bit(r, like: tuple) -> np.ndarray | np.bool_:
    """The i1 an integer result truncates to (its low bit), a scalar when no
    operand in `like` is an array."""
    bit = (np.asarray(r) & 1).astype(np.bool_)
    return bit if any(isinstance(x, np.ndarray) for x in like) else bit[()]


def _int_div(name: str, fn, *, unsigned: bool = False):
    def run(frame, step, a, b):
        _check_divisor(step, b)
        dtype = step.attrs["dtype"]
        if dtype.kind == "b":  # numpy's bool arithmetic is not i1's
            return [_bool_bit(fn(_bool_int(a, not unsigned), _bool_int(b, not unsigned)), (a, b))]
        work = _unsigned(dtype) if unsigned else dtype
        return [_as(fn(_as(a, work), _as(b, work)), dtype)]

    register(name, prepare=_result_dtype)(run)


# On i1, addition and subtraction wrap: both are an exclusive or (numpy's
# bool add is an or, its bool subtract an error).
_binary("arith.addi", np.add, on_bool=np.logical_xor)
_binary("arith.subi", np.subtract, on_bool=np.logical_xor)
for _name, _fn in {
    "muli": np.multiply,
    "andi": np.bitwise_and,
    "ori": np.bitwise_or,
    "xori": np.bitwise_xor,
    "addf": np.add,
    "subf": np.subtract,
    "mulf": np.multiply,
    "divf": np.divide,
    "remf": np.fmod,
    "maximumf": maximum,  # -0.0 < +0.0, as in every float max and min (sim.minmax)
    "minimumf": minimum,
    "maxnumf": maximum_number,
    "minnumf": minimum_number,
}.items():
    _binary("arith." + _name, _fn)
# Read signed, an i1 true is -1: maxsi on i1 is a logical and, minsi an or
# (maxui and minui read true as 1: or and and, as numpy's bool max and min).
_binary("arith.maxsi", np.maximum, on_bool=np.logical_and)
_binary("arith.minsi", np.minimum, on_bool=np.logical_or)
_binary("arith.maxui", np.maximum, unsigned=True)
_binary("arith.minui", np.minimum, unsigned=True)
_int_div("arith.divsi", _div_trunc)
_int_div("arith.remsi", _rem_trunc)
_int_div("arith.divui", np.floor_divide, unsigned=True)
_int_div("arith.remui", np.remainder, unsigned=True)
_int_div("arith.floordivsi", np.floor_divide)


def _ceil_div(a, b):
    """The quotient rounded up, from the floor's (neither `-(-a // b)`,
    which wraps for the type's minimum, nor `(a + b - 1) // b`, which wraps
    near its maximum)."""
    q = np.floor_divide(a, b)
    up = np.remainder(a, b) != 0
    return q + up.astype(q.dtype if isinstance(q, np.ndarray) else type(q))


_int_div("arith.ceildivsi", _ceil_div)
_int_div("arith.ceildivui", _ceil_div, unsigned=True)


def _shift(name: str, fn, *, unsigned: bool = False):
    def run(frame, step, a, b):
        dtype = step.attrs["dtype"]
        boolean = dtype.kind == "b"  # i1: one bit wide, shifted as uint8
        work = np.dtype(np.uint8) if boolean else _unsigned(dtype) if unsigned else dtype
        # A shift by a negative amount or by the bit width or more is poison
        # in MLIR; zero is one of its values. Only those elements get it.
        bad = (np.asarray(b) < 0) | (np.asarray(b) >= (1 if boolean else dtype.itemsize * 8))
        shifted = fn(np.asarray(a).astype(work), np.where(bad, 0, b).astype(work))
        result = np.where(bad, 0, shifted).astype(dtype)
        return [result if isinstance(a, np.ndarray) or isinstance(b, np.ndarray) else result[()]]

    register(name, prepare=_result_dtype)(run)


_shift("arith.shli", np.left_shift)
_shift("arith.shrsi", np.right_shift)
_shift("arith.shrui", np.right_shift, unsigned=True)


@register("arith.negf", prepare=_result_dtype)
def _negf(frame, step, a):
    return [_as(np.negative(a), step.attrs["dtype"])]


def _prepare_constant(c: Compiler, op: ir.Operation) -> dict:
    attr = op.attributes["value"]
    t = op.results[0].type
    if isinstance(t, ir.ShapedType):
        return {"value": tensor_constant(attr, t)}
    return {"value": dtype_of(t).type(_scalar_attr(attr))}


def tensor_constant(attr: ir.Attribute, t: ir.Type) -> np.ndarray:
    """The array of a dense (or splat) elements attribute or of a
    `dense_resource` blob, with the shape and element type of `t`."""
    dtype = dtype_of(t)
    shape = tuple(ir.ShapedType(t).shape)
    resource = _resource(attr)
    if resource is not None:
        return _resource_array(attr, resource, dtype, shape)
    dense = ir.DenseElementsAttr(attr)
    if dense.is_splat:
        return np.full(shape, _scalar_attr(dense.get_splat_value()), dtype=dtype)
    if is_bf16(t):
        return _bf16_dense(attr, shape)
    return np.array(dense, dtype=dtype).reshape(shape)


_HEX_DATA = re.compile(r'dense<"0x([0-9A-Fa-f]*)">')
_NUMBER = re.compile(r"0x[0-9A-Fa-f]+|[-+]?(?:inf|nan|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)")


def _bf16_dense(attr: ir.Attribute, shape: tuple[int, ...]) -> np.ndarray:
    """A dense bf16 constant's values in f32, read from its text (the
    bindings give no buffer of bf16 elements): hex data is the elements'
    bits, a list spells each value in decimal (exact once rounded: six
    digits hold a bf16's three) or a NaN or infinity by its bits."""
    text = str(attr)
    raw = _HEX_DATA.match(text)
    if raw is not None:
        return bf16_from_bits(np.frombuffer(bytes.fromhex(raw.group(1)), dtype="<u2")).reshape(shape)
    body = text[text.index("<") + 1 : text.rindex(">", 0, text.rindex(":"))]
    values = [_bf16_word(w) for w in _NUMBER.findall(body)]
    return to_bf16(np.array(values, dtype=np.float32)).reshape(shape)


def _bf16_word(word: str) -> float:
    """One element of a bf16 list: its bits in hex (NaN, infinities) or decimal."""
    if word.startswith("0x"):
        return float(bf16_from_bits(np.array([int(word, 16)], np.uint16))[0])
    return float(word)


def _resource(attr: ir.Attribute) -> ir.DenseResourceElementsAttr | None:
    try:
        return ir.DenseResourceElementsAttr(attr)
    except ValueError:
        return None


_BLOB = re.compile(rb'dialect_resources\s*:.*?:\s*"0x([0-9A-Fa-f]*)"', re.S)


def _resource_array(attr: ir.Attribute, resource: ir.DenseResourceElementsAttr, dtype: np.dtype, shape) -> np.ndarray:
    """The data of a `dense_resource` constant (torch-mlir's parameters).

    The bindings give no access to a resource's bytes, but MLIR prints the
    blobs an op refers to after it: print one constant holding `attr` alone
    and read its hex string, 4 bytes of alignment then the raw
    little-endian elements (a byte per i1)."""
    with attr.context, ir.Location.unknown():
        holder = ir.Module.create()
        with ir.InsertionPoint(holder.body):
            ir.Operation.create("arith.constant", results=[resource.type], attributes={"value": attr})
    found = _BLOB.search(holder.operation.get_asm(binary=True))
    if found is None:
        raise ValueError(f"{attr} has no data (the file's {{-# dialect_resources #-}} section lacks its blob)")
    raw = bytes.fromhex(found.group(1).decode())[4:]
    count = math.prod(shape)
    bf16 = is_bf16(resource.type)  # (held in f32: stored as 16 bits)
    stored = np.dtype("<u2") if bf16 else np.dtype(np.uint8) if dtype == np.bool_ else dtype.newbyteorder("<")
    if len(raw) != count * stored.itemsize:
        raise ValueError(
            f"{attr} holds {len(raw)} bytes of data, but {count} elements of {dtype} need {count * stored.itemsize}"
        )
    values = np.frombuffer(raw, dtype=stored)
    return (bf16_from_bits(values) if bf16 else values.astype(dtype)).reshape(shape)


def _scalar_attr(attr: ir.Attribute):
    if isinstance(attr, ir.BoolAttr):
        return attr.value
    if isinstance(attr, ir.IntegerAttr):
        if str(attr.type) == "i1":
            return bool(attr.value)
        return integer_value(attr)
    if isinstance(attr, ir.FloatAttr):
        return attr.value
    raise TypeError(f"unsupported constant {attr}")


@register("arith.constant", prepare=_prepare_constant)
def _constant(frame, step):
    v = step.attrs["value"]
    return [v.copy() if isinstance(v, np.ndarray) else v]


def _cast(name: str, *, unsigned_source: bool = False, float_to_int: bool = False, unsigned_target: bool = False):
    """A cast as MLIR does it, not as numpy's bool does: an i1 source reads
    as -1 when the cast is signed (extsi, sitofp, index_cast) and 1 when it
    is unsigned; an i1 result keeps the low bit (trunci, fptosi of -1.0)."""

    def run(frame, step, a):
        dtype = step.attrs["dtype"]
        src = a
        if np.asarray(a).dtype.kind == "b":
            src = _bool_int(a, signed=not unsigned_source)
            src = src if isinstance(a, np.ndarray) else src[()]
        elif unsigned_source:
            src = _as(a, _unsigned(np.asarray(a).dtype))
        if float_to_int:
            src = np.trunc(src)
        with np.errstate(all="ignore"):
            if dtype.kind == "b":
                return [_bool_bit(_as(src, np.dtype(np.int64)), (a,))]
            if unsigned_target and dtype.kind == "i":
                # in range for the unsigned type, out of range for the signed
                # one: convert unsigned, then read the bits signed
                return [_as(_as(src, _unsigned(dtype)), dtype)]
            if step.bf16:  # rounded once from the integer, not through f32
                return [to_bf16(_as(src, np.dtype(np.float64)))]
            return [_as(src, dtype)]

    register(name, prepare=_result_dtype)(run)


for _name in ("index_cast", "sitofp", "extf", "extsi", "trunci"):
    _cast("arith." + _name)
_cast("arith.index_castui", unsigned_source=True)
_cast("arith.uitofp", unsigned_source=True)
_cast("arith.extui", unsigned_source=True)
_cast("arith.fptosi", float_to_int=True)
_cast("arith.fptoui", float_to_int=True, unsigned_target=True)


def _prepare_truncf(c: Compiler, op: ir.Operation) -> dict:
    mode = ir.IntegerAttr(op.attributes["roundingmode"]).value if "roundingmode" in op.attributes else 0
    return {"dtype": dtype_of(op.results[0].type), "mode": mode}


@register("arith.truncf", prepare=_prepare_truncf)
def _truncf(frame, step, a):
    """Narrowing with arith's rounding modes (0 to nearest even, the
    default, 1 downward, 2 upward, 3 toward zero, 4 to nearest away): numpy
    rounds to nearest even, and a step to the neighbour mends the rest."""
    dtype, mode = step.attrs["dtype"], step.attrs["mode"]
    if step.bf16:  # held in f32: rounded by the mode from the source itself
        return [to_bf16(a, mode)]
    with np.errstate(all="ignore"):
        x = np.asarray(a, np.float64)
        r = x.astype(dtype)
        if mode:
            rf = r.astype(np.float64)
            if mode == 1:
                r = np.where(rf > x, np.nextafter(r, dtype.type(-np.inf)), r)
            elif mode == 2:
                r = np.where(rf < x, np.nextafter(r, dtype.type(np.inf)), r)
            elif mode == 3:
                r = np.where(np.abs(rf) > np.abs(x), np.nextafter(r, dtype.type(0)), r)
            elif mode == 4:
                other = np.nextafter(r, np.where(x > rf, dtype.type(np.inf), dtype.type(-np.inf)).astype(dtype))
                tie = (rf != x) & (x - rf == other.astype(np.float64) - x)
                r = np.where(tie & (np.abs(other) > np.abs(r)), other, r)
        r = r.astype(dtype)
    return [r if isinstance(a, np.ndarray) else r[()]]


@register("arith.bitcast", prepare=_result_dtype)
def _bitcast(frame, step, a):
    arr = np.asarray(a).view(step.attrs["dtype"])
    return [arr if isinstance(a, np.ndarray) else arr[()]]


_CMPI = {
    0: (np.equal, False),
    1: (np.not_equal, False),
    2: (np.less, False),
    3: (np.less_equal, False),
    4: (np.greater, False),
    5: (np.greater_equal, False),
    6: (np.less, True),
    7: (np.less_equal, True),
    8: (np.greater, True),
    9: (np.greater_equal, True),
}


def _prepare_predicate(c: Compiler, op: ir.Operation) -> dict:
    return {"predicate": ir.IntegerAttr(op.attributes["predicate"]).value}


@register("arith.cmpi", prepare=_prepare_predicate)
def _cmpi(frame, step, a, b):
    fn, unsigned = _CMPI[step.attrs["predicate"]]
    if np.asarray(a).dtype.kind == "b":  # read signed, an i1 true is -1 (unsigned: 1)
        r = fn(_bool_int(a, not unsigned), _bool_int(b, not unsigned))
        return [r if isinstance(a, np.ndarray) or isinstance(b, np.ndarray) else r[()]]
    if unsigned:
        u = _unsigned(np.asarray(a).dtype)
        a, b = _as(a, u), _as(b, u)
    return [_bool(fn(a, b))]


def _bool(x):
    return x if isinstance(x, np.ndarray) else np.bool_(x)


def _cmpf(pred: int, a, b):
    unordered = np.isnan(a) | np.isnan(b)
    base = {
        1: np.equal,
        2: np.greater,
        3: np.greater_equal,
        4: np.less,
        5: np.less_equal,
        6: np.not_equal,
    }
    if pred == 0:
        return np.zeros_like(unordered)
    if pred == 15:
        return np.ones_like(unordered)
    if pred == 7:
        return ~unordered
    if pred == 14:
        return unordered
    if 1 <= pred <= 6:
        return base[pred](a, b) & ~unordered
    return base[pred - 7](a, b) | unordered  # ueq ugt uge ult ule une


@register("arith.cmpf", prepare=_prepare_predicate)
def _cmpf_run(frame, step, a, b):
    with np.errstate(invalid="ignore"):
        return [_bool(_cmpf(step.attrs["predicate"], a, b))]


@register("arith.select")
def _select(frame, step, cond, a, b):
    if isinstance(cond, np.ndarray):
        return [np.where(cond, a, b)]
    return [a if cond else b]


# ---------------------------------------------------------------------------
# math


def round_half_away(x):
    """math.round: halves away from zero, exactly (`floor(x + 0.5)` rounds
    0.49999997 up and 2**23 + 1 to 2**23 + 2, since `x + 0.5` rounds), and
    the sign of a zero kept."""
    t = np.trunc(x)
    frac = np.abs(x - t)
    return np.copysign(np.where(frac >= 0.5, t + np.sign(x), t), x)


_UNARY_MATH = {
    "sqrt": np.sqrt,
    "rsqrt": lambda x: 1 / np.sqrt(x),
    "exp": np.exp,
    "exp2": np.exp2,
    "expm1": np.expm1,
    "log": np.log,
    "log2": np.log2,
    "log10": np.log10,
    "log1p": np.log1p,
    "tanh": np.tanh,
    "sin": np.sin,
    "cos": np.cos,
    "tan": np.tan,
    "atan": np.arctan,
    "asin": np.arcsin,
    "acos": np.arccos,
    "sinh": np.sinh,
    "cosh": np.cosh,
    "absf": np.abs,
    "absi": np.abs,
    "floor": np.floor,
    "ceil": np.ceil,
    "trunc": np.trunc,
    "round": round_half_away,
    "roundeven": np.rint,
    "erf": np.vectorize(math.erf, otypes=[np.float64]),
    "cbrt": np.cbrt,
}
for _name, _fn in _UNARY_MATH.items():

    def _unary(frame, step, a, _fn=_fn):
        with np.errstate(all="ignore"):
            return [_as(_fn(a), step.attrs["dtype"])]

    register("math." + _name, prepare=_result_dtype)(_unary)


def _powf(a, b):
    # as arrays: numpy takes a square root for a scalar exponent of 0.5,
    # which gives -0.0 for pow(-0.0, 0.5) and NaN for pow(-inf, 0.5)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.power(a, b)
    return np.power(np.asarray(a).reshape(1), np.asarray(b).reshape(1))[0]


for _name, _fn in {"powf": _powf, "atan2": np.arctan2, "copysign": np.copysign}.items():
    _binary("math." + _name, _fn)


def _fused(a, b, c, dtype: np.dtype):
    """a * b + c rounded once to `dtype`, as llvm.fma: the exact value, as a
    fraction, rounded to nearest even in the target format itself (a float
    in between would round twice), infinity past the largest value."""
    from fractions import Fraction

    def one(x: float, y: float, z: float):
        if not all(math.isfinite(v) for v in (x, y, z)):
            return dtype.type(x * y + z)
        exact = Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z))
        if exact == 0:  # +0.0 unless a -0.0 product meets a -0.0 addend
            negative_product = (x == 0 or y == 0) and math.copysign(1, x) * math.copysign(1, y) < 0
            return dtype.type(-0.0 if negative_product and math.copysign(1, z) < 0 else 0.0)
        big = np.finfo(dtype).max
        sign = 1.0 if exact > 0 else -1.0
        try:
            guess = dtype.type(float(exact))
        except OverflowError:
            guess = dtype.type(sign * math.inf)
        if not np.isfinite(guess):
            guess = dtype.type(sign * big)
        # the nearest of the guess and its neighbours; ties go to the even one
        best = None
        for cand in (np.nextafter(guess, dtype.type(-np.inf)), guess, np.nextafter(guess, dtype.type(np.inf))):
            if not np.isfinite(cand):
                continue
            key = (abs(Fraction(float(cand)) - exact), int(cand.view(f"u{dtype.itemsize}")) & 1)
            if best is None or key < best[0]:
                best = (key, cand)
        cand = best[1]
        if abs(cand) == big and abs(exact) > abs(Fraction(float(big))):
            # past the largest value: infinity once half an ulp beyond it
            ulp = Fraction(float(big)) - Fraction(float(np.nextafter(big, dtype.type(0))))
            if abs(exact) - Fraction(float(big)) >= ulp / 2:
                return dtype.type(sign * math.inf)
        return cand

    return np.vectorize(one, otypes=[dtype])(a, b, c)


@register("math.fma", prepare=_result_dtype)
def _fma(frame, step, a, b, c):
    dtype = step.attrs["dtype"]
    with np.errstate(all="ignore"):
        out = _fused(a, b, c, dtype)
    return [out if any(isinstance(x, np.ndarray) for x in (a, b, c)) else dtype.type(out)]


def _bit_count(name: str, count):
    """ctlz, cttz and ctpop: counted on the value's bits (unsigned)."""

    def run(frame, step, a):
        dtype = step.attrs["dtype"]
        bits = 1 if dtype.kind == "b" else dtype.itemsize * 8
        u = np.asarray(a).astype(np.uint64) & np.uint64((1 << bits) - 1) if bits < 64 else np.asarray(a).view(np.uint64)
        out = np.vectorize(lambda v: count(int(v), bits), otypes=[np.int64])(u).astype(dtype)
        return [out if isinstance(a, np.ndarray) else out[()]]

    register(name, prepare=_result_dtype)(run)


_bit_count("math.ctlz", lambda v, bits: bits - v.bit_length())
_bit_count("math.cttz", lambda v, bits: bits if v == 0 else (v & -v).bit_length() - 1)
_bit_count("math.ctpop", lambda v, bits: bin(v).count("1"))


@register("math.fpowi", prepare=_result_dtype)
def _fpowi(frame, step, a, b):
    dtype = step.attrs["dtype"]
    with np.errstate(all="ignore"):
        out = _as(_powf(a, np.asarray(b).astype(np.float64) if isinstance(b, np.ndarray) else float(b)), dtype)
    return [out]


@register("math.ipowi", prepare=_result_dtype)
def _ipowi(frame, step, a, b):
    """Integer power, wrapping; a negative exponent gives 1/a**n truncated
    toward zero: 1 for a = 1, ±1 for a = -1, 0 otherwise (upstream's fold)."""
    dtype = step.attrs["dtype"]
    a_arr, b_arr = np.asarray(a), np.asarray(b)
    with np.errstate(all="ignore"):
        power = np.power(a_arr, np.where(b_arr < 0, 0, b_arr))
        negative = np.where(a_arr == 1, 1, np.where(a_arr == -1, np.where(b_arr % 2 == 0, 1, -1), 0))
        out = np.where(b_arr < 0, negative, power).astype(dtype)
    return [out if isinstance(a, np.ndarray) or isinstance(b, np.ndarray) else out[()]]


# ---------------------------------------------------------------------------
# scf


def _prepare_for(c: Compiler, op: ir.Operation) -> dict:
    return {"unsigned": "unsignedCmp" in op.attributes}


@register("scf.for", prepare=_prepare_for, generator=True)
def _for(frame, step, lb, ub, st, *init):
    (body,) = step.regions
    carried = list(init)
    kind = type(lb)
    if step.attrs["unsigned"]:
        # `scf.for unsigned` compares the bounds as unsigned: count in
        # Python ints over the unsigned range, hand the body its bits
        bits = np.dtype(kind).itemsize * 8
        lb, ub, st = (int(v) % (1 << bits) for v in (lb, ub, st))

        def value(i: int):
            return np.array(i, dtype=f"u{bits // 8}").astype(kind)[()]

    else:

        def value(i):
            return kind(i)

    if st <= 0:
        raise fail(step, f"needs a positive step, got {st}")
    i = lb
    while i < ub:
        carried = yield from run_block(frame, body, [value(i), *carried])
        i = i + st
    return carried


@register("scf.if", generator=True)
def _if(frame, step, cond):
    regions = step.regions
    if cond:
        return (yield from run_block(frame, regions[0], []))
    if len(regions) > 1:
        return (yield from run_block(frame, regions[1], []))
    return []


def _prepare_index_switch(c: Compiler, op: ir.Operation) -> dict:
    return {"cases": list(ir.DenseI64ArrayAttr(op.attributes["cases"]))}


@register("scf.index_switch", prepare=_prepare_index_switch, generator=True)
def _index_switch(frame, step, index):
    """The region of the case equal to the index, else the default (the
    first region)."""
    cases = step.attrs["cases"]
    k = int(index)
    region = step.regions[1 + cases.index(k)] if k in cases else step.regions[0]
    return (yield from run_block(frame, region, []))


def _prepare_while(c: Compiler, op: ir.Operation) -> dict:
    return {}


@register("scf.while", prepare=_prepare_while, generator=True)
def _while(frame, step, *init):
    before, after = step.regions
    values = list(init)
    while True:
        out = yield from run_block(frame, before, values)
        if not out[0]:
            return out[1:]
        values = yield from run_block(frame, after, out[1:])


@register("scf.execute_region", generator=True)
def _execute_region(frame, step):
    return (yield from run_block(frame, step.regions[0], []))
