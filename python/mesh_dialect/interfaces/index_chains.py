"""Index arithmetic a linalg body applies to one of its loop indices before
it reads a tensor from outside the op.

PyTorch's nearest up-sampling, as torch-mlir writes it, reads the input at
`clamp(floor(float(i) / 2.0), 0, n - 1)` for output index `i`: a chain of
casts, float division, rounding and clamps, where `i floordiv 2` is meant.
Rather than recognise each spelling, `chain_to_index` walks the chain back
to the `linalg.index` it starts from, and `divides_by` runs it on every
index of the loop, with the rounding of each float op and integers kept
where signed and unsigned ops agree, and compares the result with
`i floordiv s`.  A chain that matches on the whole loop also
matches on every device's piece of it, so a device reading its own piece
of the tensor at its local index reads what the whole op read.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from mlir import ir

from ..ir.uniform import readable_attr
from .registry import single_use

_FLOATS = {16: np.float16, 32: np.float32, 64: np.float64}

_UNARY = frozenset(
    {
        "arith.index_cast",
        "arith.index_castui",
        "arith.extsi",
        "arith.extui",
        "arith.trunci",
        "arith.sitofp",
        "arith.uitofp",
        "arith.fptosi",
        "arith.fptoui",
        "math.floor",
        "math.ceil",
    }
)
_BINARY = frozenset(
    {
        "arith.addf",
        "arith.subf",
        "arith.mulf",
        "arith.divf",
        "arith.maximumf",
        "arith.minimumf",
        "arith.maxnumf",
        "arith.minnumf",
        "arith.addi",
        "arith.subi",
        "arith.muli",
        "arith.divsi",
        "arith.divui",
        "arith.floordivsi",
        "arith.maxsi",
        "arith.minsi",
        "arith.maxui",
        "arith.minui",
    }
)
_LARGEST = 1 << 31
"""The largest integer constant a chain may use (int64 arrays do not trap on
overflow: with values below a loop's size, products stay far from it)."""
_LONGEST_LOOP = 1 << 24
"""The longest loop a chain is run on; a longer one reads its tensor whole."""
_LONGEST = 16
"""The most ops a chain may have (torch-mlir's has eight)."""


def chain_to_index(value: ir.Value, body_values: set[ir.Value]) -> tuple[ir.Operation, list[ir.Operation]] | None:
    """The `linalg.index` op `value` is computed from, and the chain of ops
    computing it in order (empty: `value` is the index), when each op in
    the chain takes one operand from the chain and any others from
    `arith.constant`s, and each value the chain computes has one use (the
    next op, or the read): a device may then run the whole chain on its
    local index.  None otherwise (`body_values`: the op's own body's values)."""
    chain: list[ir.Operation] = []
    while True:
        owner = value.owner
        if isinstance(owner, ir.Block) or value not in body_values:
            return None
        op = owner.operation
        if op.name == "linalg.index":
            chain.reverse()
            return op, chain
        if len(chain) == _LONGEST or (op.name not in _UNARY and op.name not in _BINARY) or len(op.results) != 1:
            return None
        # each value of the chain feeds only the next op (or the extract):
        # a device runs the whole chain on its local index
        if not single_use(op.result):
            return None
        inputs = [v for v in op.operands if _constant(v) is None]
        if len(inputs) != 1:
            return None
        chain.append(op)
        value = inputs[0]


def divides_by(index: ir.Operation, chain: Sequence[ir.Operation], size: int, scale: int) -> bool:
    """Whether the chain computes `i floordiv scale` for every index `i`
    of a loop of `size`, run as MLIR runs it (the rounding of each float
    op).  Integers must stay non-negative and below their type's signed
    range, where signed and unsigned ops agree and nothing wraps: a chain
    that leaves that range, traps or makes poison fails, as does a loop
    too long to run the chain on."""
    if size <= 0 or scale <= 0 or size > _LONGEST_LOOP:
        return False
    values: np.ndarray = np.arange(size, dtype=np.int64)
    kind: object = "index"
    try:
        with np.errstate(all="raise"):
            for op in chain:
                found = _step(op, values, kind)
                if found is None:
                    return False
                values, kind = found
    except (FloatingPointError, OverflowError, ValueError, TypeError, MemoryError):
        return False
    return (
        _is_int(kind)
        and values.dtype.kind == "i"
        and bool(np.array_equal(values, np.arange(size, dtype=np.int64) // scale))
    )


def _step(op: ir.Operation, x: np.ndarray, kind: object) -> tuple[np.ndarray, object] | None:
    """One op of a chain on the values so far (`kind`: "index", an integer
    width, or a float numpy type), None where it is not run exactly."""
    name = op.name
    out = _kind(op.result.type)
    if out is None or not _exact(op):
        return None
    if name in _UNARY:
        if name in ("math.floor", "math.ceil"):
            return ((np.floor if name == "math.floor" else np.ceil)(x), out) if not _is_int(kind) else None
        if name in ("arith.sitofp", "arith.uitofp"):
            # (the values are non-negative: both read them alike)
            return (x.astype(out), out) if _is_int(kind) and not _is_int(out) else None
        if name in ("arith.fptosi", "arith.fptoui"):
            if _is_int(kind) or not _is_int(out) or not np.all(np.isfinite(x)):
                return None
            y = np.trunc(x).astype(np.int64)
            return (y, out) if _fits(y, out) else None
        # an integer cast: the same non-negative value in another width
        return (x, out) if _is_int(kind) and _is_int(out) and _fits(x, out) else None
    # a binary op: the chain's operand and a constant, in their places
    first = _constant(op.operands[0])
    c = first if first is not None else _constant(op.operands[1])
    if c is None or kind != out:
        return None
    if _is_int(out):
        if not isinstance(c, int) or not 0 <= c <= _LARGEST:
            return None
        a, b = (np.int64(c), x) if first is not None else (x, np.int64(c))
        y = _integer(name, a, b)
        return None if y is None or not _fits(y, out) else (y, out)
    if not isinstance(c, float):
        return None
    ct = out(c)  # type: ignore[operator]
    a, b = (ct, x) if first is not None else (x, ct)
    y = _floating(name, a, b)
    return None if y is None else (np.asarray(y, dtype=out), out)


def _exact(op: ir.Operation) -> bool:
    """Whether the op computes as written: fast-math flags let a compiler
    turn a division into a multiplication by the reciprocal, which rounds
    otherwise."""
    if "fastmath" not in op.attributes:
        return True
    return str(op.attributes["fastmath"]) == "#arith.fastmath<none>"


def _integer(name: str, a, b) -> np.ndarray | None:
    """An integer op on non-negative values, where its signed and unsigned
    forms agree: divisions round down (toward zero)."""
    if name in ("arith.divsi", "arith.divui", "arith.floordivsi"):
        return None if np.any(np.asarray(b) == 0) else np.asarray(np.floor_divide(a, b), dtype=np.int64)
    fn = {
        "arith.addi": np.add,
        "arith.subi": np.subtract,
        "arith.muli": np.multiply,
        "arith.maxsi": np.maximum,
        "arith.minsi": np.minimum,
        "arith.maxui": np.maximum,
        "arith.minui": np.minimum,
    }.get(name)
    return None if fn is None else np.asarray(fn(a, b), dtype=np.int64)


def _floating(name: str, a, b):
    fn = {
        "arith.addf": np.add,
        "arith.subf": np.subtract,
        "arith.mulf": np.multiply,
        "arith.divf": np.divide,
        "arith.maximumf": np.maximum,
        "arith.minimumf": np.minimum,
        "arith.maxnumf": np.fmax,
        "arith.minnumf": np.fmin,
    }.get(name)
    return None if fn is None else fn(a, b)


def _kind(t: ir.Type) -> object | None:
    """The index type as "index", an integer by its width, a float by its numpy type; None for others."""
    if isinstance(t, ir.IndexType):
        return "index"
    if isinstance(t, ir.IntegerType):
        it = ir.IntegerType(t)
        return it.width if it.is_signless and it.width > 1 else None
    if isinstance(t, ir.F16Type | ir.F32Type | ir.F64Type):
        return _FLOATS[ir.FloatType(t).width]
    return None


def _is_int(kind: object) -> bool:
    return kind == "index" or isinstance(kind, int)


def _fits(x: np.ndarray, kind: object) -> bool:
    """Whether every value is non-negative and within `kind`'s signed range
    (an index is 64 bits): there signed and unsigned readings agree."""
    width = 64 if kind == "index" else kind
    assert isinstance(width, int)
    return bool(np.all(x >= 0) and np.all(x <= (1 << (width - 1)) - 1))


def _constant(v: ir.Value) -> int | float | None:
    """The value of a scalar `arith.constant` (None: any other value)."""
    owner = v.owner
    if isinstance(owner, ir.Block):
        return None
    op = owner.operation
    if op.name != "arith.constant":
        return None
    attr = readable_attr(op, "value")
    if isinstance(attr, ir.IntegerAttr):
        return ir.IntegerAttr(attr).value
    if isinstance(attr, ir.FloatAttr):
        return ir.FloatAttr(attr).value
    return None
