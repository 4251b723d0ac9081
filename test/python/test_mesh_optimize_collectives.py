"""mesh-optimize-collectives keeps every device's results: random per-device
programs made of the patterns it rewrites (and near misses it must leave
alone) run on random meshes of rank 1 to 3 with independent random integer
data on every device, before and after the pass; each device's outputs must
be equal bit for bit."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import assume, event, example, given, settings
from hypothesis import strategies as st
from mlir import ir
from mlir.passmanager import PassManager

import mesh_dialect
from mesh_dialect.ir.syntax import decode_sharding_attr
from mesh_dialect.sim.api import Simulation
from mesh_dialect.transforms import PASSES, MeshCanonicalize, MeshOptimizeCollectives
from mesh_dialect.transforms.optimize.mesh_optimize_collectives import pad_plan

KINDS = ("sum", "max", "min", "product", "bitwise_and", "bitwise_or", "bitwise_xor", "average")
COMBINERS = {
    "sum": "arith.addi",
    "max": "arith.maxsi",
    "min": "arith.minsi",
    "product": "arith.muli",
    "bitwise_and": "arith.andi",
    "bitwise_or": "arith.ori",
    "bitwise_xor": "arith.xori",
}
BINARY = ("arith.addi", "arith.subi", "arith.muli", "arith.maxsi", "arith.xori")
MAX_ELEMENTS = 256


def _ty(shape: tuple[int, ...], element: str = "i32") -> str:
    return "tensor<" + "x".join(map(str, shape)) + f"x{element}>"


def _axes(axes: list[int]) -> str:
    return "[" + ", ".join(map(str, axes)) + "]"


class _Program:
    """Text of one function, one SSA value per line, with the shapes of the
    values it may still use."""

    def __init__(self, mesh: list[int], args: list[tuple[int, ...]]) -> None:
        self.mesh = mesh
        self.args = args
        self.values: list[tuple[str, tuple[int, ...]]] = [(f"%a{i}", s) for i, s in enumerate(args)]
        self.lines: list[str] = []
        self.collectives: list[str] = []
        self.results: list[tuple[str, tuple[int, ...]]] = []
        self.n = 0

    def fresh(self) -> str:
        self.n += 1
        return f"%v{self.n}"

    def group(self, axes: list[int]) -> int:
        return math.prod(self.mesh[a] for a in axes)

    def emit(self, text: str, shape: tuple[int, ...], *, collective: bool = False, keep: bool = True) -> str:
        name = self.fresh()
        line = f"  {name} = {text}"
        self.lines.append(line)
        if collective:
            self.collectives.append(text)
        if keep:
            self.values.append((name, shape))
            self.results.append((name, shape))
        return name

    def all_reduce(self, v: str, shape, axes, kind, keep=False) -> str:
        t = _ty(shape)
        return self.emit(
            f"mesh.all_reduce {v} on @mesh mesh_axes = {_axes(axes)} reduction = <{kind}> : {t} -> {t}",
            shape,
            collective=True,
            keep=keep,
        )

    def reduce_scatter(self, v: str, shape, axes, kind, dim, keep=False) -> tuple[str, tuple[int, ...]]:
        out = list(shape)
        out[dim] //= self.group(axes)
        out = tuple(out)
        text = (
            f"mesh.reduce_scatter {v} on @mesh mesh_axes = {_axes(axes)} reduction = <{kind}> scatter_axis = {dim} "
            f": {_ty(shape)} -> {_ty(out)}"
        )
        return self.emit(text, out, collective=True, keep=keep), out

    def all_gather(self, v: str, shape, axes, dim, keep=False) -> tuple[str, tuple[int, ...]]:
        out = list(shape)
        out[dim] *= self.group(axes)
        out = tuple(out)
        text = (
            f"mesh.all_gather {v} on @mesh mesh_axes = {_axes(axes)} gather_axis = {dim} : {_ty(shape)} -> {_ty(out)}"
        )
        return self.emit(text, out, collective=True, keep=keep), out

    def all_slice(self, v: str, shape, axes, dim) -> str:
        out = list(shape)
        out[dim] //= self.group(axes)
        text = (
            f"mesh.all_slice {v} on @mesh mesh_axes = {_axes(axes)} slice_axis = {dim} : {_ty(shape)} -> "
            f"{_ty(tuple(out))}"
        )
        return self.emit(text, tuple(out), collective=True)

    def text(self) -> str:
        mesh = "x".join(map(str, self.mesh))
        args = ", ".join(f"%a{i}: {_ty(s)}" for i, s in enumerate(self.args))
        names = ", ".join(n for n, _ in self.results)
        types = ", ".join(_ty(s) for _, s in self.results)
        body = "\n".join(self.lines)
        return (
            f"mesh.mesh @mesh(shape = {mesh})\n"
            f"func.func @f({args}) -> ({types}) {{\n{body}\n  return {names} : {types}\n}}\n"
        )


@st.composite
def programs(draw) -> str:
    rank = draw(st.integers(1, 3))
    mesh = [draw(st.sampled_from((1, 2, 2, 3))) for _ in range(rank)]
    while math.prod(mesh) > 8:
        mesh[mesh.index(max(mesh))] -= 1
    devices = math.prod(mesh)
    base = (2 * devices, 6) if devices % 3 else (devices, 6)
    p = _Program(mesh, [base, base, (base[0] // 2 if base[0] % 2 == 0 else base[0], 6)])

    def value(shape=None):
        pool = [v for v in p.values if shape is None or v[1] == shape]
        return draw(st.sampled_from(pool))

    def axes(allow_empty: bool = True, avoid: tuple[int, ...] = ()) -> list[int]:
        """Mostly a non-empty group; with `avoid`, mostly one disjoint from it."""
        free = [a for a in range(rank) if a not in avoid] if draw(st.integers(0, 3)) else list(range(rank))
        empty = allow_empty and draw(st.integers(0, 4)) == 0
        return draw(st.lists(st.sampled_from(free or list(range(rank))), unique=True, min_size=0 if empty else 1))

    def divisible_dim(shape, g):
        dims = [d for d, n in enumerate(shape) if n % g == 0]
        return draw(st.sampled_from(dims)) if dims else None

    def chain_inner(x: str, rv: str, op: str, shape) -> str:
        """f(x, rv) in either operand order, sometimes with another use."""
        first, second = (x, rv) if draw(st.booleans()) else (rv, x)
        return p.emit(f"{op} {first}, {second} : {_ty(shape)}", shape, keep=draw(st.integers(0, 4)) == 0)

    def chain_outer(t: str, rw: str, op: str, shape) -> None:
        """f(t, rw) in either operand order, sometimes another op than f."""
        op2 = op if draw(st.integers(0, 3)) else draw(st.sampled_from((*BINARY, *COMBINERS.values())))
        first, second = (t, rw) if draw(st.booleans()) else (rw, t)
        p.emit(f"{op2} {first}, {second} : {_ty(shape)}", shape)

    for _ in range(draw(st.integers(1, 6))):
        pattern = draw(
            st.sampled_from(
                (
                    "slice",
                    "dup",
                    "fold",
                    "gather",
                    "reassoc",
                    "decompose",
                    "one",
                    "extra",
                    "chain",
                    "scatter",
                    "round",
                )
            )
        )
        if pattern == "slice":  # 1: all_reduce then all_slice
            v, shape = value()
            a = axes()
            sa = a if draw(st.integers(0, 3)) else list(reversed(a))
            if len(a) > 1 and draw(st.booleans()):  # a slice over some of the reduced axes
                sa = draw(st.permutations(a))[: draw(st.integers(1, len(a) - 1))]
            d = divisible_dim(shape, p.group(sa))
            if d is None:
                continue
            kind = draw(st.sampled_from(KINDS))
            keep = draw(st.booleans())  # another use: must not be rewritten
            r = p.all_reduce(v, shape, a, kind, keep=keep)
            p.all_slice(r, shape, sa, d)
        elif pattern == "dup" and p.collectives:  # 2: identical collectives
            text = draw(st.sampled_from(p.collectives))
            shape = tuple(int(x) for x in text.rsplit("tensor<", 1)[1].split("x")[:-1])
            p.emit(text, shape, collective=True)
        elif pattern == "fold":  # 3: all_reduce of all_reduce
            v, shape = value()
            k1 = draw(st.sampled_from((*KINDS, "average", "sum")))
            k2 = k1 if draw(st.integers(0, 2)) else draw(st.sampled_from(KINDS))
            a = axes()
            inner = p.all_reduce(v, shape, a, k1, keep=draw(st.integers(0, 3)) == 0)
            if draw(st.integers(0, 3)) == 0:
                inner, shape = p.all_gather(inner, shape, axes(), 0)
            if math.prod(shape) <= MAX_ELEMENTS:
                p.all_reduce(inner, shape, axes(avoid=tuple(a)), k2, keep=True)
        elif pattern == "gather":  # 4: all_gather below elementwise ops
            v, shape = value()
            w, _ = value(shape)
            a = axes()
            d = draw(st.integers(0, 1))
            if math.prod(shape) * p.group(a) > MAX_ELEMENTS:
                continue
            gv, out = p.all_gather(v, shape, a, d, keep=draw(st.integers(0, 3)) == 0)
            same = draw(st.integers(0, 4)) == 0
            gw = gv if same else p.all_gather(w, shape, a, d)[0]
            r = p.emit(f"{draw(st.sampled_from(BINARY))} {gv}, {gw} : {_ty(out)}", out)
            if draw(st.booleans()):
                p.emit(f"math.absi {r} : {_ty(out)}", out)
        elif pattern == "reassoc":  # 5: op(all_reduce(a), all_reduce(b))
            v, shape = value()
            w, _ = value(shape)
            kind = draw(st.sampled_from(tuple(COMBINERS)))
            a = axes()
            b = a if draw(st.integers(0, 3)) else axes()
            op = COMBINERS[kind] if draw(st.booleans()) else draw(st.sampled_from((*BINARY, *COMBINERS.values())))
            rv = p.all_reduce(v, shape, a, kind, keep=draw(st.integers(0, 4)) == 0)
            rw = p.all_reduce(w, shape, b, kind)
            p.emit(f"{op} {rv}, {rw} : {_ty(shape)}", shape)
        elif pattern == "scatter":  # op(R(a), R(b)) and f(f(x, R(a)), R(b)) for reduce_scatters R
            v, shape = value()
            w, _ = value(shape)
            kind = draw(st.sampled_from(tuple(COMBINERS)))
            a = axes()
            b = a if draw(st.integers(0, 3)) else list(reversed(a)) if draw(st.booleans()) else axes()
            d = divisible_dim(shape, p.group(a))
            if d is None or p.group(a) != p.group(b):
                continue
            op = COMBINERS[kind] if draw(st.booleans()) else draw(st.sampled_from((*BINARY, *COMBINERS.values())))
            rv, out = p.reduce_scatter(v, shape, a, kind, d, keep=draw(st.integers(0, 4)) == 0)
            rw, _ = p.reduce_scatter(w, shape, b, kind, d)
            if draw(st.booleans()) or not [x for x in p.values if x[1] == out]:
                p.emit(f"{op} {rv}, {rw} : {_ty(out)}", out)
                continue
            chain_outer(chain_inner(value(out)[0], rv, op, out), rw, op, out)
        elif pattern == "chain":  # f(f(x, all_reduce(a)), all_reduce(b))
            v, shape = value()
            w, _ = value(shape)
            x, _ = value(shape)
            kind = draw(st.sampled_from(tuple(COMBINERS)))
            a = axes()
            b = a if draw(st.integers(0, 3)) else axes()
            op = COMBINERS[kind] if draw(st.booleans()) else draw(st.sampled_from((*BINARY, *COMBINERS.values())))
            rv = p.all_reduce(v, shape, a, kind, keep=draw(st.integers(0, 4)) == 0)
            t = chain_inner(x, rv, op, shape)
            chain_outer(t, p.all_reduce(w, shape, b, kind), op, shape)
        elif pattern == "decompose":  # 6: all_reduce then elementwise work
            v, shape = value()
            r = p.all_reduce(v, shape, axes(), draw(st.sampled_from(KINDS)))
            t = _ty(shape)
            x = p.emit(f"math.absi {r} : {t}", shape, keep=False)
            if draw(st.booleans()):
                n = p.emit(f"arith.trunci {x} : {t} to {_ty(shape, 'i16')}", shape, keep=False)
                x = p.emit(f"arith.extsi {n} : {_ty(shape, 'i16')} to {t}", shape, keep=False)
            p.values.append((x, shape))
            p.results.append((x, shape))
        elif pattern == "one":  # 7: one-device groups
            ones = [a for a in range(rank) if mesh[a] == 1]
            v, shape = value()
            a = draw(st.lists(st.sampled_from(ones), unique=True)) if ones else []
            if draw(st.booleans()):
                p.all_reduce(v, shape, a, draw(st.sampled_from(KINDS)), keep=True)
            else:
                p.all_gather(v, shape, a, 0, keep=True)
        elif pattern == "round":  # all_gather then all_slice: undone when the axes and dimension are the same
            v, shape = value()
            a = axes(allow_empty=False)
            d = draw(st.integers(0, 1))
            if math.prod(shape) * p.group(a) > MAX_ELEMENTS:
                continue
            gv, out = p.all_gather(v, shape, a, d, keep=draw(st.integers(0, 3)) == 0)
            sa = a if draw(st.integers(0, 2)) else (list(reversed(a)) if draw(st.booleans()) else axes())
            sd = d if draw(st.integers(0, 2)) else divisible_dim(out, p.group(sa))
            if sd is None or out[sd] % p.group(sa):
                continue
            p.all_slice(gv, out, sa, sd)
        elif pattern == "extra":  # a plain all_reduce, to feed the others
            v, shape = value()
            p.all_reduce(v, shape, axes(allow_empty=False), draw(st.sampled_from(KINDS)), keep=True)
    if not p.results:
        p.all_reduce("%a0", base, [0], "sum", keep=True)
    return p.text()


def _context(text: str) -> ir.Context:
    """A context for `text`, which may hold hlo ops in generic form."""
    return mesh_dialect.context(allow_unregistered_dialects="stablehlo." in text)


def _optimize(text: str, **options) -> tuple[ir.Operation, ir.Context]:
    ctx = _context(text)
    module = mesh_dialect.parse(text, context=ctx)
    with ctx:
        pm = PassManager("builtin.module")
        MeshOptimizeCollectives(**options).add_to(pm)
        pm.run(module.operation)
    mesh_dialect.verify(module)
    return module, ctx


def _run(module, args) -> dict:
    return Simulation(module, mesh="mesh").runner("mesh").run_spmd("f", args)


def _device_args(text: str, seed: int) -> dict:
    module = mesh_dialect.parse(text, context=_context(text))
    sim = Simulation(module, mesh="mesh")
    runner = sim.runner("mesh")
    sig = sim.signature("f")
    rng = np.random.default_rng(seed)
    args = {
        d: [rng.integers(-4, 5, size=tuple(t.shape)).astype(np.int32) for t in sig.arg_types]
        for d in runner.mesh.devices()
    }
    # an argument laid out whole is the same on every device (its layout says so, and rewrites rely on it)
    whole = [i for i, layout in enumerate(_arg_layouts(module)) if layout is not None and not any(layout)]
    first = runner.mesh.devices()[0]
    for d in args:
        for i in whole:
            args[d][i] = args[first][i]
    return args


def _arg_layouts(module) -> list[list | None]:
    """Per argument of function @f, its split axes and partial axes (None:
    no layout)."""
    for op in module.operation.regions[0].blocks[0].operations:
        if op.operation.name != "func.func" or ir.StringAttr(op.attributes["sym_name"]).value != "f":
            continue
        if "arg_attrs" in op.attributes:
            out: list[list | None] = []
            for attrs in ir.ArrayAttr(op.attributes["arg_attrs"]):
                d = ir.DictAttr(attrs)
                if "mesh.sharding" not in d:
                    out.append(None)
                    continue
                _, split, partial, *_ = decode_sharding_attr(str(d["mesh.sharding"]))
                out.append([*(a for axes in split for a in axes), *partial])
            return out
    return []


_PADDED_BETWEEN = """\
  %g = mesh.all_to_all {x} on @mesh mesh_axes = [0] split_axis = 1 concat_axis = 0
      : tensor<3x4xi32> -> tensor<12x1xi32>
  %p = tensor.pad %g low[0, 0] high[4, 0] {{
  ^bb0(%j: index, %k: index):
    tensor.yield %s : i32
  }} : tensor<12x1xi32> to tensor<16x1xi32>
  %r = mesh.all_to_all %p on @mesh mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<16x1xi32> -> tensor<4x4xi32>
