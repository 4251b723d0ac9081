"""linalg on numpy values.

Every structured linalg op (generic, the named ops, map, reduce, transpose,
broadcast, fill, copy, matmul, convolutions...) carries its indexing maps
and a body region holding its scalar computation, so all of them run as the
`linalg.generic` they denote: the maps and iterator types are decoded once
at compile time and the body is run on numpy values.

Results follow the loop-nest semantics of MLIR exactly: each output element
starts from its `outs` value and is updated once per point of the
reduction dims, in their lexicographic order, in the output element type.
Three ways give those results:

* no reduction dim: the body runs once on arrays over the whole iteration
  domain (scalar handlers work on arrays too);
* reductions whose body is `out = combine(out, f(ins))` with a known
  combiner (addf, muli, maxsi, ...) and few parallel points: `f` runs on
  slabs of the domain with `out` set to the combiner's identity, then the
  combiner folds each slab into the accumulator in order with
  `ufunc.accumulate` (sequential, so float sums round as the loop would);
* otherwise the body runs once per point of the reduction dims, on arrays
  over the parallel dims.

Bodies that cannot run on arrays (regions, ops other than arith, math and
linalg.index) and outputs whose maps are not permutations of the parallel
dims run element by element, which is the loop nest itself.
`linalg.index` reads the loop position from a stack the running op pushes:
index grids over the dims computed at once, plain values for the others.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np
from mlir import ir
from mlir.dialects import _linalg_ops_gen

from ...ir.linalg_ops import get_indexing_maps
from ...ir.types import is_boolean
from .. import minmax
from ..floats import to_bf16
from ..program import Block, Compiler, Step, dtype_of, fail, is_bf16, register, run_block_now

# ---------------------------------------------------------------------------
# Affine expressions, compiled to tuples once.

Expr = tuple  # ("dim", i) | ("const", c) | (kind, lhs, rhs)

_BINARY_EXPRS = (
    (ir.AffineAddExpr, "add"),
    (ir.AffineMulExpr, "mul"),
    (ir.AffineModExpr, "mod"),
    (ir.AffineFloorDivExpr, "floordiv"),
    (ir.AffineCeilDivExpr, "ceildiv"),
)


def _compile_expr(e: ir.AffineExpr) -> Expr:
    if isinstance(e, ir.AffineDimExpr):
        return ("dim", e.position)
    if isinstance(e, ir.AffineConstantExpr):
        return ("const", e.value)
    for cls, kind in _BINARY_EXPRS:
        if isinstance(e, cls):
            lhs, rhs = _compile_expr(e.lhs), _compile_expr(e.rhs)
            if kind in ("mod", "floordiv", "ceildiv") and not (rhs[0] == "const" and rhs[1] > 0):
                raise ValueError(f"affine expression {e} divides by something other than a positive constant")
            return (kind, lhs, rhs)
    raise ValueError(f"affine expression {e} is not supported (symbols are not)")


def _eval(e: Expr, dims: list) -> Any:
    """Value of `e` where each dim is an int or an int64 index grid."""
    kind = e[0]
    if kind == "dim":
        return dims[e[1]]
    if kind == "const":
        return e[1]
    a, b = _eval(e[1], dims), _eval(e[2], dims)
    if kind == "add":
        return a + b
    if kind == "mul":
        return a * b
    if kind == "mod":
        return a % b
    if kind == "floordiv":
        return a // b
    return -((-a) // b)  # ceildiv


@dataclass
class _Map:
    exprs: tuple[Expr, ...]
    perm: tuple[int, ...] | None
    """The dims of a projected permutation map, in result order; else None."""


def _compile_map(attr: ir.Attribute, n_dims: int) -> _Map:
    amap = ir.AffineMapAttr(attr).value
    if amap.n_symbols:
        raise ValueError(f"indexing map {amap} has symbols")
    if amap.n_dims != n_dims:
        raise ValueError(f"indexing maps disagree on the number of loop dims ({amap})")
    exprs = tuple(_compile_expr(e) for e in amap.results)
    dims = [e[1] for e in exprs if e[0] == "dim"]
    perm = tuple(dims) if len(dims) == len(exprs) and len(set(dims)) == len(dims) else None
    return _Map(exprs, perm)


# ---------------------------------------------------------------------------
# Reductions whose body is a known combiner.


@dataclass
class _Combiner:
    ufunc: Any  # a numpy ufunc, or a float max/min of `sim.minmax`
    unsigned: bool
    identity: Any


_COMBINERS: dict[str, tuple[Any, bool, str]] = {
    # name: (ufunc as core applies it, works on the unsigned view, identity)
    "arith.addf": (np.add, False, "-0"),
    "arith.mulf": (np.multiply, False, "1"),
    "arith.maximumf": (minmax.maximum, False, "-inf"),
    "arith.minimumf": (minmax.minimum, False, "inf"),
    "arith.maxnumf": (minmax.maximum_number, False, "nan"),
    "arith.minnumf": (minmax.minimum_number, False, "nan"),
    "arith.addi": (np.add, False, "0"),
    "arith.muli": (np.multiply, False, "1"),
    "arith.andi": (np.bitwise_and, False, "ones"),
    "arith.ori": (np.bitwise_or, False, "0"),
    "arith.xori": (np.bitwise_xor, False, "0"),
    "arith.maxsi": (np.maximum, False, "min"),
    "arith.minsi": (np.minimum, False, "max"),
    "arith.maxui": (np.maximum, True, "0"),
    "arith.minui": (np.minimum, True, "ones"),
}
_EXACTLY_COMMUTATIVE_FLOAT = frozenset(
    ("arith.addf", "arith.mulf", "arith.maximumf", "arith.minimumf", "arith.maxnumf", "arith.minnumf")
)
"""Float combiners whose operand order never changes the result (max and
min too: -0.0 < +0.0 settles their ties)."""


def _identity(kind: str, dtype: np.dtype) -> Any:
    if kind == "ones":
        return np.array(-1, dtype=np.int64).astype(dtype)[()]
    if kind == "min":
        return np.iinfo(dtype).min if dtype.kind in "iu" else None
    if kind == "max":
        return np.iinfo(dtype).max if dtype.kind in "iu" else None
    return dtype.type(float(kind) if dtype.kind == "f" else int(float(kind)))


def _find_combiners(block: Block, n_ins: int, n_outs: int, dtypes: list[np.dtype]) -> list[_Combiner] | None:
    """Per output, the combiner when the body is `yield combine(out, e)` and
    `out` is used nowhere else; None when any output is not of that form."""
    if len(block.args) != n_ins + n_outs or block.terminator is None:
        return None
    yields = block.terminator.operands
    uses = Counter(s for step in block.steps for s in step.operands)
    uses.update(yields)
    producer = {r: step for step in block.steps for r in step.results}
    found = []
    for j, arg in enumerate(block.args[n_ins:]):
        y = yields[j]
        step = producer.get(y)
        if step is None or step.name not in _COMBINERS or len(step.operands) != 2:
            return None
        if arg not in step.operands or step.operands[0] == step.operands[1]:
            return None
        if uses[arg] != 1 or uses[y] != 1:
            return None
        dtype = dtypes[j]
        # i1 (numpy bool) stays on the loop path, which runs the body's own
        # ops: its signed max/min are and/or, and the identities below are
        # for wider integers.
        if dtype.kind not in "iuf" or step.attrs.get("dtype") != dtype:
            return None
        if dtype.kind == "f" and step.operands[0] != arg and step.name not in _EXACTLY_COMMUTATIVE_FLOAT:
            return None
        ufunc, unsigned, kind = _COMBINERS[step.name]
        if (dtype.kind == "f") != step.name.endswith("f"):
            return None
        identity = _identity(kind, dtype)
        if identity is None:
            return None
        found.append(_Combiner(ufunc, unsigned, dtype.type(identity)))
    return found


# ---------------------------------------------------------------------------
# The compiled form of a structured op.


@dataclass
class _Plan:
    n_ins: int
    n_outs: int
    n_dims: int
    maps: list[_Map]
    reduction: tuple[bool, ...]
    size_from: list[tuple[int, int]]
    """Per loop dim, an (operand, axis) whose size gives the dim's size."""
    out_dtypes: list[np.dtype]
    body_takes_outs: bool
    vectorizable: bool
    """The body holds only arith/math/linalg.index ops and every output map
    is a permutation of the parallel dims."""
    buffers: bool
    """The op works on buffers (no results): outputs are written in place."""
    bf16_outs: tuple[int, ...] = ()
    """The outputs of bf16 elements (held in f32, `floats`): their inputs
    are rounded as the body's conversions would, reductions round at every
    step, and buffers written in place are rounded."""


