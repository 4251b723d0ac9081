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

Partial values.  For a sharding with partial axes, `shard` returns one
decomposition whose reduction over the partial axes gives back the value:
for sum and bitwise_xor the device at position 0 along the partial axes holds
the value and the others 0; for product the others hold 1; for max, min,
average, bitwise_and and bitwise_or every device holds the value.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from ..sharding.spec import REDUCTION_KINDS, Device, Mesh, Sharding, ShardingError

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
    """`array` in element type `dtype` the way a cast in the IR would do it:
    integers wrap, floats round; float-to-integer of NaN or out-of-range
    values is undefined in MLIR and gives whatever numpy gives."""
    with np.errstate(all="ignore"):
        return np.asarray(array).astype(np.dtype(dtype), copy=True)


def combine(arrays: Sequence[np.ndarray], kind: str, dtype: np.dtype | type | None = None) -> np.ndarray:
    """Reduce `arrays` element-wise with `kind`, in the order given, after
    converting each to `dtype` (default: the first array's): the one
    definition shared by all_reduce, reduce, reduce_scatter and partial
    layouts.

    Arithmetic happens in `dtype`, so integers wrap on overflow.  `average` is
    the sum divided by the number of arrays; for integers the quotient is
    truncated toward zero.  A bool is a 1-bit unsigned integer: sum is xor,
    product is and, average is the xor divided by the count.
    """
    if not arrays:
        raise ValueError("nothing to reduce")
    dt = np.dtype(dtype) if dtype is not None else np.asarray(arrays[0]).dtype
    problem = reduction_problem(kind, dt)
    if problem:
        raise ValueError(problem)
    values = [convert(a, dt) for a in arrays]
    op = {
        "sum": np.logical_xor if dt.kind == "b" else np.add,
        "average": np.logical_xor if dt.kind == "b" else np.add,
        "product": np.multiply,
        "max": np.maximum,
        "min": np.minimum,
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
    if kind in ("sum", "bitwise_xor"):
        return dtype.type(0)
    if kind == "product":
        return dtype.type(1)
    return None


# -- shard / assemble ------------------------------------------------------------


def shard(global_array: np.ndarray, sharding: Sharding, mesh: Mesh) -> dict[Device, np.ndarray]:
    """Every device's local array for `global_array` laid out by `sharding`.

    A local array is the device's core plus its halos; halo cells that fall
    outside the global array are poison.  Partial layouts get the
    decomposition described in the module docstring.  Arrays are fresh copies.
    """
    g = np.asarray(global_array)
    sharding.validate(mesh, g.shape)
    if sharding.is_partial:
        problem = reduction_problem(sharding.partial_type, g.dtype)
        if problem:
            raise LayoutError(problem)
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
    for dim, size in enumerate(local):
        given = sharding.offsets(dim, mesh)
        if given is not None:
            shape.append(given[-1])
        else:
            core = size - sum(sharding.halo(dim))
            if core < 0:
                raise LayoutError(
                    f"device {list(first)} holds {size} elements along dimension {dim}, fewer than its halos "
                    f"{list(sharding.halo(dim))}"
                )
            shape.append(core * sharding.shard_count(dim, mesh))
    return tuple(shape)


def assemble(
    locals: Mapping[Device, np.ndarray], sharding: Sharding, mesh: Mesh, *, check_replicas: bool = True
) -> np.ndarray:
    """The global array that per-device arrays laid out by `sharding` stand
    for: cores put in place, partial terms reduced with the partial type (in
    in-group order over the partial axes).

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
        out[sharding.slice_of(shape, mesh, d)] = core
    return out


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
    "global_shape",
    "is_poison",
    "max_difference",
    "pieces",
    "poison",
    "poison_value",
    "reduction_problem",
    "shard",
]