"""
"""Rows of `{x}` (3x4 on a mesh of 4) gathered, padded 12 -> 16 with `%s` and
split again (`%r`): the form `pad-by-shift` rewrites."""


def _same(text: str, seed: int, **options) -> str:
    """The optimized program's text, after checking that every device's
    outputs are equal before and after."""
    args = _device_args(text, seed)
    expected = _run(mesh_dialect.parse(text, context=_context(text)), args)
    module, _ = _optimize(text, **options)
    got = _run(module, args)
    for d in expected:
        for i, (e, g) in enumerate(zip(expected[d], got[d])):
            assert e.dtype == g.dtype and e.shape == g.shape, (d, i)
            assert np.array_equal(e, g), f"device {d}, result {i}\n{text}\n{mesh_dialect.print_ir(module)}"
    return mesh_dialect.print_ir(module)


@settings(max_examples=300, deadline=None)
@given(programs(), st.integers(0, 2**31 - 1))
def test_random_programs_keep_every_devices_results(text, seed):
    _same(text, seed)


@settings(max_examples=30, deadline=None)
@given(
    programs(),
    st.integers(0, 2**31 - 1),
    st.sampled_from(["move_gather_down", "decompose_all_reduce", "fold_all_reduce"]),
)
def test_each_rewrite_alone_keeps_the_results(text, seed, only):
    options = {f.name: f.name == only for f in MeshOptimizeCollectives.options() if f.name != "explain"}
    _same(text, seed, **options)


SUM_OF_SUMS = """
mesh.mesh @mesh(shape = 2x2)
func.func @f(%a0: tensor<4xi32>) -> tensor<4xi32> {
  %0 = mesh.all_reduce %a0 on @mesh mesh_axes = [0] : tensor<4xi32> -> tensor<4xi32>
  %1 = mesh.all_reduce %0 on @mesh mesh_axes = [0, 1] : tensor<4xi32> -> tensor<4xi32>
  return %1 : tensor<4xi32>
}
"""


NOT_REWRITTEN = """
mesh.mesh @mesh(shape = 2x2)
func.func @f(%a0: tensor<4xi32>, %a1: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  %0 = mesh.all_reduce %a0 on @mesh mesh_axes = [0] reduction = <average> : tensor<4xi32> -> tensor<4xi32>
  %1 = mesh.all_reduce %0 on @mesh mesh_axes = [1] reduction = <average> : tensor<4xi32> -> tensor<4xi32>
  %2 = mesh.all_reduce %a0 on @mesh mesh_axes = [1] : tensor<4xi32> -> tensor<4xi32>
  %3 = mesh.all_reduce %a1 on @mesh mesh_axes = [1] : tensor<4xi32> -> tensor<4xi32>
  %4 = arith.maxsi %2, %3 : tensor<4xi32>
  return %1, %4 : tensor<4xi32>, tensor<4xi32>
}
"""


def test_a_sum_of_an_already_summed_value_is_not_folded():
    printed = _same(SUM_OF_SUMS, 0)
    assert printed.count("mesh.all_reduce") == 2


@pytest.mark.parametrize("seed", range(4))
def test_averages_and_mismatched_combiners_are_left_alone(seed):
    """Integer averages truncate at each step, and a max of sums is not a
    sum of maxima: rewriting either changes results for these inputs."""
    printed = _same(NOT_REWRITTEN, seed)
    assert printed.count("mesh.all_reduce") == 4


def test_every_rewrite_fires_on_its_pattern():
    text = """
