"""Random stablehlo programs (generic form) with random `mesh.shard`
annotations over dimension sizes the mesh often does not divide, and the
check that runs one through sharding-propagation, mesh-partition and
mesh-optimize-collectives and simulates it against the original: shared by
test_hlo_uneven_property.py and by long runs by hand
(`python test/python/hlo_programs.py --count 5000`)."""

from __future__ import annotations

import dataclasses
import math
import random
import re
import sys
from collections import Counter

import numpy as np
from mlir import ir

import mesh_dialect
from mesh_dialect.ir.diagnostics import DiagnosticError
from mesh_dialect.sim.api import Simulation

MESHES = ((3,), (4,), (2, 3), (3, 2), (5,), (2,), (2, 2))
# sizes the meshes above mostly do not divide, and a few they do
SIZES = (5, 7, 8, 10, 3, 4, 6, 1, 2)
SIZE_WEIGHTS = (4, 4, 3, 3, 2, 2, 2, 1, 1)

# the share of values annotated, and the most ops a program has (long runs raise them)
KNOBS = {"annotate": 0.35, "max_ops": 8, "xla_cuts": 0.0}

F_UNARY = (
    "stablehlo.negate",
    "stablehlo.abs",
    "stablehlo.exponential",
    "stablehlo.tanh",
    "stablehlo.sine",
    "stablehlo.floor",
    "mhlo.cosine",
    "chlo.square",
)
I_UNARY = ("stablehlo.negate", "stablehlo.abs", "mhlo.negate")
BINARY = ("stablehlo.add", "stablehlo.subtract", "stablehlo.multiply", "stablehlo.maximum", "stablehlo.minimum")
F_BINARY = (*BINARY, "stablehlo.divide", "mhlo.add")
I_BINARY = (*BINARY, "mhlo.multiply")
OTHER_BINARY = {
    "f32": ("arith.addf", "arith.mulf", "arith.subf", "tosa.add", "tosa.maximum"),
    "i32": ("arith.addi", "arith.muli", "arith.maxsi", "tosa.add", "tosa.sub"),
}
OTHER_UNARY = {"f32": ("math.absf", "arith.negf", "tosa.abs"), "i32": ("math.absi", "tosa.abs")}
# reduce bodies: (op, identity for f32, identity for i32)
BODIES = {
    "add": ("stablehlo.add", "0.0", "0"),
    "maximum": ("stablehlo.maximum", "0xFF800000", "-2147483648"),
    "minimum": ("stablehlo.minimum", "0x7F800000", "2147483647"),
    "multiply": ("stablehlo.multiply", "1.0", "1"),
}


def scatter_numbers(dialect: str, rank: int, d: int, moved: list[int] | None = None) -> str:
    """The dimension numbers of a scatter at dimension `d` of a
    rank-`rank` input (indexed along `moved`, `[d]` by default: a `?xK`
    index array), by updates whose first dimension is the index's batch and
    whose others are windows."""
    windows = ", ".join(str(k) for k in range(1, rank))
    at = ", ".join(map(str, moved or [d]))
    return (
        f"scatter_dimension_numbers = #{dialect}.scatter<update_window_dims = [{windows}], "
        f"inserted_window_dims = [{d}], scatter_dims_to_operand_dims = [{at}], index_vector_dim = 1>"
    )


def index_list(dialect: str, values: list[int]) -> str:
    """An index list in `dialect`'s spelling (mhlo's dense, stablehlo's array)."""
    if dialect == "mhlo":
        return f"dense<[{', '.join(map(str, values))}]> : tensor<{len(values)}xi64>"
    return f"array<i64{': ' if values else ''}{', '.join(map(str, values))}>"


def ttype(shape: tuple[int, ...], elem: str) -> str:
    return "tensor<" + "".join(f"{n}x" for n in shape) + elem + ">"


@dataclasses.dataclass
class Value:
    name: str
    shape: tuple[int, ...]
    elem: str  # f32, i32 or i1
    # the largest magnitude its elements may reach, inf when a float is not
    # a whole number: a float up to 2**24 is the same whatever the order of a sum
    bound: float = 3.0
    # whether a zero's sign is the same whatever the order of a sum or a
    # max (-0 + +0 is +0): what a divisor needs, or x / 0 may flip its sign
    signed: bool = True

    @property
    def exact(self) -> bool:
        return self.elem != "f32" or self.bound <= 2**24

    @property
    def type(self) -> str:
        return ttype(self.shape, self.elem)


@dataclasses.dataclass
class Program:
    text: str
    mesh: tuple[int, ...]
    args: list[Value]
    all_even: bool  # every annotation's split dimensions divide evenly
    annotations: int
    ops: Counter