_VECTOR_OPS = ("arith.", "math.")
_ELEMENT_LOOP_LIMIT = 1 << 22
_ACCUMULATE_LIMIT = 1 << 21
"""Largest iteration domain evaluated in one piece for a combiner reduction
(bigger ones loop over the reduction dims)."""
_LOOP_WIDTH = 2048
"""Looping over the reduction dims costs one body run per reduction point;
with more parallel points than this each run does enough work that the loop
beats evaluating the whole domain at once."""


def _counts(op: ir.Operation) -> tuple[int, int]:
    """Numbers of `ins` and `outs` operands."""
    name = op.name
    n = len(op.operands)
    if "operandSegmentSizes" in op.attributes:
        sizes = list(ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"]))
        return sizes[0], sizes[1]
    if name == "linalg.reduce":
        return n // 2, n // 2
    if name in ("linalg.map", "linalg.transpose", "linalg.broadcast"):
        return n - 1, 1
    raise ValueError("cannot tell its inputs from its outputs")


def _iterator_types(op: ir.Operation, maps: list[_Map], n_ins: int, n_dims: int) -> tuple[bool, ...]:
    """True for each reduction dim."""
    if "iterator_types" in op.attributes:
        kinds = [str(a) for a in ir.ArrayAttr(op.attributes["iterator_types"])]
        if len(kinds) != n_dims:
            raise ValueError("iterator_types and indexing maps disagree on the number of loop dims")
        out = []
        for k in kinds:
            if "reduction" in k:
                out.append(True)
            elif "parallel" in k:
                out.append(False)
            else:
                raise ValueError(f"iterator type {k}")
        return tuple(out)
    # Named ops: a dim that no output indexes is reduced over.
    used: set[int] = set()
    for m in maps[n_ins:]:
        for e in m.exprs:
            used |= _dims_of(e)
    return tuple(d not in used for d in range(n_dims))


def _dims_of(e: Expr) -> set[int]:
    if e[0] == "dim":
        return {e[1]}
    if e[0] == "const":
        return set()
    return _dims_of(e[1]) | _dims_of(e[2])


_CONTRACTIONS = frozenset(
    ("linalg.matmul", "linalg.batch_matmul", "linalg.matvec", "linalg.vecmat", "linalg.dot", "linalg.batch_matvec")
)
LOOP_ORDER_FLOATS = False
"""Float contractions go through numpy's einsum (BLAS), which sums in its own
order; set True to sum in loop order as the lowered loops would (slower)."""


def _einsum_of(op: ir.Operation, maps: list, n_ins: int, n_outs: int) -> str | None:
    """`out += in0 * in1` of the named contractions, as einsum subscripts,
    when every map permutes loop dims, every output loop is an input's (a
    loop only the output has broadcasts, which einsum does not) and the
    inputs convert plainly."""
    if op.name not in _CONTRACTIONS or "cast" in op.attributes or (n_ins, n_outs) != (2, 1):
        return None
    if any(m.perm is None for m in maps):
        return None
    if not set(maps[2].perm) <= {*maps[0].perm, *maps[1].perm}:
        return None
    if any(is_boolean(v.type) for v in list(op.operands)[:3]):
        return None  # i1 casts (true is -1 signed) and sums (xor) are the body's, not numpy's
    letters = "abcdefghijklmnopqrstuvwxyz"
    ins = ",".join("".join(letters[d] for d in m.perm) for m in maps[:2])
    return ins + "->" + "".join(letters[d] for d in maps[2].perm)


def _run_einsum(step: Step, subscripts: str, a, b, c) -> np.ndarray:
    dtype = c.dtype
    with np.errstate(over="ignore", invalid="ignore"):
        product = np.einsum(subscripts, a.astype(dtype, copy=False), b.astype(dtype, copy=False), optimize=True)
        return (c + product).astype(dtype, copy=False)


def _prepare_structured(c: Compiler, op: ir.Operation) -> dict:
    n_ins, n_outs = _counts(op)
    n_results = len(op.results)
    if n_results not in (0, n_outs):
        raise ValueError(f"has {n_results} results for {n_outs} outputs")
    maps_attr = get_indexing_maps(op)
    if maps_attr is None:
        raise ValueError("has no indexing maps")
    attrs = list(ir.ArrayAttr(maps_attr))
    if len(attrs) != n_ins + n_outs:
        raise ValueError(f"has {len(attrs)} indexing maps for {n_ins + n_outs} operands")
    n_dims = ir.AffineMapAttr(attrs[0]).value.n_dims
    maps = [_compile_map(a, n_dims) for a in attrs]
    reduction = _iterator_types(op, maps, n_ins, n_dims)

    size_from: list[tuple[int, int]] = []
    for d in range(n_dims):
        where = next(
            ((k, a) for k, m in enumerate(maps) for a, e in enumerate(m.exprs) if e == ("dim", d)),
            None,
        )
        if where is None:
            raise ValueError(f"no operand dimension gives the size of loop dim d{d}")
        size_from.append(where)

    out_dtypes = [dtype_of(v.type) for v in list(op.operands)[n_ins : n_ins + n_outs]]
    if len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
        raise ValueError("has no body region")
    block = op.regions[0].blocks[0]
    n_args = len(block.arguments)
    if n_args not in (n_ins, n_ins + n_outs):
        raise ValueError(f"has a body with {n_args} arguments for {n_ins} inputs and {n_outs} outputs")

    body_ops = list(block.operations)
    vector_body = all(
        (o.name.startswith(_VECTOR_OPS) or o.name in ("linalg.index", "linalg.yield")) and not len(o.regions)
        for o in body_ops
    )
    parallel = {d for d in range(n_dims) if not reduction[d]}
    outputs_ok = all(
        m.perm is not None and set(m.perm) == parallel and len(m.perm) == len(parallel) for m in maps[n_ins:]
    )
    return {
        "einsum": _einsum_of(op, maps, n_ins, n_outs),
        "plan": _Plan(
            n_ins,
            n_outs,
            n_dims,
            maps,
            reduction,
            size_from,
            out_dtypes,
            n_args == n_ins + n_outs,
            vector_body and outputs_ok,
            n_results == 0,
            tuple(j for j, v in enumerate(list(op.operands)[n_ins : n_ins + n_outs]) if is_bf16(v.type)),
        ),
    }


def _combiners_of(step: Step, plan: _Plan) -> list[_Combiner] | None:
    """Found lazily: the body's steps are compiled after `prepare`."""
    found = step.attrs.get("combiners", False)
    if found is False:
        found = None
        if plan.vectorizable and plan.body_takes_outs and any(plan.reduction):
            found = _find_combiners(step.regions[0], plan.n_ins, plan.n_outs, plan.out_dtypes)
        step.attrs["combiners"] = found
    return found


# ---------------------------------------------------------------------------
# linalg.index reads the loop position of the innermost running body.

_INDEX: list[list] = []


def _prepare_index(c: Compiler, op: ir.Operation) -> dict:
    return {"dim": ir.IntegerAttr(op.attributes["dim"]).value}


@register("linalg.index", prepare=_prepare_index)
def _index(frame, step: Step) -> list:
    if not _INDEX:
        raise fail(step, "is outside a running linalg body")
    dims = _INDEX[-1]
    d = step.attrs["dim"]
    if d >= len(dims):
        raise fail(step, f"reads loop dim {d} of an op with {len(dims)} loop dims")
    return [dims[d]]


def _body(frame, step: Step, args: list, dims: list) -> list:
    _INDEX.append(dims)
    try:
        return run_block_now(frame, step.regions[0], args)
    finally:
        _INDEX.pop()


# ---------------------------------------------------------------------------
# Running.


def _shape(value) -> tuple[int, ...]:
    return value.shape if isinstance(value, np.ndarray) else ()


def _sizes(step: Step, plan: _Plan, operands: tuple) -> list[int]:
    """Loop dim sizes, checked against every operand indexed by a plain dim."""
    for k, (value, m) in enumerate(zip(operands, plan.maps)):
        if len(_shape(value)) != len(m.exprs):
            raise fail(
                step, f"operand #{k} has rank {len(_shape(value))} but its indexing map has {len(m.exprs)} results"
            )
    sizes = [_shape(operands[k])[a] for k, a in plan.size_from]
    for k, (value, m) in enumerate(zip(operands, plan.maps)):
        shape = _shape(value)
        for a, e in enumerate(m.exprs):
            if e[0] == "dim" and shape[a] != sizes[e[1]]:
                raise fail(
                    step,
                    f"operand #{k} has size {shape[a]} in dim {a} but loop dim d{e[1]} has size {sizes[e[1]]}",
                )
    return sizes


def _grids(sizes: list[int], vdims: list[int], ranges: dict[int, tuple[int, int]] | None = None) -> list:
    """Per loop dim, its index: an int64 grid shaped for the vectorized dims
    `vdims` (over `ranges[d]` when given, else the whole dim); None for the
    other dims (the caller sets their loop value)."""
    rank = len(vdims)
    out: list[Any] = [None] * len(sizes)
    for pos, d in enumerate(vdims):
        lo, hi = (ranges or {}).get(d, (0, sizes[d]))
        shape = [1] * rank
        shape[pos] = hi - lo
        out[d] = np.arange(lo, hi, dtype=np.int64).reshape(shape)
    return out


def _read(
    step: Step,
    k: int,
    value,
    m: _Map,
    vpos: dict[int, int],
    fixed: dict[int, int],
    grids: list,
    ranges: dict[int, tuple[int, int]] | None = None,
):
    """Operand `k` over the vectorized dims `vpos` (restricted to `ranges`),
    the other dims at their `fixed` values: an array broadcastable to the
    vectorized shape (dims in their order), or a scalar when it varies over
    none of them."""
    if not isinstance(value, np.ndarray):
        return value
    if value.ndim == 0:
        return value[()]
    if m.perm is not None:
        index: list[Any] = []
        kept: list[int] = []
        for d in m.perm:
            if d in vpos:
                lo, hi = (ranges or {}).get(d, (None, None))
                index.append(slice(lo, hi))
                kept.append(d)
            else:
                index.append(fixed[d])
        sub = value[tuple(index)]
        if not kept:
            return sub
        order = sorted(range(len(kept)), key=lambda i: vpos[kept[i]])
        sub = sub.transpose(order)
        shape = [1] * len(vpos)
        for axis, i in enumerate(order):
            shape[vpos[kept[i]]] = sub.shape[axis]
        return sub.reshape(shape)
    idx = [_eval(e, grids) for e in m.exprs]
    for a, (i, n) in enumerate(zip(idx, value.shape)):
        if np.any(np.asarray(i) < 0) or np.any(np.asarray(i) >= n):
            raise fail(step, f"reads operand #{k} out of bounds in dim {a} (size {n})")
    return value[tuple(idx)]


def _typed(y, dtype: np.dtype) -> np.ndarray:
    arr = np.asarray(y)
    return arr if arr.dtype == dtype else arr.astype(dtype)


def _as_out(y, dtype: np.dtype, shape: list[int]) -> np.ndarray:
    return np.broadcast_to(_typed(y, dtype), shape)


def _to_layout(y: np.ndarray, m: _Map, vpos: dict[int, int]) -> np.ndarray:
    """An output computed over the vectorized dims, in its operand's layout."""
    return np.array(y.transpose([vpos[d] for d in m.perm]), copy=True, order="C")


def _run_vectorized(frame, step: Step, plan: _Plan, operands: tuple, sizes: list[int]) -> list[np.ndarray]:
    ins = operands[: plan.n_ins]
    outs = operands[plan.n_ins :]
    out_maps = plan.maps[plan.n_ins :]
    rdims = [d for d in range(plan.n_dims) if plan.reduction[d]]
    pdims = [d for d in range(plan.n_dims) if not plan.reduction[d]]
    ppos = {d: i for i, d in enumerate(pdims)}
    pshape = [sizes[d] for d in pdims]

    if not rdims:
        grids = _grids(sizes, pdims)
        args = [_read(step, k, v, plan.maps[k], ppos, {}, grids) for k, v in enumerate(ins)]
        if plan.body_takes_outs:
            args += [_read(step, plan.n_ins + j, v, m, ppos, {}, grids) for j, (v, m) in enumerate(zip(outs, out_maps))]
        ys = _body(frame, step, args, grids)
        return [_to_layout(_as_out(y, dt, pshape), m, ppos) for y, dt, m in zip(ys, plan.out_dtypes, out_maps)]

    results = [
        _as_out(_read(step, plan.n_ins + j, v, m, ppos, {}, []), dt, pshape)
        for j, (v, m, dt) in enumerate(zip(outs, out_maps, plan.out_dtypes))
    ]
    combiners = _combiners_of(step, plan)
    parallel = int(np.prod(pshape, dtype=np.int64))
    inner = int(np.prod([sizes[d] for d in rdims[1:]], dtype=np.int64))
    # (bf16 accumulators round at every step: only the loop does that)
    if (
        combiners is not None
        and not plan.bf16_outs
        and parallel <= _LOOP_WIDTH
        and parallel * inner <= _ACCUMULATE_LIMIT
    ):
        results = _run_accumulate(frame, step, plan, ins, sizes, pdims, rdims, combiners, results)
    else:
        results = _run_reduction_loop(frame, step, plan, ins, sizes, pdims, rdims, results)
    return [_to_layout(r, m, ppos) for r, m in zip(results, out_maps)]


def _run_accumulate(frame, step, plan, ins, sizes, pdims, rdims, combiners, acc) -> list[np.ndarray]:
    """Combiner reductions: evaluate `e = f(ins)` over a slab of the domain
    (a range of the outermost reduction dim) with `out` set to the
    combiner's identity, then fold the slab into the accumulators in loop
    order with `ufunc.accumulate`."""
    vdims = pdims + rdims
    vpos = {d: i for i, d in enumerate(vdims)}
    pshape = [sizes[d] for d in pdims]
    outer = rdims[0]
    slab = max(1, _ACCUMULATE_LIMIT // max(1, int(np.prod([sizes[d] for d in vdims if d != outer]))))
    for lo in range(0, sizes[outer], slab):
        ranges = {outer: (lo, min(lo + slab, sizes[outer]))}
        grids = _grids(sizes, vdims, ranges)
        vshape = [g.size for g in (grids[d] for d in vdims)]
        args = [_read(step, k, v, plan.maps[k], vpos, {}, grids, ranges) for k, v in enumerate(ins)]
        args += [cb.identity for cb in combiners]
        ys = _body(frame, step, args, grids)
        folded = []
        # The slab's reduction points, counted: `-1` cannot be inferred when a parallel size is 0.
        points = int(np.prod(vshape[len(pdims) :], dtype=np.int64))
        for y, dt, cb, a in zip(ys, plan.out_dtypes, combiners, acc):
            e = _as_out(y, dt, vshape).reshape(pshape + [points])
            work = np.dtype(f"u{dt.itemsize}") if cb.unsigned else dt
            seq = np.concatenate([a[..., None].astype(work, copy=False), e.astype(work, copy=False)], axis=-1)
            if isinstance(cb.ufunc, np.ufunc):
                last = cb.ufunc.accumulate(seq, axis=-1, dtype=work)[..., -1]
            else:  # max and min are associative: any order of folding gives the same bits
                last = minmax.reduce(cb.ufunc, seq, -1)
            folded.append(last.astype(dt, copy=False))
        acc = folded
    return acc


def _run_reduction_loop(frame, step, plan, ins, sizes, pdims, rdims, acc) -> list[np.ndarray]:
    """Any body: one run per point of the reduction dims, in order, on arrays
    over the parallel dims."""
    ppos = {d: i for i, d in enumerate(pdims)}
    base = _grids(sizes, pdims)
    for point in itertools.product(*(range(sizes[d]) for d in rdims)):
        fixed = dict(zip(rdims, point))
        grids = list(base)
        for d, v in fixed.items():
            grids[d] = np.int64(v)
        args = [_read(step, k, v, plan.maps[k], ppos, fixed, grids) for k, v in enumerate(ins)]
        if plan.body_takes_outs:
            args += acc
        ys = _body(frame, step, args, grids)
        acc = [_typed(y, dt) for y, dt in zip(ys, plan.out_dtypes)]
    pshape = [sizes[d] for d in pdims]
    return [_as_out(r, dt, pshape) for r, dt in zip(acc, plan.out_dtypes)]


def _point_index(step: Step, k: int, m: _Map, point: tuple[int, ...], shape: tuple[int, ...]) -> tuple:
    if m.perm is not None:
        return tuple(point[d] for d in m.perm)
    idx = tuple(int(_eval(e, list(point))) for e in m.exprs)
    for a, (i, n) in enumerate(zip(idx, shape)):
        if not 0 <= i < n:
            raise fail(step, f"indexes operand #{k} out of bounds in dim {a} (index {i}, size {n})")
    return idx


def _run_elements(frame, step: Step, plan: _Plan, operands: tuple, sizes: list[int], outs: list[np.ndarray]) -> None:
    """The loop nest itself, one body run per point; writes into `outs`."""
    total = int(np.prod(sizes, dtype=np.int64))
    if total > _ELEMENT_LOOP_LIMIT:
        raise fail(step, f"would run its body element by element {total} times; too many for the simulator")
    ins = operands[: plan.n_ins]
    out_maps = plan.maps[plan.n_ins :]
    for point in itertools.product(*(range(s) for s in sizes)):
        args = []
        for k, v in enumerate(ins):
            if isinstance(v, np.ndarray):
                args.append(v[_point_index(step, k, plan.maps[k], point, v.shape)])
            else:
                args.append(v)
        where = [_point_index(step, plan.n_ins + j, m, point, o.shape) for j, (m, o) in enumerate(zip(out_maps, outs))]
        if plan.body_takes_outs:
            args += [o[w] for o, w in zip(outs, where)]
        ys = _body(frame, step, args, [np.int64(p) for p in point])
        for o, w, y in zip(outs, where, ys):
            o[w] = y


def _run_structured(frame, step: Step, *operands) -> list:
    plan: _Plan = step.attrs["plan"]
    results = _run_structured_unrounded(frame, step, plan, operands)
    if plan.bf16_outs and plan.buffers:  # (results are rounded by run_block)
        for j in plan.bf16_outs:
            out = operands[plan.n_ins + j]
            out[...] = to_bf16(out)
    return results


def _run_structured_unrounded(frame, step: Step, plan: _Plan, operands: tuple) -> list:
    subscripts = step.attrs["einsum"]
    if subscripts is not None and not (LOOP_ORDER_FLOATS and operands[2].dtype.kind in "fc"):
        if all(isinstance(o, np.ndarray) for o in operands):
            if plan.bf16_outs:
                # the body converts its inputs to bf16 before multiplying;
                # the products are then summed in f32 (as XLA's dot does;
                # loops would round each step)
                operands = (to_bf16(operands[0]), to_bf16(operands[1]), operands[2])
            result = _run_einsum(step, subscripts, *operands)
            if plan.buffers:
                operands[2][...] = result
                return []
            return [result]
    sizes = _sizes(step, plan, operands)
    outs = operands[plan.n_ins :]
    for j, o in enumerate(outs):
        if not isinstance(o, np.ndarray):
            raise fail(step, f"output #{j} is not a tensor")
    aliased = plan.buffers and any(
        isinstance(i, np.ndarray) and np.shares_memory(i, o) for i in operands[: plan.n_ins] for o in outs
    )
    if plan.vectorizable and not aliased:
        results = _run_vectorized(frame, step, plan, operands, sizes)
        if not plan.buffers:
            return results
        for o, r in zip(outs, results):
            o[...] = r
        return []
    targets = list(outs) if plan.buffers else [np.array(o, copy=True) for o in outs]
    _run_elements(frame, step, plan, operands, sizes, targets)
    return [] if plan.buffers else targets


_STRUCTURED = sorted(
    cls.OPERATION_NAME
    for cls in vars(_linalg_ops_gen).values()
    if isinstance(cls, type)
    and getattr(cls, "OPERATION_NAME", "").startswith("linalg.")
    and (getattr(cls, "_ODS_REGIONS", None) or (0,))[0] > 0
)
"""Every linalg op with a body region: these are the structured ops (generic,
named, map, reduce, transpose, broadcast, ...). linalg.softmax (below) has
no body; pack, unpack and the winograd transforms are not run."""


for _name in _STRUCTURED:
    register(_name, prepare=_prepare_structured)(_run_structured)


def _prepare_softmax(c: Compiler, op: ir.Operation) -> dict:
    if len(op.results) != 1:
        raise ValueError("runs on tensors only (it has no result)")
    t = ir.ShapedType(op.operands[0].type)
    if not isinstance(t.element_type, ir.FloatType):
        raise ValueError(f"needs float elements, got {t.element_type}")
    dim = ir.IntegerAttr(op.attributes["dimension"]).value
    if not 0 <= dim < t.rank:
        raise ValueError(f"dimension {dim} is out of range for rank {t.rank}")
    return {"dim": dim, "bf16": is_bf16(t)}


@register("linalg.softmax", prepare=_prepare_softmax)
def _softmax(frame, step: Step, x, _init) -> list:
    """The op as MLIR decomposes it (`decompose_interface`): the largest
    number along `dimension` (maxnumf from a NaN, which any number
    replaces), exp(x - max), the sum of those from zero, one position
    after another, and the quotient; a bf16 held in f32 is rounded after
    each step."""
    dim, bf16 = step.attrs["dim"], step.attrs["bf16"]
    x = np.asarray(x)

    def rounded(a: np.ndarray) -> np.ndarray:
        return to_bf16(a) if bf16 else a.astype(x.dtype, copy=False)

    rows = np.moveaxis(x, dim, 0)
    largest = np.full(rows.shape[1:], np.nan, dtype=x.dtype)
    for row in rows:
        largest = minmax.maximum_number(largest, row)
    with np.errstate(over="ignore", invalid="ignore"):
        powers = rounded(np.exp(rounded(rows - largest)))
        total = np.zeros(rows.shape[1:], dtype=x.dtype)
        for row in powers:
            total = rounded(total + row)
        out = rounded(powers / total)
    return [np.ascontiguousarray(np.moveaxis(out, 0, dim))]