mesh.mesh @mesh(shape = 2x2)
func.func @f(%a0: tensor<4x4xi32>, %a1: tensor<4x4xi32>)
    -> (tensor<2x4xi32>, tensor<4x4xi32>, tensor<8x4xi32>, tensor<4x4xi32>) {
  %0 = mesh.all_reduce %a0 on @mesh mesh_axes = [0] : tensor<4x4xi32> -> tensor<4x4xi32>
  %1 = mesh.all_slice %0 on @mesh mesh_axes = [0] slice_axis = 0 : tensor<4x4xi32> -> tensor<2x4xi32>
  %2 = mesh.all_reduce %a0 on @mesh mesh_axes = [1] : tensor<4x4xi32> -> tensor<4x4xi32>
  %3 = mesh.all_reduce %a1 on @mesh mesh_axes = [1] : tensor<4x4xi32> -> tensor<4x4xi32>
  %4 = arith.addi %2, %3 : tensor<4x4xi32>
  %5 = mesh.all_gather %a0 on @mesh mesh_axes = [1] gather_axis = 0 : tensor<4x4xi32> -> tensor<8x4xi32>
  %6 = mesh.all_gather %a1 on @mesh mesh_axes = [1] gather_axis = 0 : tensor<4x4xi32> -> tensor<8x4xi32>
  %7 = arith.muli %5, %6 : tensor<8x4xi32>
  %8 = mesh.all_reduce %a1 on @mesh mesh_axes = [0] reduction = <max> : tensor<4x4xi32> -> tensor<4x4xi32>
  %9 = math.absi %8 : tensor<4x4xi32>
  return %1, %4, %7, %9 : tensor<2x4xi32>, tensor<4x4xi32>, tensor<8x4xi32>, tensor<4x4xi32>
}
"""
    printed = _same(text, 3)
    assert "mesh.reduce_scatter %arg0 on @mesh mesh_axes = [0] scatter_axis = 0" in printed
    assert "arith.addi %arg0, %arg1 : tensor<4x4xi32>" in printed
    assert "arith.muli %arg0, %arg1 : tensor<4x4xi32>" in printed
    assert "reduction = <max> scatter_axis = 0 : tensor<4x4xi32> -> tensor<2x4xi32>" in printed
    assert printed.count("mesh.all_reduce") == 1


ROUND_TRIPS = """
mesh.mesh @mesh(shape = 2x3)
func.func @f(%a0: tensor<4x6xi32>) -> (tensor<4x6xi32>, tensor<4x6xi32>, tensor<8x3xi32>, tensor<24x6xi32>) {
  %0 = mesh.all_gather %a0 on @mesh mesh_axes = [0, 1] gather_axis = 0 : tensor<4x6xi32> -> tensor<24x6xi32>
  %1 = mesh.all_slice %0 on @mesh mesh_axes = [0, 1] slice_axis = 0 : tensor<24x6xi32> -> tensor<4x6xi32>
  %2 = mesh.all_slice %0 on @mesh mesh_axes = [1, 0] slice_axis = 0 : tensor<24x6xi32> -> tensor<4x6xi32>
  %3 = mesh.all_gather %a0 on @mesh mesh_axes = [0] gather_axis = 0 : tensor<4x6xi32> -> tensor<8x6xi32>
  %4 = mesh.all_slice %3 on @mesh mesh_axes = [0] slice_axis = 0 : tensor<8x6xi32> -> tensor<4x6xi32>
  %5 = mesh.all_slice %3 on @mesh mesh_axes = [0] slice_axis = 1 : tensor<8x6xi32> -> tensor<8x3xi32>
  %6 = arith.addi %1, %4 : tensor<4x6xi32>
  return %6, %2, %5, %0 : tensor<4x6xi32>, tensor<4x6xi32>, tensor<8x3xi32>, tensor<24x6xi32>
}
"""


@pytest.mark.parametrize("seed", range(3))
def test_a_slice_undoing_a_gather_is_the_gathers_input(seed):
    """Only an all_slice over the same axes, in the same order, along the
    gathered dimension gives each device its own input back; the other
    slices stay, and so do the gathers they (or the results) read."""
    printed = _same(ROUND_TRIPS, seed)
    assert "arith.addi %arg0, %arg0 : tensor<4x6xi32>" in printed
    assert printed.count("mesh.all_slice") == 2
    assert printed.count("mesh.all_gather") == 2
    canonical = _canonicalized(ROUND_TRIPS)
    assert "arith.addi %arg0, %arg0 : tensor<4x6xi32>" in canonical
    assert canonical.count("mesh.all_slice") == 2


NO_ELEMENTS = """
mesh.mesh @mesh(shape = 2x2)
func.func @f(%a0: tensor<0x4xi32>, %a1: tensor<4x4xi32>) -> (tensor<0x8xi32>, tensor<4x4xi32>, tensor<0x4xi32>) {
  %0 = mesh.all_gather %a0 on @mesh mesh_axes = [1] gather_axis = 1 : tensor<0x4xi32> -> tensor<0x8xi32>
  %1 = mesh.all_reduce %a1 on @mesh mesh_axes = [0] : tensor<4x4xi32> -> tensor<4x4xi32>
  %2 = mesh.all_reduce %a0 on @mesh mesh_axes = [0, 1] : tensor<0x4xi32> -> tensor<0x4xi32>
  return %0, %1, %2 : tensor<0x8xi32>, tensor<4x4xi32>, tensor<0x4xi32>
}
"""


def test_a_collective_of_no_element_is_an_empty_tensor():
    """Partition gathers and reduces tensors of no element (JAX's edge pads
    concatenate some): they receive nothing, and each becomes a
    `tensor.empty` of its type; the other collective stays."""
    for printed in (_same(NO_ELEMENTS, 0), _canonicalized(NO_ELEMENTS)):
        assert printed.count("tensor.empty() : tensor<0x8xi32>") == 1
        assert printed.count("tensor.empty() : tensor<0x4xi32>") == 1
        assert printed.count("mesh.all_") == 1


def test_a_collective_of_no_element_keeps_an_encoded_type():
    """A `tensor.empty` would drop the type's encoding: such a collective stays."""
    text = NO_ELEMENTS.replace("tensor<0x8xi32>", 'tensor<0x8xi32, "enc">').replace(
        "tensor<0x4xi32>", 'tensor<0x4xi32, "enc">'
    )
    for printed in (mesh_dialect.print_ir(_optimize(text)[0]), _canonicalized(text)):
        assert "tensor.empty" not in printed
        assert printed.count("mesh.all_gather") == 1


def _canonicalized(text: str) -> str:
    """`text` after mesh-canonicalize, which makes the same fold (its
    results are those `_same` checks: the same program)."""
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(text, context=ctx)
    with ctx:
        pm = PassManager("builtin.module")
        MeshCanonicalize().add_to(pm)
        pm.run(module.operation)
    mesh_dialect.verify(module)
    return mesh_dialect.print_ir(module)


def test_the_pass_is_registered_with_its_options():
    cls = PASSES["mesh-optimize-collectives"]
    assert cls is MeshOptimizeCollectives
    assert cls.from_options("reassociate=false explain=true") == MeshOptimizeCollectives(
        reassociate=False, explain=True
    )
    with pytest.raises(mesh_dialect.transforms.OptionError):
        cls.from_options("fold=true")


# -- pad-by-shift ----------------------------------------------------------------


@pytest.mark.parametrize("devices", range(1, 7))
def test_a_pad_plan_cuts_every_devices_piece_of_the_padded_dimension(devices):
    """Every split of every small pad: each device's window of pieces (its
    neighbours', or the padding value where it has none), cut where the plan
    says, is its piece of the padded tensor, and the cut stays in the window."""
    checked = 0
    for piece in range(1, 6):
        total = devices * piece
        for low in range(0, 9):
            for high in range(0, 9):
                plan = pad_plan(0, devices, piece, low, high)
                out, rest = divmod(low + total + high, devices)
                if rest:
                    assert plan is None
                    continue
                x = np.arange(1, total + 1)
                padded = np.pad(x, (low, high), constant_values=-1)
                if not any(max(out * i - low, 0) < min(out * i + out - low, total) for i in range(devices)):
                    assert plan is None
                    continue
                assert plan is not None
                for i in range(devices):
                    parts = [np.full(plan.before, -1)]
                    for k in plan.neighbours:
                        held = 0 <= i + k < devices
                        parts.append(x[(i + k) * piece : (i + k + 1) * piece] if held else np.full(piece, -1))
                    parts.append(np.full(plan.after, -1))
                    window = np.concatenate(parts)
                    start = plan.step * i + plan.start
                    assert 0 <= start and start + out <= len(window), (piece, low, high, i)
                    want = padded[i * out : (i + 1) * out]
                    assert list(window[start : start + out]) == list(want), (piece, low, high, i)
                checked += 1
    assert checked > 0


def test_a_pad_plan_fetches_only_the_neighbours_some_device_reads():
    # 48 rows over 4 devices padded to 64: each device reads its own piece
    # and the next one's (the last one reads padding only)
    plan = pad_plan(1, 4, 12, 0, 16)
    assert plan is not None
    assert (plan.neighbours, plan.before, plan.after, plan.step, plan.start) == ((0, 1), 0, 4, 4, 0)


def _gather_and_split(axis: int | list[int], traded: bool, moved: str) -> tuple[str, str]:
    """The collective gathering dimension 0 of %a0 over mesh axis `axis` (or
    axes), and the one splitting it again in `moved`: two all_to_alls
    trading it with dimension 1 (`traded`), or an all_gather and an
    all_slice."""
    on = f"on @mesh mesh_axes = {[axis] if isinstance(axis, int) else axis}"
    if traded:
        return (
            f"mesh.all_to_all %a0 {on} split_axis = 1 concat_axis = 0",
            f"mesh.all_to_all {moved} {on} split_axis = 0 concat_axis = 1",
        )
    return f"mesh.all_gather %a0 {on} gather_axis = 0", f"mesh.all_slice {moved} {on} slice_axis = 0"