class _Gen:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.mesh = rng.choice(MESHES)
        self.lines: list[str] = []
        self.args: list[Value] = []
        self.pool: list[Value] = []
        self.n = 0
        self.all_even = True
        self.annotations = 0
        self.ops: Counter = Counter()

    def fresh(self) -> str:
        self.n += 1
        return f"%v{self.n}"

    def size(self) -> int:
        return self.rng.choices(SIZES, SIZE_WEIGHTS)[0]

    def shape(self, rank: int | None = None) -> tuple[int, ...]:
        rank = self.rng.choice((1, 2, 2, 3)) if rank is None else rank
        return tuple(self.size() for _ in range(rank))

    def emit(self, line: str) -> None:
        self.lines.append("  " + line)

    def op(self, out: Value, op: str, operands: list[Value], props: str = "") -> Value:
        """Emit `out = op(operands)` in generic form and pool `out`."""
        self.ops[op] += 1
        props = f" <{{{props}}}>" if props else ""
        names = ", ".join(v.name for v in operands)
        types = ", ".join(v.type for v in operands)
        self.emit(f'{out.name} = "{op}"({names}){props} : ({types}) -> {out.type}')
        return self.add(out)

    # -- values -------------------------------------------------------------

    def add(self, v: Value) -> Value:
        """`v` into the pool, annotated about a third of the time."""
        if v.shape and self.rng.random() < KNOBS["annotate"]:
            v2 = self.annotate(v)
            if self.rng.random() < 0.7:
                v = v2
            else:
                self.pool.append(v2)
        self.pool.append(v)
        return v

    def rows_split(self, v: Value) -> Value:
        """`v` annotated split along its first dimension over one mesh axis."""
        axis = self.rng.randrange(len(self.mesh))
        if v.shape[0] % self.mesh[axis]:
            self.all_even = False
        self.annotations += 1
        s = self.fresh()
        text = "[" + ", ".join([f"[{axis}]", *("[]" for _ in v.shape[1:])]) + "]"
        self.emit(f"{s} = mesh.sharding @mesh split_axes = {text} : !mesh.sharding")
        out = dataclasses.replace(v, name=self.fresh())
        self.emit(f"{out.name} = mesh.shard {v.name} to {s} : {v.type}")
        return out

    def annotate(self, v: Value) -> Value:
        split: list[list[int]] = [[] for _ in v.shape]
        for a in self.rng.sample(range(len(self.mesh)), len(self.mesh)):
            d = self.rng.randrange(-1, len(v.shape))
            if d >= 0:
                split[d].append(a)
        offsets = ""
        if any(split) and KNOBS["xla_cuts"] and self.rng.random() < KNOBS["xla_cuts"]:
            # XLA's cut, as a JAX program arrives: ceil-sized pieces, the last ones shorter or empty
            cuts = []
            for d, axes in enumerate(split):
                if axes:
                    k = math.prod(self.mesh[a] for a in axes)
                    n, size = v.shape[d], -(-v.shape[d] // k)
                    cuts += [min(i * size, n) for i in range(k)] + [n]
            offsets = f" sharded_dims_offsets = [{', '.join(map(str, cuts))}]"
            self.all_even = False
        elif any(split) and self.rng.random() < 0.08:  # arbitrary explicit cuts
            cuts = []
            for d, axes in enumerate(split):
                if axes:
                    k = math.prod(self.mesh[a] for a in axes)
                    cuts += [0, *sorted(self.rng.randint(0, v.shape[d]) for _ in range(k - 1)), v.shape[d]]
            offsets = f" sharded_dims_offsets = [{', '.join(map(str, cuts))}]"
            self.all_even = False
        for d, axes in enumerate(split):
            if axes and v.shape[d] % math.prod(self.mesh[a] for a in axes):
                self.all_even = False
        self.annotations += 1
        s = self.fresh()
        text = "[" + ", ".join("[" + ", ".join(map(str, axes)) + "]" for axes in split) + "]"
        self.emit(f"{s} = mesh.sharding @mesh split_axes = {text}{offsets} : !mesh.sharding")
        users = " annotate_for_users" if self.rng.random() < 0.4 else ""
        out = dataclasses.replace(v, name=self.fresh())
        self.emit(f"{out.name} = mesh.shard {v.name} to {s}{users} : {v.type}")
        return out

    def arg(self, shape: tuple[int, ...], elem: str) -> Value:
        v = Value(f"%arg{len(self.args)}", shape, elem)
        self.args.append(v)
        return self.add(v)

    def pick(self, elem: str | None = None, min_rank: int = 0, exact: bool = False) -> Value:
        """A value of the pool, recent ones more often (a chain), or a new
        argument; `exact`: one that is the same whatever the order of a sum
        (what a floor, a comparison or a conversion to integers may read)."""
        cands = [
            v
            for v in self.pool
            if (elem is None or v.elem == elem) and len(v.shape) >= min_rank and (v.exact or not exact)
        ]
        if elem is None:
            cands = [v for v in cands if v.elem != "i1"]
        if not cands or self.rng.random() < 0.1:
            return self.arg(self.shape(max(min_rank, self.rng.choice((1, 2, 2, 3)))), elem or "f32")
        if self.rng.random() < 0.6:
            return cands[-1]
        return self.rng.choice(cands)

    def like(self, v: Value, exact: bool = False) -> Value:
        """Another value of `v`'s shape and type: one of the pool, a new
        argument, a constant or a broadcast constant."""
        same = [
            w
            for w in self.pool
            if w.shape == v.shape and w.elem == v.elem and w.name != v.name and (w.exact or not exact)
        ]
        r = self.rng.random()
        if same and r < 0.5:
            return self.rng.choice(same)
        if r < 0.7 or v.elem == "i1":
            return self.arg(v.shape, v.elem)
        return self.constant(v.shape, v.elem)

    def constant(self, shape: tuple[int, ...], elem: str) -> Value:
        self.ops["constant"] += 1
        number = str(self.rng.randint(-3, 3)) + (".0" if elem == "f32" else "")
        if self.rng.random() < 0.4:
            out = Value(self.fresh(), shape, elem)
            self.emit(
                f'{out.name} = "stablehlo.constant"() <{{value = dense<{number}> : {out.type}}}> : () -> {out.type}'
            )
            return self.add(out)
        c = self.scalar(elem, number)
        out = Value(self.fresh(), shape, elem)
        return self.op(out, "stablehlo.broadcast_in_dim", [c], "broadcast_dimensions = array<i64>")

    def scalar(self, elem: str, number: str) -> Value:
        c = Value(self.fresh(), (), elem)
        self.emit(f'{c.name} = "stablehlo.constant"() <{{value = dense<{number}> : {c.type}}}> : () -> {c.type}')
        return c

    # -- ops ----------------------------------------------------------------

    def dialect(self) -> str:
        return "mhlo" if self.rng.random() < 0.2 else "stablehlo"

    def unary(self) -> Value:
        a = self.pick(self.rng.choice(("f32", "f32", "f32", "i32", "i32", "i1")))
        if a.elem == "i1":
            return self.op(dataclasses.replace(a, name=self.fresh()), "stablehlo.not", [a])
        op = self.rng.choice(F_UNARY if a.elem == "f32" else I_UNARY)
        if self.rng.random() < 0.1:
            op = self.rng.choice(OTHER_UNARY[a.elem])
        if op == "stablehlo.floor":
            a = self.pick("f32", exact=True)
        bound = a.bound
        if op in ("stablehlo.exponential", "stablehlo.tanh", "stablehlo.sine", "mhlo.cosine"):
            bound = math.inf
        elif op == "chlo.square":
            bound = a.bound * a.bound
        return self.op(Value(self.fresh(), a.shape, a.elem, bound, a.signed), op, [a])

    def binary(self) -> Value:
        a = self.pick(self.rng.choice(("f32", "f32", "f32", "i32", "i32", "i1")))
        b = self.like(a)
        if self.rng.random() < 0.5:
            a, b = b, a
        if a.elem == "i1":
            op = self.rng.choice(("stablehlo.and", "stablehlo.or", "stablehlo.xor"))
            return self.op(dataclasses.replace(a, name=self.fresh()), op, [a, b])
        signed = a.signed and b.signed
        op = self.rng.choice(F_BINARY if a.elem == "f32" else I_BINARY)
        r = self.rng.random()
        if r < 0.1:  # other dialects' ops beside hlo ones (tosa keeps to even pieces)
            op = self.rng.choice(OTHER_BINARY[a.elem])
        kind = op.split(".")[1].rstrip("fi")
        bound = {"mul": a.bound * b.bound, "multiply": a.bound * b.bound, "divide": math.inf}.get(
            kind, a.bound + b.bound
        )
        if op.endswith(("maximum", "minimum", "maxsi", "minsi")):
            bound = max(a.bound, b.bound)
        if op == "stablehlo.divide" and not b.signed:
            op, bound = "stablehlo.multiply", a.bound * b.bound
        return self.op(Value(self.fresh(), a.shape, a.elem, bound, signed), op, [a, b])

    def clamp(self) -> Value:
        """`clamp` with scalar or full bounds."""
        a = self.pick(self.rng.choice(("f32", "i32")))
        bounds = []
        for number in ("-2", "2"):
            if self.rng.random() < 0.6:
                bounds.append(self.scalar(a.elem, number + (".0" if a.elem == "f32" else "")))
            else:
                bounds.append(self.like(a))
        out = Value(self.fresh(), a.shape, a.elem, a.bound, all(v.signed for v in (a, *bounds)))
        return self.op(out, "stablehlo.clamp", [bounds[0], a, bounds[1]])

    def select(self) -> Value:
        a = self.pick(self.rng.choice(("f32", "i32")), exact=True)
        b = self.like(a, exact=True)
        kind = "FLOAT" if a.elem == "f32" else "SIGNED"
        direction = self.rng.choice(("GT", "LT", "GE", "EQ", "NE"))
        if self.rng.random() < 0.15:  # a scalar predicate
            point = ".0" if a.elem == "f32" else ""
            a, b = self.scalar(a.elem, "1" + point), self.scalar(a.elem, "0" + point)
        props = (
            f"comparison_direction = #stablehlo<comparison_direction {direction}>, "
            f"compare_type = #stablehlo<comparison_type {kind}>"
        )
        p = self.op(Value(self.fresh(), a.shape, "i1"), "stablehlo.compare", [a, b], props)
        if p.shape and self.rng.random() < 0.2:
            return self.op(Value(self.fresh(), a.shape, "i32", 1), "stablehlo.convert", [p])
        x = self.pick(self.rng.choice(("f32", "i32"))) if not p.shape else self.pick(a.elem)
        if p.shape and x.shape != p.shape:
            x = self.like(a)
        y = self.like(x)
        out = Value(self.fresh(), x.shape, x.elem, max(x.bound, y.bound), x.signed and y.signed)
        return self.op(out, "stablehlo.select", [p, x, y])

    def convert(self) -> Value:
        a = self.pick(self.rng.choice(("f32", "i32")), exact=True)
        if a.elem == "f32":  # whole numbers, so every device converts alike
            return self.op(Value(self.fresh(), a.shape, "i32", a.bound), "stablehlo.convert", [a])
        return self.op(Value(self.fresh(), a.shape, "f32", a.bound, a.signed), "stablehlo.convert", [a])

    def reduce(self) -> Value:
        a = self.pick(self.rng.choice(("f32", "f32", "i32")), min_rank=1)
        if a.elem == "f32" and self.rng.random() < 0.2:
            return self.argmax(self.pick("f32", min_rank=1, exact=True))
        k = 2 if len(a.shape) >= 2 and self.rng.random() < 0.35 else 1
        dims = sorted(self.rng.sample(range(len(a.shape)), k))
        name = self.rng.choice(list(BODIES))
        body, fid, iid = BODIES[name]
        init = fid if a.elem == "f32" else iid
        ibound = 0.0
        if self.rng.random() < 0.15:  # an init that is not the identity
            init, ibound = ("2.0" if a.elem == "f32" else "2"), 2.0
        count = math.prod(a.shape[d] for d in dims)
        base = max(a.bound, ibound, 1.0)
        power = math.inf if (count + 1) * math.log2(base) > 100 else base ** (count + 1)
        bound = {"add": count * a.bound + ibound, "multiply": power}.get(name, max(a.bound, ibound))
        s = f"tensor<{a.elem}>"
        z = self.scalar(a.elem, init)
        kept = tuple(n for d, n in enumerate(a.shape) if d not in dims)
        out = Value(self.fresh(), kept, a.elem, bound, a.signed and name == "multiply")
        dialect = self.dialect()
        self.ops[f"{dialect}.reduce.{name}"] += 1
        x, y, t = self.fresh(), self.fresh(), self.fresh()
        self.emit(
            f'{out.name} = "{dialect}.reduce"({a.name}, {z.name}) <{{dimensions = {index_list(dialect, dims)}}}> ({{'
        )
        self.emit(f"^bb0({x}: {s}, {y}: {s}):")
        self.emit(f'  {t} = "{dialect}.{body.split(".")[1]}"({x}, {y}) : ({s}, {s}) -> {s}')
        self.emit(f'  "{dialect}.return"({t}) : ({s}) -> ()')
        self.emit(f"}}) : ({a.type}, {s}) -> {out.type}")
        return self.add(out)

    def argmax(self, a: Value) -> Value:
        """JAX's argmax (or argmin) body along one dimension."""
        dim = self.rng.randrange(len(a.shape))
        wins = self.rng.choice(("GT", "LT"))
        self.ops["reduce.argmax"] += 1
        idx = Value(self.fresh(), a.shape, "i32")
        self.emit(f'{idx.name} = "stablehlo.iota"() <{{iota_dimension = {dim} : i64}}> : () -> {idx.type}')
        v0 = self.scalar("f32", "0xFF800000" if wins == "GT" else "0x7F800000")
        i0 = self.scalar("i32", "0")
        kept = tuple(n for d, n in enumerate(a.shape) if d != dim)
        r = self.fresh()

        def cmp(out, x, y, direction, kind, elem):
            return (
                f'{out} = "stablehlo.compare"({x}, {y}) <{{compare_type = #stablehlo<comparison_type {kind}>, '
                f"comparison_direction = #stablehlo<comparison_direction {direction}>}}> : "
                f"(tensor<{elem}>, tensor<{elem}>) -> tensor<i1>"
            )

        av, ai, bv, bi, gt, nan, p, eq, lt, tie, q, v, j = (self.fresh() for _ in range(13))
        self.emit(
            f'{r}:2 = "stablehlo.reduce"({a.name}, {idx.name}, {v0.name}, {i0.name}) '
            f"<{{dimensions = array<i64: {dim}>}}> ({{"
        )
        self.emit(f"^bb0({av}: tensor<f32>, {ai}: tensor<i32>, {bv}: tensor<f32>, {bi}: tensor<i32>):")
        self.emit("  " + cmp(gt, av, bv, wins, "FLOAT", "f32"))
        self.emit("  " + cmp(nan, av, av, "NE", "FLOAT", "f32"))
        self.emit(f'  {p} = "stablehlo.or"({gt}, {nan}) : (tensor<i1>, tensor<i1>) -> tensor<i1>')
        self.emit("  " + cmp(eq, av, bv, "EQ", "FLOAT", "f32"))
        self.emit("  " + cmp(lt, ai, bi, "LT", "SIGNED", "i32"))
        self.emit(f'  {tie} = "stablehlo.and"({eq}, {lt}) : (tensor<i1>, tensor<i1>) -> tensor<i1>')
        self.emit(f'  {q} = "stablehlo.or"({p}, {tie}) : (tensor<i1>, tensor<i1>) -> tensor<i1>')
        self.emit(
            f'  {v} = "stablehlo.select"({p}, {av}, {bv}) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>'
        )
        self.emit(
            f'  {j} = "stablehlo.select"({q}, {ai}, {bi}) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>'
        )
        self.emit(f'  "stablehlo.return"({v}, {j}) : (tensor<f32>, tensor<i32>) -> ()')
        kv, ki = ttype(kept, "f32"), ttype(kept, "i32")
        self.emit(f"}}) : ({a.type}, {idx.type}, tensor<f32>, tensor<i32>) -> ({kv}, {ki})")
        if self.rng.random() < 0.3:
            self.add(Value(f"{r}#0", kept, "f32", a.bound, a.signed))
        return self.add(Value(f"{r}#1", kept, "i32", max(a.shape)))

    def transpose(self) -> Value:
        a = self.pick(min_rank=2)
        perm = list(range(len(a.shape)))
        while perm == sorted(perm):
            self.rng.shuffle(perm)
        out = Value(self.fresh(), tuple(a.shape[p] for p in perm), a.elem, a.bound, a.signed)
        dialect = self.dialect()
        return self.op(out, f"{dialect}.transpose", [a], f"permutation = {index_list(dialect, perm)}")

    def dot(self) -> Value:
        a = self.pick(self.rng.choice(("f32", "f32", "i32")), min_rank=1)
        rank = len(a.shape)
        dims = list(range(rank))
        self.rng.shuffle(dims)
        nb = self.rng.choice((0, 0, 1)) if rank >= 2 else 0
        nc = min(self.rng.choice((0, 1, 1, 1, 2)), rank - nb)
        batch, contract = sorted(dims[:nb]), dims[nb : nb + nc]
        free = [d for d in range(rank) if d not in batch and d not in contract]
        new = [self.size() for _ in range(self.rng.choice((0, 1, 1)))]
        if len(batch) + len(free) + len(new) > 3:
            new = []
        # the rhs: its batch dimensions first, then its contracting and free
        # dimensions in a random order
        rest = [("c", i) for i in range(len(contract))] + [("n", i) for i in range(len(new))]
        self.rng.shuffle(rest)
        rhs_shape = [a.shape[d] for d in batch]
        rhs_c = [0] * len(contract)
        rhs_free = []
        for kind, i in rest:
            if kind == "c":
                rhs_c[i] = len(rhs_shape)
                rhs_shape.append(a.shape[contract[i]])
            else:
                rhs_free.append(new[i])
                rhs_shape.append(new[i])
        b = self.like(Value("", tuple(rhs_shape), a.elem))
        shape = tuple([a.shape[d] for d in batch] + [a.shape[d] for d in free] + rhs_free)
        count = math.prod(a.shape[d] for d in contract)
        out = Value(self.fresh(), shape, a.elem, count * a.bound * b.bound, a.signed and b.signed and count == 1)
        plain = not batch and contract == [rank - 1] and rank <= 2 and len(rhs_shape) <= 2 and rhs_c == [0]
        if plain and self.rng.random() < 0.3:
            return self.op(out, "stablehlo.dot", [a, b])
        fields = []
        if batch:
            fields.append(f"lhs_batching_dimensions = [{', '.join(map(str, batch))}]")
            fields.append(f"rhs_batching_dimensions = [{', '.join(map(str, range(len(batch))))}]")
        if contract:
            fields.append(f"lhs_contracting_dimensions = [{', '.join(map(str, contract))}]")
            fields.append(f"rhs_contracting_dimensions = [{', '.join(map(str, rhs_c))}]")
        dialect = self.dialect()
        numbers = f"dot_dimension_numbers = #{dialect}.dot<{', '.join(fields)}>"
        return self.op(out, f"{dialect}.dot_general", [a, b], numbers)

    def broadcast(self) -> Value:
        a = self.pick(self.rng.choice(("f32", "i32")))
        if len(a.shape) > 3:  # (a dot's operand may be of rank 4)
            return self.unary()
        if a.shape and self.rng.random() < 0.25:  # dimensions of size 1 to stretch
            ones = tuple(1 if self.rng.random() < 0.5 else n for n in a.shape)
            a = self.arg(ones, a.elem) if ones != a.shape else a
        rank = min(len(a.shape) + self.rng.choice((0, 1, 1, 2)), 3)
        if rank == len(a.shape) and 1 not in a.shape:
            rank = len(a.shape) + 1
            if rank > 3:
                return self.unary()
        where = sorted(self.rng.sample(range(rank), len(a.shape)))
        shape = [self.size() for _ in range(rank)]
        for i, d in enumerate(where):
            shape[d] = a.shape[i] if a.shape[i] != 1 or self.rng.random() < 0.3 else self.size()
        out = Value(self.fresh(), tuple(shape), a.elem, a.bound, a.signed)
        dialect = self.dialect()
        dims = f"broadcast_dimensions = {index_list(dialect, where)}"
        return self.op(out, f"{dialect}.broadcast_in_dim", [a], dims)

    def gather(self) -> Value:
        """An embedding lookup as JAX writes it: one row of a table per id
        (ids of shape (..., 1), some out of range: clamped), the rest of the
        row taken whole; now and then one element of the leading two or
        three dimensions per index vector (`t[r, c]`)."""
        table = self.pick(self.rng.choice(("f32", "i32")), min_rank=2)
        if len(table.shape) > 3:
            return self.unary()
        batch = self.shape(self.rng.choice((1, 1, 2)))
        points = 1 if self.rng.random() < 0.6 else self.rng.randint(2, len(table.shape))
        ids_type = ttype((*batch, points), "i32")
        if self.rng.random() < 0.6:  # ids over every row (and past both ends)
            words = [self.rng.randint(-2, table.shape[k] + 1) for _ in range(math.prod(batch)) for k in range(points)]
            flat = Value(self.fresh(), (len(words),), "i32")
            self.emit(
                f'{flat.name} = "stablehlo.constant"() <{{value = dense<{words}> : '
                f"tensor<{len(words)}xi32>}}> : () -> tensor<{len(words)}xi32>"
            )
            ids = Value(self.fresh(), (*batch, points), "i32")
            self.emit(f'{ids.name} = "stablehlo.reshape"({flat.name}) : (tensor<{len(words)}xi32>) -> {ids_type}')
            ids = self.add(ids)
        else:
            ids = self.arg((*batch, points), "i32")
        rest = table.shape[points:]
        offset_dims = list(range(len(batch), len(batch) + len(rest)))
        picked = ", ".join(map(str, range(points)))
        dialect = self.dialect()
        numbers = (
            f"dimension_numbers = #{dialect}.gather<offset_dims = [{', '.join(map(str, offset_dims))}], "
            f"collapsed_slice_dims = [{picked}], start_index_map = [{picked}], index_vector_dim = {len(batch)}>, "
            f"slice_sizes = {index_list(dialect, [1] * points + list(rest))}"
        )
        out = Value(self.fresh(), (*batch, *rest), table.elem, table.bound, table.signed)
        return self.op(out, f"{dialect}.gather", [table, ids], numbers)

    def window_sizes(self, shape: tuple[int, ...]) -> list[int]:
        """A window of one position along some dimensions (at least one) of
        `shape`, the others whole (what a decoder reads or writes), now and
        then a few positions of one (a dimension no device splits)."""
        sizes = [1 if n > 1 and self.rng.random() < 0.5 else n for n in shape]
        if sizes == list(shape):
            sizes[self.rng.randrange(len(sizes))] = 1
        wide = [d for d, n in enumerate(shape) if n > 2 and sizes[d] == n]
        if wide and self.rng.random() < 0.2:
            d = self.rng.choice(wide)
            sizes[d] = self.rng.randint(2, shape[d] - 1)
        return sizes

    def starts(self, shape: tuple[int, ...], sizes: list[int]) -> list[Value]:
        """Scalar i32 starts of a window of `sizes` in `shape`: along a
        dimension it covers part of, anywhere from before the first position
        to past the last (the op clamps it), now and then an argument (small
        numbers: the first positions); 0 along one it covers whole."""
        out = []
        for n, k in zip(shape, sizes):
            if k == n:
                out.append(self.scalar("i32", "0"))
            elif self.rng.random() < 0.25:
                v = Value(f"%arg{len(self.args)}", (), "i32")
                self.args.append(v)
                out.append(v)
            else:
                out.append(self.scalar("i32", str(self.rng.randint(-2, n + 1))))
        return out

    def dynamic_slice(self) -> Value:
        """A read of one position along some dimensions at scalar starts
        (JAX's `x[:, i]`, a cache read)."""
        a = self.pick(min_rank=1)
        if len(a.shape) > 3:
            return self.unary()
        sizes = self.window_sizes(a.shape)
        starts = self.starts(a.shape, sizes)
        out = Value(self.fresh(), tuple(sizes), a.elem, a.bound, a.signed)
        dialect = self.dialect()
        return self.op(out, f"{dialect}.dynamic_slice", [a, *starts], f"slice_sizes = {index_list(dialect, sizes)}")

    def dynamic_update_slice(self) -> Value:
        """A write of one position along some dimensions at scalar starts
        (a decoder's cache write, `cache.at[:, pos].set(new)`)."""
        a = self.pick(min_rank=1)
        if len(a.shape) > 3:
            return self.unary()
        sizes = self.window_sizes(a.shape)
        new = self.like(Value("", tuple(sizes), a.elem))
        starts = self.starts(a.shape, sizes)
        out = Value(self.fresh(), a.shape, a.elem, max(a.bound, new.bound), a.signed and new.signed)
        return self.op(out, f"{self.dialect()}.dynamic_update_slice", [a, new, *starts])

    def scatter(self) -> Value:
        """`x.at[..., i, ...].set(u)` (or `.add`) as JAX writes it: one
        position of one dimension at an index (an update past either end is
        dropped whole), the other dimensions whole."""
        a = self.pick(self.rng.choice(("f32", "i32")), min_rank=1)
        if len(a.shape) > 3:
            return self.unary()
        d = self.rng.randrange(len(a.shape))
        rest = tuple(n for k, n in enumerate(a.shape) if k != d)
        new = self.like(Value("", (1, *rest), a.elem))
        # now and then a dimension the window covers whole is indexed too, at
        # 0 mostly (vmap's dynamic_update_slice), or elsewhere (dropped)
        moved = [d]
        if len(a.shape) >= 2 and self.rng.random() < 0.4:
            moved.append(self.rng.choice([k for k in range(len(a.shape)) if k != d]))
        index_type = ttype((1, len(moved)), "i32")
        if self.rng.random() < 0.25:
            index = Value(f"%arg{len(self.args)}", (1, len(moved)), "i32")
            self.args.append(index)
        else:
            index = Value(self.fresh(), (1, len(moved)), "i32")
            at = [self.rng.randint(-2, a.shape[d] + 1), *(self.rng.choice((0, 0, 0, 1, -1)) for _ in moved[1:])]
            self.emit(
                f'{index.name} = "stablehlo.constant"() <{{value = dense<[{at}]> : {index_type}}}> : () -> {index_type}'
            )
        adds = self.rng.random() < 0.5
        bound = a.bound + new.bound if adds else max(a.bound, new.bound)
        out = Value(self.fresh(), a.shape, a.elem, bound, a.signed and new.signed)
        dialect = self.dialect()
        self.ops[f"{dialect}.scatter.{'add' if adds else 'set'}"] += 1
        numbers = scatter_numbers(dialect, len(a.shape), d, moved)
        s, old, given, total = f"tensor<{a.elem}>", self.fresh(), self.fresh(), self.fresh()
        self.emit(f'{out.name} = "{dialect}.scatter"({a.name}, {index.name}, {new.name}) <{{{numbers}}}> ({{')
        self.emit(f"^bb0({old}: {s}, {given}: {s}):")
        if adds:
            self.emit(f'  {total} = "{dialect}.add"({old}, {given}) : ({s}, {s}) -> {s}')
            self.emit(f'  "{dialect}.return"({total}) : ({s}) -> ()')
        else:
            self.emit(f'  "{dialect}.return"({given}) : ({s}) -> ()')
        self.emit(f"}}) : ({a.type}, {index_type}, {new.type}) -> {out.type}")
        return self.add(out)

    def segment(self) -> Value:
        """`jax.ops.segment_sum` (or `_max`, `_min`, `_prod`): rows of a value
        scattered by ids into `m` segments with a combiner, into its identity
        (or, now and then, into 2)."""
        a = self.pick(self.rng.choice(("f32", "i32")), min_rank=1)
        if len(a.shape) > 3:
            return self.unary()
        n, rest = a.shape[0], a.shape[1:]
        ids = self.arg((n,), "i32")
        if self.rng.random() < 0.6:  # the rows split, as a data-parallel segment op has them
            a, ids = self.rows_split(a), self.rows_split(ids)
        m = self.rng.choices(SIZES, SIZE_WEIGHTS)[0]
        name = self.rng.choice(list(BODIES))
        body, fid, iid = BODIES[name]
        init, ibound = (fid if a.elem == "f32" else iid), 0.0
        if self.rng.random() < 0.15:  # an init that is not the identity
            init, ibound = ("2.0" if a.elem == "f32" else "2"), 2.0
        base = max(a.bound, ibound, 1.0)
        power = math.inf if (n + 1) * math.log2(base) > 100 else base ** (n + 1)
        bound = {"add": n * a.bound + ibound, "multiply": power}.get(name, max(a.bound, ibound))
        s = f"tensor<{a.elem}>"
        z = self.scalar(a.elem, init)
        full = Value(self.fresh(), (m, *rest), a.elem)
        self.emit(
            f'{full.name} = "stablehlo.broadcast_in_dim"({z.name}) <{{broadcast_dimensions = array<i64>}}> '
            f": ({s}) -> {full.type}"
        )
        index = Value(self.fresh(), (n, 1), "i32")
        self.emit(
            f'{index.name} = "stablehlo.broadcast_in_dim"({ids.name}) <{{broadcast_dimensions = array<i64: 0>}}> '
            f": ({ids.type}) -> {index.type}"
        )
        out = Value(self.fresh(), (m, *rest), a.elem, bound, a.signed and name == "multiply")
        dialect = self.dialect()
        self.ops[f"{dialect}.scatter.segment_{name}"] += 1
        numbers = scatter_numbers(dialect, len(a.shape), 0)
        old, given, total = self.fresh(), self.fresh(), self.fresh()
        self.emit(f'{out.name} = "{dialect}.scatter"({full.name}, {index.name}, {a.name}) <{{{numbers}}}> ({{')
        self.emit(f"^bb0({old}: {s}, {given}: {s}):")
        self.emit(f'  {total} = "{dialect}.{body.split(".")[1]}"({old}, {given}) : ({s}, {s}) -> {s}')
        self.emit(f'  "{dialect}.return"({total}) : ({s}) -> ()')
        self.emit(f"}}) : ({full.type}, {index.type}, {a.type}) -> {out.type}")
        return self.add(out)

    def concatenate(self) -> Value:
        """Two or three values joined along one dimension (`jnp.concatenate`,
        a cache grown by a token), equal along the others."""
        a = self.pick(min_rank=1)
        if len(a.shape) > 3:
            return self.unary()
        d = self.rng.randrange(len(a.shape))
        parts = [a]
        for _ in range(self.rng.choice((1, 1, 2))):
            shape = tuple(self.size() if k == d else n for k, n in enumerate(a.shape))
            parts.append(self.like(Value("", shape, a.elem)))
        joined = tuple(sum(v.shape[d] for v in parts) if k == d else n for k, n in enumerate(a.shape))
        out = Value(
            self.fresh(),
            joined,
            a.elem,
            max(v.bound for v in parts),
            all(v.signed for v in parts),
        )
        return self.op(out, f"{self.dialect()}.concatenate", parts, f"dimension = {d} : i64")

    def program(self) -> Program:
        for _ in range(self.rng.randint(1, 2)):
            self.arg(self.shape(), self.rng.choice(("f32", "f32", "i32")))
        makers = (
            (self.unary, 2),
            (self.binary, 3),
            (self.clamp, 1),
            (self.select, 1),
            (self.convert, 1),
            (self.reduce, 3),
            (self.transpose, 2),
            (self.dot, 3),
            (self.broadcast, 3),
            (self.gather, 1),
            (self.dynamic_slice, 1),
            (self.dynamic_update_slice, 1),
            (self.scatter, 1),
            (self.segment, 1),
            (self.concatenate, 1),
        )
        count = self.rng.randint(2, KNOBS["max_ops"])
        made = []
        while len(made) < count:
            fn = self.rng.choices([m for m, _ in makers], [w for _, w in makers])[0]
            if fn == self.transpose and not any(len(v.shape) >= 2 for v in self.pool):
                continue
            made.append(fn())
        results = [made[-1]]
        others = [v for v in made[:-1] if v.name != made[-1].name]
        if others and self.rng.random() < 0.4:
            results.append(self.rng.choice(others))
        params = ", ".join(f"{v.name}: {v.type}" for v in self.args)
        types = ", ".join(v.type for v in results)
        body = "\n".join(self.lines)
        text = (
            f"mesh.mesh @mesh(shape = {'x'.join(map(str, self.mesh))})\n"
            f"func.func @f({params}) -> ({types}) {{\n{body}\n"
            f"  return {', '.join(v.name for v in results)} : {types}\n}}\n"
        )
        return Program(text, self.mesh, list(self.args), self.all_even, self.annotations, self.ops)


def generate(seed: int) -> Program:
    return _Gen(random.Random(seed)).program()


# -- the check ---------------------------------------------------------------------

PIPELINE = "builtin.module(sharding-propagation,mesh-partition)"
_HLO_OP = re.compile(r'"((?:stablehlo|mhlo|chlo)\.\w+)"')


def dynamic_hlo_ops(printed: str) -> set[str]:
    """The hlo ops of `printed` whose types are dynamic somewhere (pieces of
    unequal sizes); an op with a region types itself on its closing line."""
    found, open_ops = set(), []
    for line in printed.splitlines():
        m = _HLO_OP.search(line)
        if line.strip().startswith("})"):
            name = open_ops.pop() if open_ops else None
            if name and "?" in line:
                found.add(name)
        elif m and line.rstrip().endswith("({"):
            open_ops.append(m.group(1))
        elif m and "?" in line.split(" : ", 1)[-1]:
            found.add(m.group(1))
    return found


@dataclasses.dataclass
class Outcome:
    kind: str  # "ok", "refused" or "failed"
    message: str = ""
    dynamic: set[str] = dataclasses.field(default_factory=set)  # `dynamic_hlo_ops`
    partitioned: str = ""


def inputs(prog: Program, seed: int) -> list[np.ndarray]:
    """Small whole numbers, so most float results are exact whatever the
    order of a sum."""
    rng = np.random.default_rng(seed)
    out = []
    for v in prog.args:
        x = rng.integers(-3, 4, size=v.shape)
        out.append(x > 0 if v.elem == "i1" else x.astype(np.float32 if v.elem == "f32" else np.int32))
    return out


def _close(got: np.ndarray, want: np.ndarray) -> bool:
    if got.shape != want.shape or got.dtype != want.dtype:
        return False
    if want.dtype.kind != "f":
        return bool(np.array_equal(got, want))
    g, w = got.astype(np.float64), want.astype(np.float64)
    finite = np.isfinite(w)
    scale = float(np.max(np.abs(w[finite]), initial=1.0))
    with np.errstate(all="ignore"):
        same = (g == w) | (np.isnan(g) & np.isnan(w))
        near = np.abs(g - w) <= 1e-5 * scale + 1e-5 * np.abs(np.where(finite, w, 0.0))
    return bool(np.all(same | (finite & near)))


def partitioned_results(text: str, args_of) -> tuple[str, list, list]:
    """`text` (a function `@f`) through sharding-propagation and
    mesh-partition, verified: (the output printed, the original's results,
    the output's results) on the inputs `args_of(Simulation.signature)` gives."""
    ctx = mesh_dialect.context(allow_unregistered_dialects=True)
    module = mesh_dialect.parse(text, context=ctx)
    mesh_dialect.pass_manager("builtin.module(sharding-propagation, mesh-partition)", context=ctx).run(module.operation)
    mesh_dialect.verify(module)
    reference = Simulation(mesh_dialect.parse(text, context=ctx))
    args = args_of(reference.signature("f"))
    return mesh_dialect.print_ir(module), reference.run("f", args), Simulation(module).run("f", args)


def check(prog: Program, seeds: tuple[int, ...] = (0, 1)) -> Outcome:
    """Run the pipeline on `prog`; a refusal must be a clean diagnostic, and
    a partitioned program must verify, print and re-parse, and compute the
    original's results (after mesh-optimize-collectives too)."""
    ctx = mesh_dialect.context(allow_unregistered_dialects=True)
    original = mesh_dialect.parse(prog.text, context=ctx)
    module = mesh_dialect.parse(prog.text, context=ctx)
    try:
        mesh_dialect.pass_manager(PIPELINE, context=ctx).run(module.operation)
    except (DiagnosticError, ir.MLIRError) as e:
        messages = [d.message for d in getattr(e, "error_diagnostics", [])] or [str(e)]
        if any("internal error" in m for m in messages):
            return Outcome("failed", f"crash: {messages[0]}")
        return Outcome("refused", messages[0])
    except Exception as e:  # noqa: BLE001  (anything else is a crash)
        return Outcome("failed", f"crash: {type(e).__name__}: {e}")
    try:
        mesh_dialect.verify(module)
        printed = mesh_dialect.print_ir(module)
        module = mesh_dialect.parse(printed, context=ctx)
        optimized = mesh_dialect.parse(printed, context=ctx)
        mesh_dialect.pass_manager("builtin.module(mesh-optimize-collectives)", context=ctx).run(optimized.operation)
        mesh_dialect.verify(optimized)
    except Exception as e:  # noqa: BLE001
        return Outcome("failed", f"invalid output: {type(e).__name__}: {e}")
    uneven = dynamic_hlo_ops(printed)
    try:
        reference = Simulation(original)
        for seed in seeds:
            xs = inputs(prog, seed)
            want = reference.run("f", xs, seed=None)
            for which, m in (("partitioned", module), ("optimized", optimized)):
                got = Simulation(m).run("f", xs, seed=None)
                for i, (g, w) in enumerate(zip(got, want)):
                    if not _close(np.asarray(g), np.asarray(w)):
                        why = f"miscompile: {which} result {i} differs (seed {seed})"
                        return Outcome("failed", why, uneven, printed)
    except Exception as e:  # noqa: BLE001
        return Outcome("failed", f"simulation: {type(e).__name__}: {e}", uneven, printed)
    return Outcome("ok", "", uneven, printed)


def main(argv: list[str]) -> int:
    import argparse

    p = argparse.ArgumentParser()
    p.add_argument("--count", type=int, default=1000)
    p.add_argument("--start", type=int, default=0)
    p.add_argument("--out", default=None, help="directory for failing programs")
    p.add_argument("--annotate", type=float, default=KNOBS["annotate"])
    p.add_argument("--max-ops", type=int, default=KNOBS["max_ops"])
    p.add_argument("--xla-cuts", type=float, default=KNOBS["xla_cuts"], help="how often an annotation takes XLA's cut")
    args = p.parse_args(argv)
    KNOBS.update(annotate=args.annotate, max_ops=args.max_ops, xla_cuts=args.xla_cuts)
    tally: Counter = Counter()
    refusals: Counter = Counter()
    failures: Counter = Counter()
    kinds: Counter = Counter()
    for seed in range(args.start, args.start + args.count):
        if (seed - args.start) % 500 == 0:
            print(f"seed {seed}: {dict(tally)}", file=sys.stderr, flush=True)
        prog = generate(seed)
        out = check(prog)
        tally[out.kind] += 1
        tally["uneven"] += bool(out.dynamic)
        kinds.update(out.dynamic)
        if out.kind == "refused":
            refusals[re.sub(r"\d+", "N", out.message)[:160]] += 1
            if prog.all_even:
                tally["refused even"] += 1
                print(f"seed {seed}: even program refused: {out.message}", flush=True)
        if out.kind == "failed":
            failures[re.sub(r"\d+", "N", out.message)[:160]] += 1
            print(f"seed {seed}: {out.message[:300]}", flush=True)
            if args.out:
                import os

                os.makedirs(args.out, exist_ok=True)
                with open(os.path.join(args.out, f"seed{seed}.mlir"), "w") as f:
                    f.write(f"// {out.message[:300]}\n" + prog.text)
    print(dict(tally))
    print("dynamic-typed hlo ops:", dict(kinds))
    print("refusals:")
    for m, n in refusals.most_common():
        print(f"  {n} x {m}")
    print("failures:")
    for m, n in failures.most_common():
        print(f"  {n} x {m}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
