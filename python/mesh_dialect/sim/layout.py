"""Cut a global array into the per-device arrays a sharding describes, and
put them back together: the reference that every lowering is checked against.

Poison.  The reference leaves some values undefined: the result of `gather`
or `reduce` off the root, a non-rotating `shift` with no source, halo cells
beyond the tensor's edge.  A simulator must still produce an array there, so
it fills those cells with a recognisable sentinel, `poison_value(dtype)`:

- floating point and complex: NaN (it also propagates through arithmetic,
  which makes accidental uses visible);
- signed integers: the dtype's minimum (-128 for int8);
- unsigned integers: the dtype's maximum (255 for uint8);
- bool: False;
- datetime64 / timedelta64: NaT.

Only NaN and NaT are unambiguous; for integers and bools `is_poison` can only
report cells equal to the sentinel, which an ordinary value may also be.

Partial values.  For a sharding with partial axes, `shard` returns terms
whose reduction over the partial axes (`combine`, in in-group order) gives
back the value.  Without `rng` the decomposition is fixed: for sum and
bitwise_xor the device at position 0 along the partial axes holds the value
and the others 0 (-0.0 for floats: adding it keeps a -0.0); for product the others hold 1; for max, min, average,
bitwise_and and bitwise_or every device holds the value.  With `rng` the
terms are random (`partial_terms`), so that a program which reads one
device's term instead of reducing, or ignores a partial argument, computes
a wrong answer.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

import numpy as np

from ..sharding.spec import REDUCTION_KINDS, Device, Mesh, Sharding, ShardingError
from . import minmax
from .floats import BF16_BITS, to_bf16

REDUCIBLE_KINDS = tuple(k for k in REDUCTION_KINDS if k != "generic")
"""The reduction kinds with a defined meaning (all but `generic`)."""


class LayoutError(ValueError):
    """Per-device arrays that do not fit the sharding they are said to follow."""


class ReplicaMismatch(LayoutError):
    """Two devices that should hold the same data do not."""

    def __init__(self, device_a: Device, device_b: Device, max_difference: object, where: tuple[int, ...] | None):
        self.device_a = device_a
        self.device_b = device_b
        self.max_difference = max_difference
        at = f" (first at core index {list(where)})" if where is not None else ""
        super().__init__(f"replicas {list(device_a)} and {list(device_b)} differ: max difference {max_difference}{at}")


# -- poison ---------------------------------------------------------------------


def poison_value(dtype: np.dtype | type) -> np.generic:
    """The sentinel that stands for an undefined element of `dtype` (see the module docstring)."""
    dt = np.dtype(dtype)
    if dt.kind in "fc":
        return dt.type(np.nan)
    if dt.kind == "i":
        return dt.type(np.iinfo(dt).min)
    if dt.kind == "u":
        return dt.type(np.iinfo(dt).max)
    if dt.kind == "b":
        return dt.type(False)
    if dt.kind in "mM":
        return dt.type("NaT")
    raise TypeError(f"no poison value for dtype {dt}")


def poison(shape: Sequence[int], dtype: np.dtype | type) -> np.ndarray:
    """An array of `shape` whose every element is undefined."""
    return np.full(tuple(shape), poison_value(dtype), dtype=np.dtype(dtype))


_GARBAGE = itertools.count()


def garbage(shape: Sequence[int], dtype: np.dtype | type) -> np.ndarray:
    """Contents of storage the program never wrote (`tensor.empty`): values
    that are no reduction's neutral element, different at every call (from a
    counter, so runs repeat).  A fixed sentinel would be some reduction's
    identity (the minimum integer for max, NaN for a NaN-skipping max), and
    a program reading an init it forgot to fill would still compute the
    right answer."""
    return np.asarray(_garbage(tuple(shape), np.dtype(dtype)), dtype=dtype)


def _garbage(shape: tuple[int, ...], dt: np.dtype) -> np.ndarray:
    rng = np.random.default_rng(next(_GARBAGE))
    if dt.kind == "b":
        return rng.integers(0, 2, size=shape).astype(dt)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        high = min(int(info.max), 2**30)
        values = rng.integers(2, max(high, 3), size=shape, dtype=np.int64)
        if dt.kind == "i":
            values = np.where(rng.integers(0, 2, size=shape) == 1, -values, values)
        return values.astype(dt)
    if dt.kind == "f":
        return (rng.standard_normal(shape) * 1e3 + 17.5).astype(dt)
    if dt.kind == "c":
        return (rng.standard_normal(shape) * 1e3 + 1j * rng.standard_normal(shape) * 1e3).astype(dt)
    return poison(shape, dt)


def is_poison(array: np.ndarray) -> np.ndarray:
    """Element-wise: is this cell the poison sentinel?  Exact for NaN/NaT,
    only a guess for integers and bools (see the module docstring)."""
    a = np.asarray(array)
    if a.dtype.kind in "fc":
        return np.isnan(a)
    if a.dtype.kind in "mM":
        return np.isnat(a)
    return a == poison_value(a.dtype)


# -- reductions -----------------------------------------------------------------


def reduction_problem(kind: str, dtype: np.dtype | type) -> str | None:
    """Why `kind` cannot reduce elements of `dtype`, or None if it can.  Callers
    raise their own error class with this message."""
    dt = np.dtype(dtype)
    if kind == "generic":
        return "reduction kind 'generic' has no defined semantics and cannot be executed"
    if kind not in REDUCIBLE_KINDS:
        return f"unknown reduction kind '{kind}'"
    if dt.kind not in "biufc":
        return f"cannot reduce elements of dtype {dt}"
    if kind.startswith("bitwise_") and dt.kind not in "biu":
        return f"reduction kind '{kind}' needs an integer element type, got {dt}"
    if kind in ("max", "min") and dt.kind == "c":
        return f"reduction kind '{kind}' needs an ordered element type, got {dt}"
    return None


def convert(array: np.ndarray, dtype: np.dtype | type) -> np.ndarray:
    """`array` in element type `dtype` the way a signed cast in the IR would
    do it (`linalg.copy`'s extsi, trunci, sitofp, fptosi): integers wrap,
    floats round, an i1 reads as -1 for true and an i1 result keeps the low
    bit; float-to-integer of NaN or out-of-range values is undefined in MLIR
    and gives whatever numpy gives."""
    src = np.asarray(array)
    dt = np.dtype(dtype)
    with np.errstate(all="ignore"):
        if src.dtype.kind == "b" and dt.kind != "b":
            src = -src.astype(np.int8)
        if dt.kind == "b" and src.dtype.kind != "b":
            whole = np.trunc(src) if src.dtype.kind == "f" else src
            return (whole.astype(np.int64) & 1).astype(np.bool_)
        return src.astype(dt, copy=True)


def combine(arrays: Sequence[np.ndarray], kind: str, dtype: np.dtype | type | None = None) -> np.ndarray:
    """Reduce `arrays` element-wise with `kind`, in the order given, after
    converting each to `dtype` (default: the first array's): the one
    definition shared by all_reduce, reduce, reduce_scatter and partial
    layouts.

    Arithmetic happens in `dtype`, so integers wrap on overflow.  `average` is
    the sum divided by the number of arrays; for integers the quotient is
    truncated toward zero.  A bool is an i1: sum is xor, product is and,
    average is the xor divided by the count; max and min read it signed
    (true is -1), as `arith.maxsi`/`arith.minsi` (which partitioning splits
    into them) do: max is and, min is or.  Float max and min order -0.0
    below +0.0 and propagate NaN, as `arith.maximumf`/`arith.minimumf` do.
    """
    if not arrays:
        raise ValueError("nothing to reduce")
    dt = np.dtype(dtype) if dtype is not None else np.asarray(arrays[0]).dtype
    problem = reduction_problem(kind, dt)
    if problem:
        raise ValueError(problem)
    values = [convert(a, dt) for a in arrays]
    boolean = dt.kind == "b"
    floating = dt.kind == "f"
    op = {
        "sum": np.logical_xor if boolean else np.add,
        "average": np.logical_xor if boolean else np.add,
        "product": np.multiply,
        "max": np.logical_and if boolean else minmax.maximum if floating else np.maximum,
        "min": np.logical_or if boolean else minmax.minimum if floating else np.minimum,
        "bitwise_and": np.bitwise_and,
        "bitwise_or": np.bitwise_or,
        "bitwise_xor": np.bitwise_xor,
    }[kind]
    with np.errstate(all="ignore"):
        acc = values[0]
        for v in values[1:]:
            acc = np.asarray(op(acc, v), dtype=dt)
        if kind == "average":
            acc = _divide(acc, len(values))
    return np.array(acc, dtype=dt)


def _divide(total: np.ndarray, n: int) -> np.ndarray:
    """`total / n` in total's dtype; integers truncate toward zero."""
    dt = total.dtype
    if dt.kind in "fc":
        return np.asarray(total / dt.type(n), dtype=dt)
    if dt.kind == "b":
        return np.asarray(total.astype(np.uint8) // n, dtype=dt)
    wide = np.dtype(np.int64) if dt.kind == "i" else np.dtype(np.uint64)
    w = total.astype(wide)
    d = wide.type(n)
    # fmod keeps the dividend's sign, so w - r moves toward zero and never overflows.
    r = np.fmod(w, d)
    return np.asarray((w - r) // d, dtype=wide).astype(dt)


def _identity(kind: str, dtype: np.dtype) -> np.generic | None:
    """The value non-leading devices of a partial layout hold, or None when
    they hold the value itself."""
    if kind == "sum" and dtype.kind == "f":
        return dtype.type(-0.0)  # x + -0.0 is x for every x, -0.0 included
    if kind == "sum" and dtype.kind == "c":
        return dtype.type(complex(-0.0, -0.0))
    if kind in ("sum", "bitwise_xor"):
        return dtype.type(0)
    if kind == "product":
        return dtype.type(1)
    return None


# -- random partial terms ----------------------------------------------------------


def fixed_terms(value: np.ndarray, kind: str, n: int) -> np.ndarray:
    """The fixed decomposition of the module docstring, stacked on a new
    first axis (one entry per in-group position)."""
    x = np.asarray(value)
    ident = _identity(kind, x.dtype)
    terms = np.repeat(x[None], n, axis=0)
    if ident is not None:
        terms[1:] = ident
    return terms


def partial_terms(value: np.ndarray, kind: str, n: int, rng: np.random.Generator, *, bf16: bool = False) -> np.ndarray:
    """`n` random terms, stacked on a new first axis in in-group order, whose
    reduction `combine(list(terms), kind)` is `value`.

    Integers and bools: exact (sum and product wrap; average sums to exactly
    n * value, so an average that overflows the type is refused).  Floats:
    sum and average use signed terms on a power-of-two grid chosen so that
    every partial sum in in-group order is exact; product uses random signed
    powers of two; max / min put the value on one random device and smaller
    (larger) values on the others.  Where a float term would overflow, or an
    average cannot be hit exactly, the element keeps whichever of the random
    and the fixed decomposition (`fixed_terms`) reduces closer to it.
    `bf16`: f32 values that are bf16s (`floats`), and so are the terms.
    """
    x = np.asarray(value)
    dt = x.dtype
    problem = reduction_problem(kind, dt)
    if problem:
        raise LayoutError(problem)
    if n == 1:
        return x[None].copy()
    with np.errstate(all="ignore"):
        if dt.kind in "biu":
            return _integer_terms(x, kind, n, rng)
        terms = _float_terms(x, kind, n, rng, BF16_BITS if bf16 else None)
        if bf16:
            terms = to_bf16(terms)  # (sum terms already are; the check below catches the others)
        fixed = fixed_terms(x, kind, n)
        got = combine(list(terms), kind, dt)
        if kind in ("sum", "average"):
            # random terms that cancel reduce to +0.0: a -0.0 keeps the fixed ones
            signed = np.signbit(x.real) | np.signbit(x.imag) if dt.kind == "c" else np.signbit(x)
            negative_zero = (x == 0) & signed
            if negative_zero.any():
                terms = np.where(negative_zero[None], fixed, terms)
                got = combine(list(terms), kind, dt)
        if not _equal_cells(got, x).all():
            want = x.astype(np.complex128 if dt.kind == "c" else np.float64)
            err_random = np.abs(got.astype(want.dtype) - want)
            err_fixed = np.abs(combine(list(fixed), kind, dt).astype(want.dtype) - want)
            worse = ~_equal_cells(got, x) & ~(err_random <= err_fixed)
            terms = np.where(worse[None], fixed, terms)
    return terms


def _random_bits(rng: np.random.Generator, shape: tuple[int, ...], dt: np.dtype) -> np.ndarray:
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(np.bool_)
    info = np.iinfo(dt)
    return rng.integers(info.min, info.max, shape, dtype=dt, endpoint=True)


def _integer_terms(x: np.ndarray, kind: str, n: int, rng: np.random.Generator) -> np.ndarray:
    """Exact random terms for integers and bools; their order is shuffled
    per element, since every integer reduction is commutative."""
    dt = x.dtype
    shape = x.shape
    boolean = dt.kind == "b"
    if boolean and kind in ("sum", "average"):
        kind = "bitwise_xor" if kind == "sum" else kind
    if boolean and kind in ("product", "max"):
        kind = "bitwise_and"  # signed i1: max is and (see `combine`)
    if boolean and kind == "min":
        kind = "bitwise_or"
    terms = np.empty((n, *shape), dtype=dt)
    rest = terms[: n - 1]
    if kind == "average":
        if boolean:
            # combine: the xor of the terms divided by n >= 2 is always false.
            if x.any():
                raise LayoutError(f"a bool average over {n} devices is always false; it cannot hold true")
            rest[...] = _random_bits(rng, rest.shape, dt)
            terms[n - 1] = np.bitwise_xor.reduce(rest, axis=0) if n > 1 else False
            return rng.permuted(terms, axis=0)
        info = np.iinfo(dt)
        low, high = -((-int(info.min)) // n), int(info.max) // n
        bad = (x < low) | (x > high) if dt.kind == "i" else x > high
        if bad.any():
            v = x[bad].flat[0]
            raise LayoutError(
                f"cannot hold {v} as an average over {n} devices in {dt}: the terms must sum to {n} x {v}, "
                "which overflows"
            )
        x = (x * dt.type(n)).astype(dt)
        kind = "sum"
    if kind == "sum":
        lo = -16 if dt.kind == "i" else 0
        rest[...] = rng.integers(lo, 17, rest.shape).astype(dt)
        terms[n - 1] = x - np.add.reduce(rest, axis=0, dtype=dt)
    elif kind == "bitwise_xor":
        rest[...] = _random_bits(rng, rest.shape, dt)
        terms[n - 1] = x ^ np.bitwise_xor.reduce(rest, axis=0)
    elif kind == "bitwise_and":
        rest[...] = x | _random_bits(rng, rest.shape, dt)
        terms[n - 1] = x | ~np.bitwise_and.reduce(rest, axis=0)
    elif kind == "bitwise_or":
        rest[...] = x & _random_bits(rng, rest.shape, dt)
        terms[n - 1] = x & ~np.bitwise_or.reduce(rest, axis=0)
    elif kind == "product":
        # Odd numbers are units modulo 2**bits: the last term is x times
        # the inverse of the others' product (Newton's iteration).
        unsigned = np.dtype(f"u{dt.itemsize}")
        units = (rng.integers(0, 8, rest.shape) * 2 + 1).astype(unsigned)
        units = np.where(rng.integers(0, 2, rest.shape).astype(bool), (~units + 1).astype(unsigned), units)
        rest[...] = units.view(dt)
        p = np.multiply.reduce(units, axis=0, dtype=unsigned) if n > 1 else np.ones(shape, unsigned)
        inv = p.copy()
        for _ in range(6):
            inv = (inv * (unsigned.type(2) - p * inv)).astype(unsigned)
        terms[n - 1] = (x.astype(dt).view(unsigned) * inv).astype(unsigned).view(dt)
    elif kind in ("max", "min"):
        info = np.iinfo(dt)
        k = rng.integers(0, 17, (n, *shape)).astype(dt)
        if kind == "max":
            terms[...] = np.where(x[None] >= info.min + k, x[None] - k, info.min)
        else:
            terms[...] = np.where(x[None] <= info.max - k, x[None] + k, info.max)
        terms[n - 1] = x
    return rng.permuted(terms, axis=0)


def _float_terms(x: np.ndarray, kind: str, n: int, rng: np.random.Generator, bits: int | None = None) -> np.ndarray:
    dt = x.dtype
    if dt.kind == "c":
        if kind == "product":
            return _complex_product(x, n, rng)
        real = _float_terms(x.real, kind, n, rng)
        imag = _float_terms(x.imag, kind, n, rng)
        return (real + 1j * imag).astype(dt)
    if kind in ("sum", "average"):
        target = x if kind == "sum" else _average_target(x, n)
        return _sum_terms(target, n, rng, bits)
    if kind == "product":
        return _product_terms(x, n, rng)
    # max / min: x on one random device, strictly smaller (larger) values elsewhere.
    scale = np.abs(x) + 1
    step = (np.abs(rng.standard_normal((n, *x.shape))) * scale).astype(dt)
    terms = (x[None] - step if kind == "max" else x[None] + step).astype(dt)
    where = rng.integers(0, n, x.shape)
    np.put_along_axis(terms, where[None], x[None], axis=0)
    return terms


def _complex_product(x: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    """Real powers of two times signs, the last term x over their product."""
    factors = _signed_powers(rng, (n - 1, *x.shape)).astype(x.dtype)
    last = (x / np.multiply.reduce(factors, axis=0)).astype(x.dtype)
    return np.concatenate([factors, last[None]], axis=0)


def _signed_powers(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    signs = np.where(rng.integers(0, 2, shape).astype(bool), -1.0, 1.0)
    return signs * np.ldexp(1.0, rng.integers(-2, 3, shape))


def _product_terms(x: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    """Random signed powers of two and x over their product: exact unless
    a term leaves the exponent range."""
    factors = _signed_powers(rng, (n - 1, *x.shape))
    last = x.astype(np.float64) / np.multiply.reduce(factors, axis=0)
    return np.concatenate([factors, last[None]], axis=0).astype(x.dtype)


def _average_target(x: np.ndarray, n: int) -> np.ndarray:
    """A total T with T / n == x in x's type (as `combine` divides), found
    among the neighbours of n * x; n * x itself where none is exact."""
    dt = x.dtype
    base = (x.astype(np.float64) * n).astype(dt)
    best = base.copy()
    found = (best / dt.type(n)).astype(dt) == x
    for steps in (1, -1, 2, -2):
        cand = base
        for _ in range(abs(steps)):
            cand = np.nextafter(cand, dt.type(np.inf if steps > 0 else -np.inf)).astype(dt)
        ok = ~found & ((cand / dt.type(n)).astype(dt) == x)
        best = np.where(ok, cand, best)
        found |= ok
    return best


def _sum_terms(x: np.ndarray, n: int, rng: np.random.Generator, bits: int | None = None) -> np.ndarray:
    """Signed random terms whose in-order sum is exactly x.

    With B >= |x| below 2**e and q = 2**(e - nbits + k), 2**k >= n: terms
    0..n-3 are random multiples of q in [-B, B]; term n-2 brings their sum to
    S, a random multiple of q between 0 and x; term n-1 is x - S.  Every
    prefix sum is a multiple of q below 2**(e + k) in magnitude, so exact,
    and x - S is exact because it has x's sign and is no larger than x.
    """
    dt = x.dtype
    nbits = bits or np.finfo(dt).nmant + 1  # (`bits`: a narrower type held in `dt`)
    finite = np.isfinite(x)
    wide = np.where(finite, x, 0).astype(np.float64)
    magnitude = np.abs(wide)
    typical = float(np.sqrt(np.mean(magnitude**2))) if magnitude.size else 0.0
    if not typical > 0 or not np.isfinite(typical):
        typical = 1.0
    bound = np.maximum(magnitude, typical)
    _, e = np.frexp(bound)
    k = max(1, int(np.ceil(np.log2(n))))
    q = np.ldexp(1.0, e - nbits + k)
    top = np.floor(bound / q)
    terms = np.zeros((n, *x.shape), dtype=np.float64)
    for i in range(n - 2):
        terms[i] = np.floor(rng.uniform(-1, 1, x.shape) * (top + 1)).clip(-top, top) * q
    s = (
        np.sign(wide)
        * np.floor(rng.uniform(0, 1, x.shape) * (np.floor(magnitude / q) + 1)).clip(0, np.floor(magnitude / q))
        * q
    )
    terms[n - 2] = s - terms[: n - 2].sum(axis=0)
    terms[n - 1] = wide - s
    out = terms.astype(dt)
    out[:, ~finite] = 0
    out[n - 1, ~finite] = x[~finite]
    return out


# -- shard / assemble ------------------------------------------------------------


def shard(
    global_array: np.ndarray,
    sharding: Sharding,
    mesh: Mesh,
    *,
    rng: np.random.Generator | None = None,
    bf16: bool = False,
) -> dict[Device, np.ndarray]:
    """Every device's local array for `global_array` laid out by `sharding`.

    A local array is the device's core plus its halos; halo cells that fall
    outside the global array are poison.  Partial layouts get the fixed
    decomposition described in the module docstring, or random terms drawn
    from `rng` (`partial_terms`; `bf16`: values and terms that are bf16s).
    Arrays are fresh copies.
    """
    g = np.asarray(global_array)
    sharding.validate(mesh, g.shape)
    if sharding.is_partial:
        problem = reduction_problem(sharding.partial_type, g.dtype)
        if problem:
            raise LayoutError(problem)
    if sharding.is_partial and rng is not None:
        n = mesh.group_size(sharding.partial_axes)
        terms = partial_terms(g, sharding.partial_type, n, rng, bf16=bf16)
        return _shard_terms(terms, sharding, mesh)
    ident = _identity(sharding.partial_type, g.dtype) if sharding.is_partial else None
    out: dict[Device, np.ndarray] = {}
    for dev in mesh.devices():
        core = sharding.slice_of(g.shape, mesh, dev)
        local = poison(sharding.local_shape(g.shape, mesh, dev), g.dtype)
        src, dst = [], []
        for dim, (s, size) in enumerate(zip(core, g.shape)):
            low, high = sharding.halo(dim)
            start, stop = max(s.start - low, 0), min(s.stop + high, size)
            stop = max(stop, start)
            src.append(slice(start, stop))
            dst.append(slice(start - (s.start - low), stop - (s.start - low)))
        leading = mesh.in_group_index(dev, sharding.partial_axes) == 0
        if ident is None or leading:
            local[tuple(dst)] = g[tuple(src)]
        else:
            local[tuple(dst)] = ident
        out[dev] = local
    return out


def _shard_terms(terms: np.ndarray, sharding: Sharding, mesh: Mesh) -> dict[Device, np.ndarray]:
    """`shard` of a partial value given as one global term per in-group position."""
    out: dict[Device, np.ndarray] = {}
    plain = Sharding(sharding.split_axes, (), "sum", sharding.halo_sizes, sharding.sharded_dims_offsets)
    cache: dict[int, dict[Device, np.ndarray]] = {}
    for dev in mesh.devices():
        p = mesh.in_group_index(dev, sharding.partial_axes)
        if p not in cache:
            cache[p] = shard(terms[p], plain, mesh)
        out[dev] = cache[p][dev]
    return out


def global_shape(locals: Mapping[Device, np.ndarray], sharding: Sharding, mesh: Mesh) -> tuple[int, ...]:
    """The global shape that per-device arrays laid out by `sharding` add up
    to (read from the first device; `assemble` checks the others)."""
    sharding.validate(mesh)
    first = mesh.devices()[0]
    if first not in locals:
        raise LayoutError(f"device {list(first)} has no array")
    local = np.shape(locals[first])
    if len(sharding.split_axes) > len(local):
        raise LayoutError(
            f"sharding splits {len(sharding.split_axes)} tensor dimensions but the arrays have rank {len(local)}"
        )
    shape = []
    for dim in range(len(local)):
        given = sharding.offsets(dim, mesh)
        if given is not None:
            shape.append(given[-1])
            continue
        # Pieces may differ in size (the last n % k are one longer): add up
        # the cores of the devices along the dimension's split axes.
        total = 0
        for dev in mesh.group_of(first, sharding.axes_of(dim)):
            if dev not in locals:
                raise LayoutError(f"device {list(dev)} has no array")
            size = np.shape(locals[dev])[dim] if np.ndim(locals[dev]) > dim else 0
            core = size - sum(sharding.halo(dim))
            if core < 0:
                raise LayoutError(
                    f"device {list(dev)} holds {size} elements along dimension {dim}, fewer than its halos "
                    f"{list(sharding.halo(dim))}"
                )
            total += core
        shape.append(total)
    return tuple(shape)


def assemble(
    locals: Mapping[Device, np.ndarray],
    sharding: Sharding,
    mesh: Mesh,
    *,
    check_replicas: bool = True,
    bf16: bool = False,
) -> np.ndarray:
    """The global array that per-device arrays laid out by `sharding` stand
    for: cores put in place, partial terms reduced with the partial type (in
    in-group order over the partial axes; `bf16`: values that are bf16s,
    whose reduction is rounded to one, as an all_reduce's is).

    With `check_replicas`, devices that differ only along mesh axes used
    neither for splitting nor as partial axes must hold the same core, NaN
    matching NaN; otherwise ReplicaMismatch names two of them.  Without it,
    the replica at coordinate 0 along those axes is used.
    """
    devices = mesh.devices()
    missing = [d for d in devices if d not in locals]
    if missing:
        raise LayoutError(f"device {list(missing[0])} has no array ({len(missing)} of {len(devices)} missing)")
    known = set(devices)
    extra = [d for d in locals if d not in known]
    if extra:
        raise LayoutError(f"{extra[0]} is not a device of the mesh of shape {list(mesh.shape)}")
    arrays = {d: np.asarray(locals[d]) for d in devices}
    dtype = arrays[devices[0]].dtype
    shape = global_shape(arrays, sharding, mesh)
    try:
        sharding.validate(mesh, shape)
    except ShardingError as e:
        raise LayoutError(f"the arrays do not fit the sharding: {e}") from None
    cores: dict[Device, np.ndarray] = {}
    for d in devices:
        a = arrays[d]
        if a.dtype != dtype:
            raise LayoutError(f"device {list(d)} holds dtype {a.dtype} but device {list(devices[0])} holds {dtype}")
        want = sharding.local_shape(shape, mesh, d)
        if a.shape != want:
            raise LayoutError(f"device {list(d)} holds shape {list(a.shape)} but the sharding gives it {list(want)}")
        core = sharding.slice_of(shape, mesh, d)
        lows = [sharding.halo(dim)[0] for dim in range(a.ndim)]
        cores[d] = a[tuple(slice(lo, lo + s.stop - s.start) for lo, s in zip(lows, core))]
    replica_axes = sharding.replica_axes(mesh)
    if check_replicas and replica_axes:
        for group in mesh.groups(replica_axes):
            for other in group[1:]:
                _check_same(group[0], other, cores[group[0]], cores[other])
    if sharding.is_partial:
        problem = reduction_problem(sharding.partial_type, dtype)
        if problem:
            raise LayoutError(problem)
    out = np.empty(shape, dtype=dtype)
    for d in pieces(sharding, mesh):
        core = cores[d]
        if sharding.is_partial:
            terms = [cores[m] for m in mesh.group_of(d, sharding.partial_axes)]
            core = combine(terms, sharding.partial_type, dtype)
            if bf16:
                core = to_bf16(core)
        out[sharding.slice_of(shape, mesh, d)] = core
    if check_replicas and any(sharding.halo_sizes) and not sharding.is_partial:
        _check_halos(arrays, out, sharding, mesh)
    return out


def _check_halos(arrays: Mapping[Device, np.ndarray], whole: np.ndarray, sharding: Sharding, mesh: Mesh) -> None:
    """Each device's halo cells inside the tensor must hold the cells they
    copy (those past its edges are undefined): a program that returns stale
    halos would otherwise pass, as only cores are assembled."""
    for d, a in arrays.items():
        local, outside = [], []
        for dim, s in enumerate(sharding.slice_of(whole.shape, mesh, d)):
            low, high = sharding.halo(dim)
            first = s.start - low  # the global index of the local array's first cell
            lo, hi = max(0, first), min(whole.shape[dim], s.stop + high)
            local.append(slice(lo - first, hi - first))
            outside.append(slice(lo, hi))
        mine, theirs = a[tuple(local)], whole[tuple(outside)]
        equal = _equal_cells(mine, theirs)
        if not equal.all():
            at = [int(i) + o.start for i, o in zip(np.argwhere(~equal)[0], outside)]
            raise LayoutError(
                f"device {list(d)} holds halo cells unlike the cells they copy: max difference "
                f"{max_difference(mine, theirs)} (first at global index {at})"
            )


def _check_same(a_dev: Device, b_dev: Device, a: np.ndarray, b: np.ndarray) -> None:
    equal = _equal_cells(a, b)
    if equal.all():
        return
    where = tuple(int(i) for i in np.argwhere(~equal)[0]) if a.ndim else ()
    raise ReplicaMismatch(a_dev, b_dev, max_difference(a, b), where)


def _equal_cells(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Element-wise equality in which NaN equals NaN (and NaT equals NaT)."""
    eq = np.asarray(a == b)
    if a.dtype.kind in "fcmM":
        eq = eq | (is_poison(a) & is_poison(b))
    return eq


def max_difference(a: np.ndarray, b: np.ndarray) -> object:
    """The largest |a - b| over cells that differ, exact for integers (nan when
    a NaN meets a number); 0 when the arrays are equal."""
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        raise ValueError(f"shapes {list(a.shape)} and {list(b.shape)} differ")
    differ = ~_equal_cells(a, b)
    if not differ.any():
        return 0
    x, y = a[differ], b[differ]
    if a.dtype.kind in "biu":
        return max(abs(int(p) - int(q)) for p, q in zip(x.tolist(), y.tolist()))
    if a.dtype.kind in "fc":
        with np.errstate(all="ignore"):
            d = np.abs(x.astype(np.complex128 if a.dtype.kind == "c" else np.float64) - y)
        return float("nan") if np.isnan(d).any() else float(d.max())
    return "not comparable"


def pieces(sharding: Sharding, mesh: Mesh) -> list[Device]:
    """One device per distinct piece: coordinate 0 along every replica and
    partial axis (the devices `assemble` reads from)."""
    fixed = sharding.replica_axes(mesh) + sharding.partial_axes
    return [d for d in mesh.devices() if not any(d[a] for a in fixed)]


__all__ = [
    "REDUCIBLE_KINDS",
    "LayoutError",
    "ReplicaMismatch",
    "assemble",
    "combine",
    "convert",
    "fixed_terms",
    "global_shape",
    "garbage",
    "is_poison",
    "max_difference",
    "partial_terms",
    "pieces",
    "poison",
    "poison_value",
    "reduction_problem",
    "shard",
]