@st.composite
def pads(draw):
    """A per-device program: an all_to_all (or all_gather) gathering a split
    dimension, a pad of it, and the collective splitting it again."""
    n = draw(st.integers(2, 4))
    mesh = [n, draw(st.integers(1, 2))][: draw(st.integers(1, 2))]
    axis = draw(st.integers(0, len(mesh) - 1))
    n = mesh[axis]
    piece = draw(st.integers(1, 4))
    low, high = draw(st.integers(0, 6)), draw(st.integers(0, 6))
    low += (-(low + n * piece + high)) % n  # a padded size the axis splits evenly
    out = (low + n * piece + high) // n
    fill = draw(st.integers(-3, 3))
    mesh_text = "x".join(map(str, mesh))
    if draw(st.booleans()):
        other = n * draw(st.integers(1, 2))
        arg, gathered, padded, result = (piece, other), (n * piece, other // n), (n * out, other // n), (out, other)
        first, second = _gather_and_split(axis, True, "%p")
        pad = f"low[{low}, 0] high[{high}, 0]"
        block = "^bb0(%i: index, %j: index)"
    else:
        arg, gathered, padded, result = (piece,), (n * piece,), (n * out,), (out,)
        first, second = _gather_and_split(axis, False, "%p")
        pad = f"low[{low}] high[{high}]"
        block = "^bb0(%i: index)"
    return (
        f"mesh.mesh @mesh(shape = {mesh_text})\n"
        f"func.func @f(%a0: {_ty(arg)}) -> {_ty(result)} {{\n"
        f"  %c = arith.constant {fill} : i32\n"
        f"  %g = {first} : {_ty(arg)} -> {_ty(gathered)}\n"
        f"  %p = tensor.pad %g {pad} {{\n  {block}:\n    tensor.yield %c : i32\n"
        f"  }} : {_ty(gathered)} to {_ty(padded)}\n"
        f"  %r = {second} : {_ty(padded)} -> {_ty(result)}\n"
        f"  return %r : {_ty(result)}\n}}\n"
    )


@settings(max_examples=60, deadline=None)
@given(pads(), st.integers(0, 2**31 - 1))
def test_pads_between_collectives_keep_every_devices_results(text, seed):
    printed = _same(text, seed)
    if "mesh.shift" in printed:  # rewritten (only where fewer bytes move)
        assert "tensor.pad" not in printed and "mesh.all_" not in printed, printed


def test_a_pad_between_two_all_to_alls_becomes_one_shift():
    text = """
mesh.mesh @mesh(shape = 4)
func.func @f(%a0: tensor<12x8xi32>) -> tensor<16x8xi32> {
  %c = arith.constant 5 : i32
  %g = mesh.all_to_all %a0 on @mesh mesh_axes = [0] split_axis = 1 concat_axis = 0
      : tensor<12x8xi32> -> tensor<48x2xi32>
  %p = tensor.pad %g low[0, 0] high[16, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c : i32
  } : tensor<48x2xi32> to tensor<64x2xi32>
  %r = mesh.all_to_all %p on @mesh mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<64x2xi32> -> tensor<16x8xi32>
  return %r : tensor<16x8xi32>
}
"""
    printed = _same(text, 0)
    assert printed.count("mesh.shift %arg0 on @mesh mesh_axes = [0] shift_axis = 0 offset = -1 :") == 1
    assert "mesh.all_to_all" not in printed and "tensor.pad" not in printed
    # left alone when switched off
    assert "mesh.shift" not in _same(text, 0, pad_by_shift=False)


@pytest.mark.parametrize("seed", range(3))
def test_a_padding_value_that_differs_between_devices_is_kept_where_the_cells_travel(seed):
    """Through two all_to_alls each device's piece holds cells the others
    padded, with their own value: the pad stays unless that value is the same
    on every device.  Through an all_gather and an all_slice each device pads
    its own copy, so the rewrite stands."""
    text = (
        """
mesh.mesh @mesh(shape = 4)
func.func @f(%a0: tensor<3x4xi32>, %a1: tensor<i32>, %a2: tensor<3xi32>) -> (tensor<4x4xi32>, tensor<4xi32>) {
  %s = tensor.extract %a1[] : tensor<i32>
"""
        + _PADDED_BETWEEN.format(x="%a0")
        + """  %h = mesh.all_gather %a2 on @mesh mesh_axes = [0] gather_axis = 0 : tensor<3xi32> -> tensor<12xi32>
  %q = tensor.pad %h low[0] high[4] {
  ^bb0(%i: index):
    tensor.yield %s : i32
  } : tensor<12xi32> to tensor<16xi32>
  %t = mesh.all_slice %q on @mesh mesh_axes = [0] slice_axis = 0 : tensor<16xi32> -> tensor<4xi32>
  return %r, %t : tensor<4x4xi32>, tensor<4xi32>
}
"""
    )
    printed = _same(text, seed)
    assert printed.count("mesh.all_to_all") == 2 and printed.count("tensor.pad") == 1, printed
    assert "mesh.all_gather" not in printed and "mesh.shift" in printed, printed


# -- flip-by-exchange ---------------------------------------------------------------


@st.composite
def _split_axes(draw, largest: int):
    """(mesh shape, the axis or axes a dimension is split over, their
    device count): a mesh of one axis (2 to `largest` devices) or two, the
    dimension over one of them or both in either order."""
    mesh = [draw(st.integers(2, largest))] + ([draw(st.integers(1, 3))] if draw(st.booleans()) else [])
    axis: int | list[int] = draw(st.integers(0, len(mesh) - 1))
    n = mesh[axis]
    if len(mesh) == 2 and draw(st.booleans()):
        axis = draw(st.permutations([0, 1]))
        n = mesh[0] * mesh[1]
    return mesh, axis, n


@st.composite
def flips(draw):
    """A per-device program: an all_to_all (or all_gather) gathering a split
    dimension, a reversal of it (a copying linalg.generic or stablehlo's
    reverse, which may reverse other dimensions too: the one the all_to_all
    splits meanwhile, which no rewrite may take, or a third one), and the
    collective splitting it again."""
    mesh, axis, n = draw(_split_axes(5))
    piece = draw(st.integers(1, 3))
    mesh_text = "x".join(map(str, mesh))
    hlo = draw(st.booleans())
    if draw(st.booleans()):
        other = n * draw(st.integers(1, 2))
        third = (draw(st.integers(1, 2)),) if hlo and draw(st.booleans()) else ()
        arg, gathered = (piece, other, *third), (n * piece, other // n, *third)
        first, second = _gather_and_split(axis, True, "%r")
        back, flip, loops = "(i, j) -> (i, j)", f"(i, j) -> ({n * piece - 1} - i, j)", '["parallel", "parallel"]'
    else:
        arg, gathered = (piece,), (n * piece,)
        first, second = _gather_and_split(axis, False, "%r")
        back, flip, loops = "(i) -> (i)", f"(i) -> ({n * piece - 1} - i)", '["parallel"]'
    if hlo:
        dims = [0, *(d for d in range(1, len(arg)) if draw(st.booleans()))]
        listed = ", ".join(map(str, dims))
        reverse = (
            f'  %r = "stablehlo.reverse"(%g) <{{dimensions = array<i64: {listed}>}}> '
            f": ({_ty(gathered)}) -> {_ty(gathered)}\n"
        )
    else:
        reverse = (
            f"  %e = tensor.empty() : {_ty(gathered)}\n"
            f"  %r = linalg.generic {{indexing_maps = [affine_map<{flip}>, affine_map<{back}>],"
            f" iterator_types = {loops}}} ins(%g : {_ty(gathered)}) outs(%e : {_ty(gathered)}) {{\n"
            "  ^bb0(%v: i32, %o: i32):\n    linalg.yield %v : i32\n"
            f"  }} -> {_ty(gathered)}\n"
        )
    return _between_collectives(mesh_text, arg, gathered, first, reverse, second)


def _between_collectives(mesh: str, arg: tuple, gathered: tuple, first: str, middle: str, second: str) -> str:
    """A per-device program: `first` gathers %a0 into %g, the ops `middle`
    make %r of it, and `second` splits %r again."""
    return (
        f"mesh.mesh @mesh(shape = {mesh})\n"
        f"func.func @f(%a0: {_ty(arg)}) -> {_ty(arg)} {{\n"
        f"  %g = {first} : {_ty(arg)} -> {_ty(gathered)}\n"
        f"{middle}"
        f"  %y = {second} : {_ty(gathered)} -> {_ty(arg)}\n"
        f"  return %y : {_ty(arg)}\n}}\n"
    )


@settings(max_examples=60, deadline=None)
@given(flips(), st.integers(0, 2**31 - 1))
def test_reversals_between_collectives_keep_every_devices_results(text, seed):
    printed = _same(text, seed)
    if "mesh.send" in printed or "mesh.shift" in printed:  # rewritten
        assert "mesh.all_" not in printed, printed


@st.composite
def multi_flips(draw):
    """A per-device program: all_gathers of one to three dimensions, each
    over its own mesh axes (in any order; a dimension's axes maybe over two
    gathers, minor first as partition gathers an axis tuple, or in any
    order), an hlo reverse of those dimensions and maybe another, and
    all_slices splitting each again (in any order, a dimension's axes major
    first, or in any order)."""
    mesh = [draw(st.integers(2, 3)) for _ in range(draw(st.integers(2, 3)))]
    rank = draw(st.integers(1, 3))
    count = draw(st.integers(1, min(rank, len(mesh))))
    dims = sorted(draw(st.permutations(range(rank)))[:count])
    free = draw(st.permutations(range(len(mesh))))
    groups = {}
    for k, d in enumerate(dims):  # each dimension at least one axis of its own, the last the rest maybe
        take = 1 if k < count - 1 else draw(st.integers(1, len(free) - k))
        groups[d] = list(free[k : k + take])
    # each dimension's axes in one or two chunks, major first
    chunks = {}
    for d, axes in groups.items():
        cut = draw(st.integers(1, len(axes)))
        chunks[d] = [axes[:cut], axes[cut:]] if cut < len(axes) else [axes]
    steps = [(d, k) for d in dims for k in range(len(chunks[d]))]
    tidy = draw(st.booleans()) or draw(st.booleans())  # (else a dimension's chunks in any order)

    def ordered(permuted: list[tuple[int, int]], minor_first: bool) -> list[tuple[int, int]]:
        if not tidy:
            return permuted
        left = {d: sorted((k for e, k in permuted if e == d), reverse=minor_first) for d in dims}
        return [(d, left[d].pop(0)) for d, _ in permuted]

    local = [draw(st.integers(1, 2)) for _ in range(rank)]
    reversed_dims = sorted(set(dims) | ({draw(st.integers(0, rank - 1))} if draw(st.booleans()) else set()))
    shape = list(local)
    lines = []
    value = "%a0"
    for j, (d, k) in enumerate(ordered(list(draw(st.permutations(steps))), True)):
        before = tuple(shape)
        shape[d] *= math.prod(mesh[a] for a in chunks[d][k])
        lines.append(
            f"  %g{j} = mesh.all_gather {value} on @mesh mesh_axes = {chunks[d][k]} gather_axis = {d} "
            f": {_ty(before)} -> {_ty(tuple(shape))}"
        )
        value = f"%g{j}"
    whole = _ty(tuple(shape))
    lines.append(
        f'  %r = "stablehlo.reverse"({value}) <{{dimensions = array<i64: {", ".join(map(str, reversed_dims))}>}}> '
        f": ({whole}) -> {whole}"
    )
    value = "%r"
    for j, (d, k) in enumerate(ordered(list(draw(st.permutations(steps))), False)):
        before = tuple(shape)
        shape[d] //= math.prod(mesh[a] for a in chunks[d][k])
        lines.append(
            f"  %s{j} = mesh.all_slice {value} on @mesh mesh_axes = {chunks[d][k]} slice_axis = {d} "
            f": {_ty(before)} -> {_ty(tuple(shape))}"
        )
        value = f"%s{j}"
    arg = _ty(tuple(local))
    body = "\n".join(lines)
    return (
        f"mesh.mesh @mesh(shape = {'x'.join(map(str, mesh))})\n"
        f"func.func @f(%a0: {arg}) -> {arg} {{\n{body}\n  return {value} : {arg}\n}}\n"
    )


@settings(max_examples=120, deadline=None)
@given(multi_flips(), st.integers(0, 2**31 - 1))
def test_reversals_of_several_gathered_dimensions_keep_every_devices_results(text, seed):
    _same_and_moved_point_to_point(text, seed)


TUPLE_FLIP = """
mesh.mesh @mesh(shape = 2x3)
func.func @f(%a0: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %g0 = mesh.all_gather %a0 on @mesh mesh_axes = [0] gather_axis = 0 : tensor<2x3xi32> -> tensor<4x3xi32>
  %g1 = mesh.all_gather %g0 on @mesh mesh_axes = [1] gather_axis = 0 : tensor<4x3xi32> -> tensor<12x3xi32>
  %r = "stablehlo.reverse"(%g1) <{dimensions = array<i64: 0, 1>}> : (tensor<12x3xi32>) -> tensor<12x3xi32>
  %s0 = mesh.all_slice %r on @mesh mesh_axes = [1] slice_axis = 0 : tensor<12x3xi32> -> tensor<4x3xi32>
  %s1 = mesh.all_slice %s0 on @mesh mesh_axes = [0] slice_axis = 0 : tensor<4x3xi32> -> tensor<2x3xi32>
  return %s1 : tensor<2x3xi32>
}
"""
"""Rows split over the axis tuple (1, 0), gathered minor axis first and
split again major first, reversed with the columns."""


@pytest.mark.parametrize("seed", [0, 1])
def test_a_dimension_gathered_over_two_axes_in_turn_trades_with_one_mirror(seed):
    printed = _same(TUPLE_FLIP, seed)
    assert "mesh.all_" not in printed, printed
    assert printed.count("mesh.send %") == 2 and "mesh_axes = [1, 0] destination" in printed, printed


# -- roll-by-shift ------------------------------------------------------------------


@st.composite
def rolls(draw):
    """A per-device program: an all_to_all (or all_gather) gathering a split
    dimension over one mesh axis or both, a rotation of it by any amount
    (two slices concatenated the other way round, as tensor or stablehlo
    ops), and the collective splitting it again."""
    mesh, axis, n = draw(_split_axes(4))
    piece = draw(st.integers(1, 3))
    total = n * piece
    assume(total > 1)
    cut = draw(st.integers(1, total - 1))  # the rotation moves cells `total - cut` places up
    traded = draw(st.booleans())
    if traded:
        other = n * draw(st.integers(1, 2))
        arg, gathered, rest = (piece, other), (total, other // n), [other // n]
    else:
        arg, gathered, rest = (piece,), (total,), []
    first, second = _gather_and_split(axis, traded, "%r")
    tail, head = (total - cut, *rest), (cut, *rest)
    zeros = ", ".join(["0"] * len(gathered))
    if draw(st.booleans()):

        def sliced(name: str, start: int, shape: tuple[int, ...]) -> str:
            starts = ", ".join(map(str, [start, *[0] * len(rest)]))
            limits = ", ".join(map(str, [start + shape[0], *rest]))
            ones = ", ".join(["1"] * len(gathered))
            return (
                f'  {name} = "stablehlo.slice"(%g) <{{start_indices = array<i64: {starts}>, '
                f"limit_indices = array<i64: {limits}>, strides = array<i64: {ones}>}}> "
                f": ({_ty(gathered)}) -> {_ty(shape)}\n"
            )

        rotate = (
            sliced("%t", cut, tail)
            + sliced("%h", 0, head)
            + f'  %r = "stablehlo.concatenate"(%t, %h) <{{dimension = 0 : i64}}> '
            f": ({_ty(tail)}, {_ty(head)}) -> {_ty(gathered)}\n"
        )
    else:
        ones = ", ".join(["1"] * len(gathered))
        tails, heads = (", ".join(map(str, shape)) for shape in (tail, head))
        rotate = (
            f"  %t = tensor.extract_slice %g[{cut}{', 0' * len(rest)}] [{tails}] [{ones}] "
            f": {_ty(gathered)} to {_ty(tail)}\n"
            f"  %h = tensor.extract_slice %g[{zeros}] [{heads}] [{ones}] : {_ty(gathered)} to {_ty(head)}\n"
            f"  %r = tensor.concat dim(0) %t, %h : ({_ty(tail)}, {_ty(head)}) -> {_ty(gathered)}\n"
        )
    return _between_collectives("x".join(map(str, mesh)), arg, gathered, first, rotate, second)


@settings(max_examples=80, deadline=None)
@given(rolls(), st.integers(0, 2**31 - 1))
def test_rotations_between_collectives_keep_every_devices_results(text, seed):
    _same_and_moved_point_to_point(text, seed)


@st.composite
def nested_pairs(draw):
    """A per-device program: dimension 0 split over two mesh axes (in
    either order) gathered one axis at a time, minor axis first, each by an
    all_gather or an all_to_all trading it with dimension 1, rotated by any
    amount or reversed (an hlo reverse, maybe of dimension 1 too), and split
    again major axis first, each by the collective that undoes its gather
    (as `mesh-partition` reshards an axis tuple); the gathered tensor maybe
    returned too, so that its collectives stay."""
    mesh = [draw(st.integers(2, 3)), draw(st.integers(2, 3))]
    major, minor = draw(st.permutations([0, 1]))
    piece = draw(st.integers(1, 3))
    traded = [draw(st.booleans()), draw(st.booleans())]  # (minor level, major level)
    other = math.prod(mesh[a] for a, t in zip((minor, major), traded) if t) * draw(st.integers(1, 2))
    shapes = [(piece, other)]
    lines, value = [], "%a0"
    for j, (axis, trade) in enumerate(zip((minor, major), traded)):
        rows, cols = shapes[-1]
        shapes.append((rows * mesh[axis], cols // mesh[axis] if trade else cols))
        how = "mesh.all_to_all" if trade else "mesh.all_gather"
        dims = "split_axis = 1 concat_axis = 0" if trade else "gather_axis = 0"
        lines.append(
            f"  %g{j} = {how} {value} on @mesh mesh_axes = [{axis}] {dims} : {_ty(shapes[-2])} -> {_ty(shapes[-1])}"
        )
        value = f"%g{j}"
    total, cols = shapes[-1]
    if draw(st.booleans()):
        cut = draw(st.integers(1, total - 1))
        tail, head = (total - cut, cols), (cut, cols)
        lines += [
            f"  %t = tensor.extract_slice {value}[{cut}, 0] [{total - cut}, {cols}] [1, 1] "
            f": {_ty(shapes[-1])} to {_ty(tail)}",
            f"  %h = tensor.extract_slice {value}[0, 0] [{cut}, {cols}] [1, 1] : {_ty(shapes[-1])} to {_ty(head)}",
            f"  %r = tensor.concat dim(0) %t, %h : ({_ty(tail)}, {_ty(head)}) -> {_ty(shapes[-1])}",
        ]
    else:
        dims = draw(st.sampled_from(["0", "0, 1", "1, 0"]))
        lines.append(
            f'  %r = "stablehlo.reverse"({value}) <{{dimensions = array<i64: {dims}>}}> '
            f": ({_ty(shapes[-1])}) -> {_ty(shapes[-1])}"
        )
    value = "%r"
    for j, (axis, trade) in enumerate(reversed(list(zip((minor, major), traded)))):
        how = "mesh.all_to_all" if trade else "mesh.all_slice"
        dims = "split_axis = 0 concat_axis = 1" if trade else "slice_axis = 0"
        lines.append(
            f"  %s{j} = {how} {value} on @mesh mesh_axes = [{axis}] {dims} "
            f": {_ty(shapes[-1 - j])} -> {_ty(shapes[-2 - j])}"
        )
        value = f"%s{j}"
    body = "\n".join(lines)
    results, types = [value], [_ty(shapes[0])]
    if draw(st.booleans()):
        results, types = [value, "%g1"], [_ty(shapes[0]), _ty(shapes[-1])]
    return (
        f"mesh.mesh @mesh(shape = {mesh[0]}x{mesh[1]})\n"
        f"func.func @f(%a0: {_ty(shapes[0])}) -> ({', '.join(types)}) {{\n{body}\n"
        f"  return {', '.join(results)} : {', '.join(types)}\n}}\n"
    )


@settings(max_examples=120, deadline=None)
@given(nested_pairs(), st.integers(0, 2**31 - 1))
def test_rotations_and_reversals_of_a_dimension_gathered_axis_by_axis_keep_every_devices_results(text, seed):
    printed = _same(text, seed)
    # (the gathering collectives read by the local op alone; a reversal of dimension 1 as well takes
    # none that trades it)
    alone = "return %s1 : " in text
    if alone and ("stablehlo.reverse" not in text or "dimensions = array<i64: 0>" in text or "all_to_all" not in text):
        assert "mesh.all_" not in printed and "mesh.send" in printed, printed
    else:
        rewritten = "mesh.send" in printed or "mesh.shift" in printed
        event("gathered tensor returned: " + ("rewritten" if rewritten else "kept"))


ROLL_OVER_TWO_AXES = """
mesh.mesh @mesh(shape = 2x4)
func.func @f(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %p = mesh.all_gather %a on @mesh mesh_axes = [0] gather_axis = 1 : tensor<4x8xf32> -> tensor<4x16xf32>
  %q = mesh.all_to_all %p on @mesh mesh_axes = [1] split_axis = 0 concat_axis = 1 : tensor<4x16xf32> -> tensor<1x64xf32>
  %t = tensor.extract_slice %q[0, 61] [1, 3] [1, 1] : tensor<1x64xf32> to tensor<1x3xf32>
  %h = tensor.extract_slice %q[0, 0] [1, 61] [1, 1] : tensor<1x64xf32> to tensor<1x61xf32>
  %r = tensor.concat dim(1) %t, %h : (tensor<1x3xf32>, tensor<1x61xf32>) -> tensor<1x64xf32>
  %u = mesh.all_to_all %r on @mesh mesh_axes = [1] split_axis = 1 concat_axis = 0 : tensor<1x64xf32> -> tensor<4x16xf32>
  %v = mesh.all_slice %u on @mesh mesh_axes = [0] slice_axis = 1 : tensor<4x16xf32> -> tensor<4x8xf32>
  return %v : tensor<4x8xf32>
}
"""
"""`jnp.roll(x, 3, axis=1)` of columns split over the axis tuple (1, 0),
as `mesh-partition` writes it: the data axis gathered, the model axis
traded with the rows, rotated, and back."""


def test_a_rotation_gathered_axis_by_axis_moves_only_the_cells_that_wrap():
    printed = _same(ROLL_OVER_TWO_AXES, 0)
    assert "mesh.all_" not in printed and "mesh.shift" not in printed, printed
    # each device sends its last 3 columns to the next device in the order (1, 0), and receives 4x3 floats
    assert printed.count("mesh.send %") == 2 and "mesh_axes = [1, 0] destination" in printed, printed
    assert re.search(r"mesh\.recv %\S+ on @mesh mesh_axes = \[1, 0\] source = .*-> tensor<4x3xf32>", printed)


def test_all_gathers_of_a_reversal_within_two_pairs_of_all_to_alls_go_with_them():
    # the all_gather pair alone was taken first (its own rewrite), leaving four all_to_alls
    printed = _same(C2_FLIP, 0)
    assert "mesh.all_" not in printed and "mesh_axes = [0, 1, 2] destination" in printed, printed


C2_FLIP = """
mesh.mesh @mesh(shape = 3x2x2)
func.func @f(%a0: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %g0 = mesh.all_to_all %a0 on @mesh mesh_axes = [2] split_axis = 1 concat_axis = 0 : tensor<1x4xf32> -> tensor<2x2xf32>
  %g1 = mesh.all_to_all %g0 on @mesh mesh_axes = [1] split_axis = 1 concat_axis = 0 : tensor<2x2xf32> -> tensor<4x1xf32>
  %g2 = mesh.all_gather %g1 on @mesh mesh_axes = [0] gather_axis = 0 : tensor<4x1xf32> -> tensor<12x1xf32>
  %r = "stablehlo.reverse"(%g2) <{dimensions = array<i64: 0>}> : (tensor<12x1xf32>) -> tensor<12x1xf32>
  %s0 = mesh.all_slice %r on @mesh mesh_axes = [0] slice_axis = 0 : tensor<12x1xf32> -> tensor<4x1xf32>
  %s1 = mesh.all_to_all %s0 on @mesh mesh_axes = [1] split_axis = 0 concat_axis = 1 : tensor<4x1xf32> -> tensor<2x2xf32>
  %s2 = mesh.all_to_all %s1 on @mesh mesh_axes = [2] split_axis = 0 concat_axis = 1 : tensor<2x2xf32> -> tensor<1x4xf32>
  return %s2 : tensor<1x4xf32>
}
"""


def test_pairs_around_a_rotation_on_another_mesh_are_not_joined():
    # the pieces' order is over one mesh's group: pairs of two meshes are no single rotation
    text = """
mesh.mesh @a(shape = 2x4)
mesh.mesh @b(shape = 4x2)
func.func @f(%x: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %p = mesh.all_gather %x on @b mesh_axes = [1] gather_axis = 1 : tensor<4x2xf32> -> tensor<4x4xf32>
  %q = mesh.all_gather %p on @a mesh_axes = [0] gather_axis = 1 : tensor<4x4xf32> -> tensor<4x8xf32>
  %t = tensor.extract_slice %q[0, 5] [4, 3] [1, 1] : tensor<4x8xf32> to tensor<4x3xf32>
  %h = tensor.extract_slice %q[0, 0] [4, 5] [1, 1] : tensor<4x8xf32> to tensor<4x5xf32>
  %r = tensor.concat dim(1) %t, %h : (tensor<4x3xf32>, tensor<4x5xf32>) -> tensor<4x8xf32>
  %u = mesh.all_slice %r on @a mesh_axes = [0] slice_axis = 1 : tensor<4x8xf32> -> tensor<4x4xf32>
  %v = mesh.all_slice %u on @b mesh_axes = [1] slice_axis = 1 : tensor<4x4xf32> -> tensor<4x2xf32>
  return %v : tensor<4x2xf32>
}
"""
    module, _ = _optimize(text)
    printed = mesh_dialect.print_ir(module)
    # the inner pair alone becomes a shift on @a; the pair on @b stays
    assert (
        "mesh.send" not in printed and "mesh.shift %" in printed and "on @a mesh_axes = [0] shift_axis = 0" in printed
    )
    assert printed.count("mesh.all_gather") == 1 and printed.count("mesh.all_slice") == 1, printed


def _same_and_moved_point_to_point(text: str, seed: int) -> None:
    """Every device's results stay (`_same`), and where the rewrite fired
    (shifts, sends and receives) no collective is left."""
    printed = _same(text, seed)
    rewritten = "mesh.send" in printed or "mesh.shift" in printed
    event("rewritten" if rewritten else "kept")
    if rewritten:
        assert "mesh.all_" not in printed, printed


def test_a_padding_value_handed_to_a_later_block_is_not_an_arguments_layout():
    # the entry's argument 0 is laid out whole, but the successor's argument 0
    # is what each device hands it (here its own linear index): the cells
    # other devices padded differ, and the pad stays
    text = (
        """
mesh.mesh @mesh(shape = 4)
func.func @f(%a0: tensor<i32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>}, %a1: tensor<3x4xi32>) -> tensor<4x4xi32> {
  %i = mesh.process_linear_index on @mesh : index
  %c = arith.index_cast %i : index to i32
  cf.br ^next(%c : i32)
^next(%s: i32):
"""
        + _PADDED_BETWEEN.format(x="%a1")
        + """  return %r : tensor<4x4xi32>
}
"""
    )
    printed = _same(text, 0)
    assert "tensor.pad" in printed and "mesh.shift" not in printed, printed


def test_a_padding_value_of_a_called_function_is_not_its_arguments_layout():
    # @g's argument 1 is laid out whole, but @f hands it each device's own
    # linear index: the layout binds callers from outside the module only,
    # so the pad stays in @g
    callee = (
        """
func.func private @g(%x: tensor<3x4xi32>, %v: tensor<i32> {mesh.sharding = #mesh.sharding<@mesh, []>})
    -> tensor<4x4xi32> {
  %s = tensor.extract %v[] : tensor<i32>
"""
        + _PADDED_BETWEEN.format(x="%x")
        + """  return %r : tensor<4x4xi32>
}
"""
    )
    text = f"""
mesh.mesh @mesh(shape = 4)
{callee}
func.func @f(%a: tensor<3x4xi32>) -> tensor<4x4xi32> {{
  %i = mesh.process_linear_index on @mesh : index
  %c = arith.index_cast %i : index to i32
  %v = tensor.from_elements %c : tensor<i32>
  %r = func.call @g(%a, %v) : (tensor<3x4xi32>, tensor<i32>) -> tensor<4x4xi32>
  return %r : tensor<4x4xi32>
}}
"""
    printed = _same(text, 0)
    assert "tensor.pad" in printed and "mesh.shift" not in printed, printed
    # the same function with no caller in the module is rewritten
    alone, _ = _optimize(f"mesh.mesh @mesh(shape = 4)\n{callee.replace('private @g', '@g')}")
    assert "mesh.shift" in mesh_dialect.print_ir(alone)


# -- stencil-by-halo ---------------------------------------------------------------


def _split_axis(draw) -> tuple[list[int], int, int]:
    """A mesh of rank 1 or 2 with an axis of 2 to 4 devices at either
    place: (the mesh, that axis, its size)."""
    n = draw(st.integers(2, 4))
    mesh = [n, draw(st.integers(1, 2))][: draw(st.integers(1, 2))]
    if draw(st.booleans()):
        mesh.reverse()
    return mesh, mesh.index(n), n


def _function(mesh: list[int], params: str, result: str, lines: list[str], returned: str) -> str:
    """A module of mesh @mesh and function @f of `lines`, returning `returned`."""
    body = "\n".join("  " + line for line in lines)
    mesh_text = "x".join(map(str, mesh))
    return (
        f"mesh.mesh @mesh(shape = {mesh_text})\n"
        f"func.func @f({params}) -> {result} {{\n{body}\n  return {returned} : {result}\n}}\n"
    )


@st.composite
def stencils(draw):
    """A per-device program: a collective gathering a split dimension of
    `n * piece` rows, one to three slices of it of one length at their own
    offsets, combined row by row (added, subtracted, multiplied, scaled by
    a splat), padded back to `n * piece` rows with a constant, and the
    collective splitting it again; or the gathered rows padded first and
    sliced back to `n * piece` rows at several offsets (a causal filter)."""
    mesh, axis, n = _split_axis(draw)
    piece = draw(st.integers(1, 4))
    rows = n * piece
    cut = draw(st.integers(0, min(rows - 1, 5)))
    length = rows - cut
    traded = draw(st.booleans())
    other = n * draw(st.integers(1, 2))
    shape = (lambda r: (r, other // n)) if traded else (lambda r: (r,))
    arg = (piece, other) if traded else (piece,)
    first, second = _gather_and_split(axis, traded, "%p")
    rank = len(arg)

    def at(start: int) -> str:
        return ", ".join([str(start)] + ["0"] * (rank - 1))

    lines = [f"%g = {first} : {_ty(arg)} -> {_ty(shape(rows))}"]
    block = "^bb0(" + ", ".join(f"%i{d}: index" for d in range(rank)) + ")"
    lines.append(f"%fill = arith.constant {draw(st.integers(-3, 3))} : i32")
    source, extent = "%g", rows
    if draw(st.booleans()):
        # padded first, then sliced back at several offsets (a causal filter):
        # the pad is read at several distances
        before = draw(st.integers(0, cut))
        lines.append(
            f"%w = tensor.pad %g low[{at(before)}] high[{at(cut - before)}] {{\n  {block}:\n"
            f"    tensor.yield %fill : i32\n  }} : {_ty(shape(rows))} to {_ty(shape(rows + cut))}"
        )
        source, extent, length, cut = "%w", rows + cut, rows, cut
    sliced = _ty(shape(length))
    sizes = ", ".join(str(s) for s in shape(length))
    ones = ", ".join(["1"] * rank)
    terms = []
    for k in range(draw(st.integers(1, 3))):
        lines.append(
            f"%s{k} = tensor.extract_slice {source}[{at(draw(st.integers(0, extent - length)))}] [{sizes}] [{ones}]"
            f" : {_ty(shape(extent))} to {sliced}"
        )
        terms.append(f"%s{k}")
    value = terms[0]
    for k, term in enumerate(terms[1:]):
        op = draw(st.sampled_from(["arith.addi", "arith.subi", "arith.muli"]))
        lines.append(f"%c{k} = {op} {value}, {term} : {sliced}")
        value = f"%c{k}"
    if draw(st.booleans()):
        lines.append(f"%k = arith.constant dense<{draw(st.integers(-3, 3))}> : {sliced}")
        lines.append(f"%scaled = arith.muli {value}, %k : {sliced}")
        value = "%scaled"
    params = f"%a0: {_ty(arg)}"
    if draw(st.booleans()):
        # scaled by an hlo broadcast of a per-device tensor (as JAX writes
        # `x * w`): the same along the rows but for "rows", its piece of the
        # traded dimension ("piece", "row of pieces"), or one number per
        # device ("one", "scalar", which differ between devices)
        forms = ["rows", "one", "scalar"] + (["piece", "row of pieces", "sliced"] if traded else [])
        form = draw(st.sampled_from(forms))
        width = other // n
        operand, dims = {
            "rows": ((length,), [0]),
            "one": ((1,) * rank, list(range(rank))),
            "scalar": ((), []),
            "piece": ((width,), [1]),
            "row of pieces": ((1, width), [0, 1]),
            "sliced": ((width,), [1]),  # a whole weight's piece, as partition slices it
        }[form]
        typed = _ty(operand) if operand else "tensor<i32>"
        weight = "%a1"
        if form == "sliced":
            # laid out whole (the same on every device, as partition's weights are): made again whole
            whole = " {mesh.sharding = #mesh.sharding<@mesh, [[]]>}" if draw(st.booleans()) else ""
            params += f", %a1: {_ty((other,))}{whole}"
            lines.append(
                f"%ws = mesh.all_slice %a1 on @mesh mesh_axes = [{axis}] slice_axis = 0 : {_ty((other,))} -> {typed}"
            )
            weight = "%ws"
        else:
            params += f", %a1: {typed}"
        lines.append(
            f'%wb = "stablehlo.broadcast_in_dim"({weight}) <{{broadcast_dimensions = array<i64{": " if dims else ""}'
            f"{', '.join(map(str, dims))}>}}> : ({typed}) -> {sliced}"
        )
        lines.append(f"%weighed = arith.muli {value}, %wb : {sliced}")
        value = "%weighed"
    if length == rows:
        lines.append(f"%p = arith.addi {value}, {value} : {sliced}")
    else:
        low = draw(st.integers(0, rows - length))
        lines.append(
            f"%p = tensor.pad {value} low[{at(low)}] high[{at(rows - length - low)}] {{\n  {block}:\n"
            f"    tensor.yield %fill : i32\n  }} : {sliced} to {_ty(shape(rows))}"
        )
    lines.append(f"%r = {second} : {_ty(shape(rows))} -> {_ty(arg)}")
    return _function(mesh, params, _ty(arg), lines, "%r")


_WHOLE_WEIGHT_STENCIL = (
    "mesh.mesh @mesh(shape = 2)\n"
    "func.func @f(%a0: tensor<2x2xi32>, %a1: tensor<2xi32>) -> tensor<2x2xi32> {\n"
    "  %g = mesh.all_to_all %a0 on @mesh mesh_axes = [0] split_axis = 1 concat_axis = 0"
    " : tensor<2x2xi32> -> tensor<4x1xi32>\n"
    "  %fill = arith.constant 0 : i32\n"
    "  %s0 = tensor.extract_slice %g[0, 0] [3, 1] [1, 1] : tensor<4x1xi32> to tensor<3x1xi32>\n"
    "  %ws = mesh.all_slice %a1 on @mesh mesh_axes = [0] slice_axis = 0 : tensor<2xi32> -> tensor<1xi32>\n"
    '  %wb = "stablehlo.broadcast_in_dim"(%ws) <{broadcast_dimensions = array<i64: 1>}>'
    " : (tensor<1xi32>) -> tensor<3x1xi32>\n"
    "  %weighed = arith.muli %s0, %wb : tensor<3x1xi32>\n"
    "  %p = tensor.pad %weighed low[1, 0] high[0, 0] {\n"
    "  ^bb0(%i0: index, %i1: index):\n"
    "    tensor.yield %fill : i32\n"
    "  } : tensor<3x1xi32> to tensor<4x1xi32>\n"
    "  %r = mesh.all_to_all %p on @mesh mesh_axes = [0] split_axis = 0 concat_axis = 1"
    " : tensor<4x1xi32> -> tensor<2x2xi32>\n"
    "  return %r : tensor<2x2xi32>\n"
    "}\n"
)
"""A stencil whose broadcast weight arrives whole and keeps its own all_slice."""


@settings(max_examples=120, deadline=None)
@given(stencils(), st.integers(0, 2**31 - 1))
@example(_WHOLE_WEIGHT_STENCIL, 0)
def test_stencils_between_collectives_keep_every_devices_results(text, seed):
    printed = _same(text, seed)
    # (a weight given whole is sliced by its own all_slice, which stays: the
    # pair the rewrite trades is an all_to_all or an all_slice of anything else)
    traded = re.search(r"mesh\.all_slice (?!%arg1 )", printed)
    if "mesh.all_to_all" not in printed and traded is None:  # rewritten (only where fewer bytes move)
        assert "tensor.pad" not in printed and printed.count("mesh.update_halo") <= 1, printed
        # only the broadcast weight, holding its piece of the traded dimension, is gathered (whole)
        assert printed.count("mesh.all_gather") <= 1, printed
    else:
        assert "mesh.update_halo" not in printed and "mesh.all_gather %arg1 " not in printed, printed


@st.composite
def halo_updates(draw):
    """A per-device program: two or three `mesh.update_halo`s of one
    argument (one or two dimensions split over their own mesh axes) with
    their own destination halos, every result returned."""
    mesh = [draw(st.integers(2, 3)) for _ in range(draw(st.integers(1, 2)))]
    rank = draw(st.integers(1, 2))
    core = [draw(st.integers(1, 4)) for _ in range(rank)]
    axes = list(range(len(mesh)))
    split = [[axes.pop(0)] if axes and draw(st.booleans()) else [] for _ in range(rank)]
    if not any(split):
        split[0] = [0]
    sharded = [d for d in range(rank) if split[d]]
    lines, results = [], []
    for k in range(draw(st.integers(2, 3))):
        halos = [draw(st.integers(0, core[d])) for d in sharded for _ in range(2)]
        shape = list(core)
        for i, d in enumerate(sharded):
            shape[d] += halos[2 * i] + halos[2 * i + 1]
        lines.append(f"%e{k} = tensor.empty() : {_ty(tuple(shape))}")
        lines.append(
            f"%h{k} = mesh.update_halo %a0 into %e{k} on @mesh split_axes = {_axes_array(split)} "
            f"destination_halo_sizes = {_axes(halos)} : {_ty(tuple(core))} -> {_ty(tuple(shape))}"
        )
        results.append((f"%h{k}", _ty(tuple(shape))))
    returned = ", ".join(name for name, _ in results)
    types = ", ".join(t for _, t in results)
    return _function(mesh, f"%a0: {_ty(tuple(core))}", f"({types})", lines, returned).replace(
        f"return {returned} : ({types})", f"return {returned} : {types}"
    )


def _axes_array(split: list[list[int]]) -> str:
    return "[" + ", ".join(_axes(a) for a in split) + "]"


@settings(max_examples=60, deadline=None)
@given(halo_updates(), st.integers(0, 2**31 - 1))
def test_halo_updates_of_one_tensor_keep_every_devices_results(text, seed):
    """merge-halos: one update with the widest halos and a slice per window
    gives each device the cells it had (the edges' undefined ones alike),
    and never receives more."""
    printed = _same(text, seed)
    assert 1 <= printed.count("mesh.update_halo") <= text.count("mesh.update_halo"), printed
    assert printed == _same(text, seed, merge_halos=True)
    assert text.count("mesh.update_halo") == _same(text, seed, merge_halos=False).count("mesh.update_halo")


_HALOS = """
mesh.mesh @mesh(shape = 2x4)
func.func @f(%a0: tensor<2x8xf32>) -> (tensor<2x9xf32>, tensor<2x9xf32>, tensor<2x10xf32>) {
  %e0 = tensor.empty() : tensor<2x9xf32>
  %h0 = mesh.update_halo %a0 into %e0 on @mesh split_axes = [[0], [1]] destination_halo_sizes = [0, 0, 0, 1]
      : tensor<2x8xf32> -> tensor<2x9xf32>
  %e1 = tensor.empty() : tensor<2x9xf32>
  %h1 = mesh.update_halo %a0 into %e1 on @mesh split_axes = [[0], [1]] destination_halo_sizes = [0, 0, 1, 0]
      : tensor<2x8xf32> -> tensor<2x9xf32>
  %e2 = tensor.empty() : tensor<2x10xf32>
  %h2 = mesh.update_halo %a0 into %e2 on @mesh split_axes = [[0], [1]] destination_halo_sizes = [0, 0, 2, 0]
      : tensor<2x8xf32> -> tensor<2x10xf32>
  return %h0, %h1, %h2 : tensor<2x9xf32>, tensor<2x9xf32>, tensor<2x10xf32>
}
"""
"""Three halo updates of one piece, as partition reads `x[:, 2:]`,
`x[:, 1:-1]` and `x[:, :-2]` of columns split over "model"."""


def test_halo_updates_of_one_piece_become_one_with_the_widest_halos():
    """A column of the next device and two of the previous one: one update
    receives 3 columns (24 bytes) where the three received 4 (32)."""
    printed = _same(_HALOS.replace("f32", "i32"), 6)
    assert printed.count("mesh.update_halo") == 1
    assert "destination_halo_sizes = [0, 0, 2, 1] : tensor<2x8xi32> -> tensor<2x11xi32>" in printed
    # the next device's column is the last: the window of %h0 starts 2 in, of %h1 1 in, of %h2 at 0
    windows = re.findall(r"tensor\.extract_slice %\w+\[(0, \d)\] \[(2, \d+)\]", printed)
    assert windows == [("0, 2", "2, 9"), ("0, 1", "2, 9"), ("0, 0", "2, 10")], printed


def test_halos_along_two_dimensions_stay_apart():
    """One update of both halos would also receive their corner: a row halo
    and a column halo of a 2x2 piece receive 4 cells apart, 5 together."""
    text = """
mesh.mesh @mesh(shape = 2x2)
func.func @f(%a0: tensor<2x2xi32>) -> (tensor<3x2xi32>, tensor<2x3xi32>) {
  %e0 = tensor.empty() : tensor<3x2xi32>
  %h0 = mesh.update_halo %a0 into %e0 on @mesh split_axes = [[0], [1]] destination_halo_sizes = [1, 0, 0, 0]
      : tensor<2x2xi32> -> tensor<3x2xi32>
  %e1 = tensor.empty() : tensor<2x3xi32>
  %h1 = mesh.update_halo %a0 into %e1 on @mesh split_axes = [[0], [1]] destination_halo_sizes = [0, 0, 1, 0]
      : tensor<2x2xi32> -> tensor<2x3xi32>
  return %h0, %h1 : tensor<3x2xi32>, tensor<2x3xi32>
}
"""
    assert _same(text, 7).count("mesh.update_halo") == 2


_DIFFERENCE = """
mesh.mesh @mesh(shape = 4)
func.func @f(%a0: tensor<12x8xi32>) -> (RESULTS) {
  %g = mesh.all_to_all %a0 on @mesh mesh_axes = [0] split_axis = 1 concat_axis = 0
      : tensor<12x8xi32> -> tensor<48x2xi32>
  %a = tensor.extract_slice %g[1, 0] [47, 2] [1, 1] : tensor<48x2xi32> to tensor<47x2xi32>
  %b = tensor.extract_slice %g[0, 0] [47, 2] [1, 1] : tensor<48x2xi32> to tensor<47x2xi32>
  %d = arith.subi %a, %b : tensor<47x2xi32>
  %c = arith.constant 7 : i32
  %p = tensor.pad %d low[0, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c : i32
  } : tensor<47x2xi32> to tensor<48x2xi32>
  %r = mesh.all_to_all %p on @mesh mesh_axes = [0] split_axis = 0 concat_axis = 1 : tensor<48x2xi32> -> tensor<12x8xi32>
  return RETURNED : RESULTS
}
"""
"""x[1:] - x[:-1] padded back by one row of 7s, between two all_to_alls;
RESULTS and RETURNED are the function's results."""


def test_a_finite_difference_between_two_all_to_alls_becomes_one_update_halo():
    """x[1:] - x[:-1], padded back to 48 rows: each device reads one row of
    its next neighbour's piece, and the last device's last row is padding."""
    text = _DIFFERENCE.replace("RESULTS", "tensor<12x8xi32>").replace("RETURNED", "%r")
    printed = _same(text, 0)
    assert "destination_halo_sizes = [0, 1] : tensor<12x8xi32> -> tensor<13x8xi32>" in printed
    assert "dense<[12, 12, 12, 11]> : tensor<4xindex>" in printed  # the rows each device keeps
    assert "mesh.all_to_all" not in printed and "tensor.pad" not in printed
    assert "mesh.update_halo" not in _same(text, 0, stencil_by_halo=False)


_WEIGHED = (
    _DIFFERENCE.replace("(%a0: tensor<12x8xi32>)", "(%a0: tensor<12x8xi32>, %a1: WEIGHT)")
    .replace(
        "%d = arith.subi %a, %b",
        '%w = "stablehlo.broadcast_in_dim"(%a1) <{broadcast_dimensions = array<i64: DIMS>}> : (WEIGHT)'
        " -> tensor<47x2xi32>\n  %wa = arith.muli %a, %w : tensor<47x2xi32>\n  %d = arith.subi %wa, %b",
    )
    .replace("RESULTS", "tensor<12x8xi32>")
    .replace("RETURNED", "%r")
)
"""w * x[1:] - x[:-1] between two all_to_alls that trade the rows for the
columns, `w` a broadcast of %a1 (of type WEIGHT, along DIMS)."""


def test_a_broadcast_of_each_devices_columns_is_gathered_whole_for_the_halo():
    """Between the all_to_alls each device scales its two columns by its
    own two weights (as JAX writes `x * w[i]`): computing its rows of all
    eight columns instead, a device needs every device's weights, in
    device order (24 bytes) and one row of its neighbour's piece (32
    bytes), where the all_to_alls received 576."""
    printed = _same(_WEIGHED.replace("WEIGHT", "tensor<2xi32>").replace("DIMS", "1"), 3)
    assert "mesh.all_gather %arg1 on @mesh mesh_axes = [0] gather_axis = 0 : tensor<2xi32> -> tensor<8xi32>" in printed
    assert "destination_halo_sizes = [0, 1] : tensor<12x8xi32> -> tensor<13x8xi32>" in printed
    assert "mesh.all_to_all" not in printed


def test_a_broadcast_of_a_whole_weights_piece_is_made_from_the_whole_weight():
    """The piece partition slices from a whole weight (`all_slice`, then an
    hlo slice of one row and a reshape) is made again from the weight at
    its whole width: only the halo row moves (32 bytes).  A weight that may
    differ between devices (no layout says it is whole) is gathered."""
    text = (
        _WEIGHED.replace("%a1: WEIGHT", "%a1: tensor<3x8xi32> {mesh.sharding = #mesh.sharding<@mesh, [[]]>}")
        .replace(
            '%w = "stablehlo.broadcast_in_dim"(%a1)',
            "%ws = mesh.all_slice %a1 on @mesh mesh_axes = [0] slice_axis = 1 : tensor<3x8xi32> -> tensor<3x2xi32>\n"
            '  %wr = "stablehlo.slice"(%ws) <{start_indices = array<i64: 1, 0>, limit_indices = array<i64: 2, 2>,'
            " strides = array<i64: 1, 1>}> : (tensor<3x2xi32>) -> tensor<1x2xi32>\n"
            '  %wv = "stablehlo.reshape"(%wr) : (tensor<1x2xi32>) -> tensor<2xi32>\n'
            '  %w = "stablehlo.broadcast_in_dim"(%wv)',
        )
        .replace("WEIGHT", "tensor<2xi32>")
        .replace("DIMS", "1")
    )
    printed = _same(text, 8)
    assert "mesh.all_gather" not in printed and "mesh.all_slice" not in printed and "mesh.all_to_all" not in printed
    assert "limit_indices = array<i64: 2, 8>" in printed and "(tensor<1x8xi32>) -> tensor<8xi32>" in printed
    per_device = _same(text.replace(" {mesh.sharding = #mesh.sharding<@mesh, [[]]>}", ""), 9)
    assert "mesh.all_gather %" in per_device and "mesh.all_to_all" not in per_device


def test_a_broadcast_of_one_number_per_device_keeps_the_collectives():
    """A weight of one number per device, the same down each device's
    columns: computing all columns, a device would scale every column by
    its own number where the others scaled theirs by their own, so the
    collectives stay."""
    printed = _same(_WEIGHED.replace("WEIGHT", "tensor<1x1xi32>").replace("DIMS", "0, 1"), 4)
    assert printed.count("mesh.all_to_all") == 2 and "mesh.update_halo" not in printed


def test_a_broadcast_varying_along_the_rows_keeps_the_collectives():
    """A weight per row (a position's) is no value the same on every row: its
    rows would have to move with the halo's, and the collectives stay."""
    printed = _same(_WEIGHED.replace("WEIGHT", "tensor<47xi32>").replace("DIMS", "0"), 5)
    assert printed.count("mesh.all_to_all") == 2 and "mesh.update_halo" not in printed


def test_a_value_read_after_the_collectives_keeps_them():
    """The difference is also returned as gathered: the ops stay, and so do
    the collectives around them."""
    text = _DIFFERENCE.replace("RESULTS", "tensor<12x8xi32>, tensor<47x2xi32>").replace("RETURNED", "%r, %d")
    printed = _same(text, 0)
    assert "mesh.update_halo" not in printed and printed.count("mesh.all_to_all") == 2


def test_an_integer_division_in_between_keeps_the_collectives():
    """Rows beyond the tensor's edge hold anything on the edge devices: a
    division of integers there could trap, so the ops are not moved onto
    them."""
    text = """
mesh.mesh @mesh(shape = 4)
func.func @f(%a0: tensor<12xi32>) -> tensor<12xi32> {
  %g = mesh.all_gather %a0 on @mesh mesh_axes = [0] gather_axis = 0 : tensor<12xi32> -> tensor<48xi32>
  %a = tensor.extract_slice %g[1] [47] [1] : tensor<48xi32> to tensor<47xi32>
  %b = tensor.extract_slice %g[0] [47] [1] : tensor<48xi32> to tensor<47xi32>
  %one = arith.constant dense<1> : tensor<47xi32>
  %nz = arith.ori %b, %one : tensor<47xi32>
  %d = arith.divsi %a, %nz : tensor<47xi32>
  %c = arith.constant 0 : i32
  %p = tensor.pad %d low[1] high[0] {
  ^bb0(%i: index):
    tensor.yield %c : i32
  } : tensor<47xi32> to tensor<48xi32>
  %r = mesh.all_slice %p on @mesh mesh_axes = [0] slice_axis = 0 : tensor<48xi32> -> tensor<12xi32>
  return %r : tensor<12xi32>
}
"""
    assert "mesh.update_halo" not in _same(text, 0)
    # the same with a subtraction moves one row, of the previous device
    assert "destination_halo_sizes = [1, 0]" in _same(text.replace("arith.divsi", "arith.subi"), 0)


@st.composite
def reduced_stencils(draw):
    """A per-device program as JAX's partitioned `jnp.sum(a[:, :-1] * b[:,
    1:])` or `jnp.max(jnp.abs(x[1:] - x[:-1]))` reads: all_to_alls
    gathering the split rows of one or two arguments, hlo slices of one
    length at their own offsets combined row by row, an hlo reduce of every
    dimension whose init is its combiner's identity, and an all_reduce of
    the partial results over the gathered axis."""
    mesh, axis, n = _split_axis(draw)
    piece, other = draw(st.integers(1, 4)), n * draw(st.integers(1, 2))
    rows = n * piece
    cut = draw(st.integers(0, min(rows - 1, 4)))
    length = rows - cut
    arg, gathered, sliced = _ty((piece, other)), _ty((rows, other // n)), _ty((length, other // n))
    args = draw(st.integers(1, 2))
    lines = []
    for a in range(args):
        lines.append(
            f"%g{a} = mesh.all_to_all %a{a} on @mesh mesh_axes = [{axis}] split_axis = 1 concat_axis = 0"
            f" : {arg} -> {gathered}"
        )
    terms = []
    for k in range(draw(st.integers(1, 3))):
        start = draw(st.integers(0, cut))
        lines.append(
            f'%s{k} = "stablehlo.slice"(%g{draw(st.integers(0, args - 1))}) <{{start_indices = array<i64: {start}, 0>,'
            f" limit_indices = array<i64: {start + length}, {other // n}>, strides = array<i64: 1, 1>}}>"
            f" : ({gathered}) -> {sliced}"
        )
        terms.append(f"%s{k}")
    value = terms[0]
    for k, term in enumerate(terms[1:]):
        op = draw(st.sampled_from(["add", "subtract", "multiply", "maximum"]))
        lines.append(f'%c{k} = "stablehlo.{op}"({value}, {term}) : ({sliced}, {sliced}) -> {sliced}')
        value = f"%c{k}"
    if draw(st.booleans()):
        lines.append(f'%abs = "stablehlo.abs"({value}) : ({sliced}) -> {sliced}')
        value = "%abs"
    kind, combiner, init = draw(st.sampled_from([("sum", "add", 0), ("max", "maximum", -2147483648)]))
    lines += [
        f'%init = "stablehlo.constant"() <{{value = dense<{init}> : tensor<i32>}}> : () -> tensor<i32>',
        f'%r = "stablehlo.reduce"({value}, %init) <{{dimensions = array<i64: 0, 1>}}> ({{',
        "^bb0(%p: tensor<i32>, %q: tensor<i32>):",
        f'  %m = "stablehlo.{combiner}"(%p, %q) : (tensor<i32>, tensor<i32>) -> tensor<i32>',
        '  "stablehlo.return"(%m) : (tensor<i32>) -> ()',
        f"}}) : ({sliced}, tensor<i32>) -> tensor<i32>",
        f"%t = mesh.all_reduce %r on @mesh mesh_axes = [{axis}] reduction = {kind} : tensor<i32> -> tensor<i32>",
    ]
    return _function(mesh, ", ".join(f"%a{a}: {arg}" for a in range(args)), "tensor<i32>", lines, "%t")


@settings(max_examples=60, deadline=None)
@given(reduced_stencils(), st.integers(0, 2**31 - 1))
def test_stencils_reduced_after_collectives_keep_every_devices_results(text, seed):
    printed = _same(text, seed)
    if "mesh.all_to_all" not in printed:  # rewritten (only where fewer bytes move)
        assert printed.count("mesh.all_reduce") == 1 and "stablehlo.slice" not in printed, printed


def test_a_pad_that_leaves_every_device_only_padding():
    """The one row kept lands past the end of the rows split again (an hlo
    pad whose negative high crops it): every device's rows are all padding,
    and no slice reads at the end of a piece (found by a review helper: an
    extract_slice at offset 4 of a 4-row piece, which does not verify)."""
    text = """
mesh.mesh @mesh(shape = 2)
func.func @f(%a0: tensor<4xi32>) -> tensor<4xi32> {
  %g = mesh.all_gather %a0 on @mesh mesh_axes = [0] gather_axis = 0 : tensor<4xi32> -> tensor<8xi32>
  %last = "stablehlo.slice"(%g) <{limit_indices = array<i64: 8>, start_indices = array<i64: 7>,
      strides = array<i64: 1>}>
      : (tensor<8xi32>) -> tensor<1xi32>
  %c = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
  %p = "stablehlo.pad"(%last, %c) <{edge_padding_high = array<i64: -1>, edge_padding_low = array<i64: 8>,
      interior_padding = array<i64: 0>}> : (tensor<1xi32>, tensor<i32>) -> tensor<8xi32>
  %r = mesh.all_slice %p on @mesh mesh_axes = [0] slice_axis = 0 : tensor<8xi32> -> tensor<4xi32>
  return %r : tensor<4xi32>
}
"""
    printed = _same(text, 0)
    assert "mesh.all_gather" not in printed and "tensor.splat" in printed
    assert "tensor.extract_slice" not in printed and "tensor.insert_slice" not in printed


def test_a_tosa_shift_in_between_keeps_the_collectives():
    """Each device runs the ops on all its rows, among them rows beyond the
    tensor's edge and rows a slice left out: a tosa shift by an amount
    outside the width fails there (found by a review helper)."""
    text = """
mesh.mesh @mesh(shape = 2)
func.func @f(%a0: tensor<4xi32>) -> tensor<4xi32> {
  %g = mesh.all_gather %a0 on @mesh mesh_axes = [0] gather_axis = 0 : tensor<4xi32> -> tensor<8xi32>
  %s = tensor.extract_slice %g[1] [7] [1] : tensor<8xi32> to tensor<7xi32>
  %b = tosa.abs %s : (tensor<7xi32>) -> tensor<7xi32>
  %x = tensor.extract_slice %g[0] [7] [1] : tensor<8xi32> to tensor<7xi32>
  %sh = tosa.logical_left_shift %x, %b : (tensor<7xi32>, tensor<7xi32>) -> tensor<7xi32>
  %zero = arith.constant 0 : i32
  %p = tensor.pad %sh low[0] high[1] {
  ^bb0(%i: index):
    tensor.yield %zero : i32
  } : tensor<7xi32> to tensor<8xi32>
  %r = mesh.all_slice %p on @mesh mesh_axes = [0] slice_axis = 0 : tensor<8xi32> -> tensor<4xi32>
  return %r : tensor<4xi32>
}
"""
    assert "mesh.update_halo" not in _same(text, 0)
    # the same with arith ops moves one element
    arith = text.replace("tosa.abs %s : (tensor<7xi32>) -> tensor<7xi32>", "arith.addi %s, %s : tensor<7xi32>")
    arith = arith.replace(
        "tosa.logical_left_shift %x, %b : (tensor<7xi32>, tensor<7xi32>) -> tensor<7xi32>",
        "arith.subi %x, %b : tensor<7xi32>",
    )
    assert "destination_halo_sizes = [0, 1]" in _same(arith, 0)


_SUMMED_DIFFERENCE = """
mesh.mesh @mesh(shape = 4)
func.func @f(%a0: ARG) -> (RESULTS) {
  %g = mesh.all_to_all %a0 on @mesh mesh_axes = [0] split_axis = SPLIT concat_axis = 0 : ARG -> tensor<48x2xi32>
  %a = "stablehlo.slice"(%g) <{start_indices = array<i64: 1, 0>, limit_indices = array<i64: 48, 2>,
      strides = array<i64: 1, 1>}> : (tensor<48x2xi32>) -> tensor<47x2xi32>
  %b = "stablehlo.slice"(%g) <{start_indices = array<i64: 0, 0>, limit_indices = array<i64: 47, 2>,
      strides = array<i64: 1, 1>}> : (tensor<48x2xi32>) -> tensor<47x2xi32>
  %d = "stablehlo.subtract"(%a, %b) : (tensor<47x2xi32>, tensor<47x2xi32>) -> tensor<47x2xi32>
  %init = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %r = "stablehlo.reduce"(%d, %init) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%p: tensor<i32>, %q: tensor<i32>):
    %m = "stablehlo.add"(%p, %q) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%m) : (tensor<i32>) -> ()
  }) : (tensor<47x2xi32>, tensor<i32>) -> tensor<i32>
  %t = mesh.all_reduce %r on @mesh mesh_axes = [0] reduction = sum : tensor<i32> -> tensor<i32>
  return RETURNED : RESULTS
}
"""
"""The sum of x[1:] - x[:-1] after an all_to_all of an ARG split along SPLIT
(the dimension it concatenates is 0); RESULTS and RETURNED are the
function's results."""


def _summed_difference(arg: str, split: int, also_the_difference: bool) -> str:
    results, returned = ("tensor<i32>, tensor<47x2xi32>", "%t, %d") if also_the_difference else ("tensor<i32>", "%t")
    text = _SUMMED_DIFFERENCE.replace("ARG", arg).replace("SPLIT", str(split))
    return text.replace("RESULTS", results).replace("RETURNED", returned)


def test_a_summed_difference_read_elsewhere_keeps_the_collectives():
    """The reduce's input is also returned: it stays, and so does the
    all_to_all (found by a review helper: the op making it was erased while
    read, which aborted)."""
    printed = _same(_summed_difference("tensor<12x8xi32>", 1, True), 0)
    assert "mesh.update_halo" not in printed and "mesh.all_to_all" in printed
    # returning only the sum, each device reads one row of the next piece
    assert "destination_halo_sizes = [0, 1]" in _same(_summed_difference("tensor<12x8xi32>", 1, False), 0)


def test_an_all_to_all_that_splits_and_concatenates_one_dimension_keeps_it():
    """An all_to_all splitting and concatenating the same dimension deals
    out chunks of each device's rows: no device's rows lie side by side, so
    the rows a device computes are not its neighbours' (found by a review
    helper: a wrong sum on every device)."""
    assert "mesh.update_halo" not in _same(_summed_difference("tensor<48x2xi32>", 0, False), 0)
