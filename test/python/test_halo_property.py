"""Halos as properties: the halo of a window is exactly what the pieces
lack (`rules.Window`), and random windowed ops (stencils with strides,
dilations and offsets, linalg convolutions, tosa convolutions and max
pooling with padding, hlo poolings cut unevenly) split over random meshes
of rank 1-3 are propagated, partitioned and run on every device, giving the
original's results exactly (small integers, so sums are exact)."""

from __future__ import annotations

import functools
import math
import re

import numpy as np
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st
from mlir.passmanager import PassManager

import mesh_dialect
from mesh_dialect.interfaces import rule_for
from mesh_dialect.interfaces.registry import _window_splits
from mesh_dialect.interfaces.rules import Window, shardings_from_option
from mesh_dialect.sim.api import Simulation
from mesh_dialect.sim.interpreter import Runner
from mesh_dialect.transforms import MeshPartition

"""mesh-partition calls `partition/halo.py` and the simulator runs tosa's
window ops: until both are wired in, the end-to-end property is skipped."""


@functools.cache
def _context():
    return mesh_dialect.context()


# ---------------------------------------------------------------------------
# The halo of a window


@st.composite
def windows(draw) -> tuple[Window, int]:
    n = draw(st.integers(1, 6))
    piece = draw(st.integers(1, 4))
    stride, dilation, size = draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(1, 4))
    offset = draw(st.integers(-3, 3))
    out = n * piece
    reach = (out - 1) * stride + (size - 1) * dilation + 1 + max(offset, 0)
    extent = n * max(1, -(-reach // n) + draw(st.integers(-1, 1)))
    return Window(0, stride, dilation, size, offset, extent, out), n


@settings(max_examples=400, deadline=None)
@given(windows())
def test_a_halo_covers_every_window_and_is_the_least_that_does(case):
    w, n = case
    low, high = w.halo(n)
    assert low >= 0 and high >= 0
    core = w.extent // n
    lacks_low = lacks_high = 0
    for p in range(n):
        start, stop = w.reads(n, p)
        assert stop - start == w.span(w.out // n)
        if n > 1:
            assert p * core - low <= start and stop <= (p + 1) * core + high
        lacks_low = max(lacks_low, p * core - start)
        lacks_high = max(lacks_high, stop - (p + 1) * core)
    if n > 1:
        assert (low, high) == (max(lacks_low, 0), max(lacks_high, 0))
    else:
        assert (low, high) == (0, 0)


@st.composite
def dilated_windows(draw) -> tuple[Window, int]:
    n = draw(st.integers(2, 6))
    base, stride, dilation, size = (draw(st.integers(lo, 3)) for lo in (2, 1, 1, 1))
    extent = n * draw(st.integers(1, 4))
    offset = draw(st.integers(-size, (extent - 1) * base))
    piece = draw(st.integers(1, 4))
    return Window(0, stride, dilation, size, offset, extent, n * piece, base=base), n


def _dilated(rows: np.ndarray, base: int, low: int, high: int) -> np.ndarray:
    """`rows` spread `base` apart with zeros between, and `low`/`high` zeros
    around: what a convolution's lhs_dilation and padding make of them."""
    out = np.zeros(low + (len(rows) - 1) * base + 1 + high, dtype=rows.dtype) if len(rows) else np.zeros(0)
    out[low : low + (len(rows) - 1) * base + 1 : base] = rows
    return out


@settings(max_examples=400, deadline=None)
@given(dilated_windows())
def test_a_dilated_window_splits_where_every_piece_reads_its_rows_alike(case):
    # Even means each piece reads as many rows, at the same place among its
    # positions: then its rows, dilated and padded alike on every device,
    # are exactly the positions of the whole dilated dimension it reads.
    w, n = case
    x = np.arange(1, w.extent + 1)
    whole = np.zeros(w.out * w.stride + w.size * w.dilation + abs(w.offset) + w.extent * w.base + 8, dtype=int)
    origin = max(0, -w.offset)  # whole[origin + q] holds position q
    whole[origin : origin + (w.extent - 1) * w.base + 1 : w.base] = x
    shapes = set()
    for p in range(n):
        start, stop = w.positions(n, p)
        first, last = w.reads(n, p)
        assert first * w.base >= start and (last - 1) * w.base < stop
        assert (first - 1) * w.base < start and last * w.base >= stop  # no row left out
        shapes.add((last - first, first * w.base - start, stop - 1 - (last - 1) * w.base))
    assert w.even(n) == (len(shapes) == 1 and next(iter(shapes))[0] > 0)
    if not w.even(n):
        assert w.halo(n) == (0, 0)
        return
    low, high = w.halo(n)
    core = w.extent // n
    assert w.rows(n) == next(iter(shapes))[0]
    for p in range(n):
        first, last = w.reads(n, p)
        assert p * core - low <= first and last <= (p + 1) * core + high
        assert first == w.reads(n, 0)[0] + p * w.step(n)
        rows = np.array([x[r] if 0 <= r < w.extent else 0 for r in range(first, last)])
        start, stop = w.positions(n, p)
        local = _dilated(rows, w.base, *w.dilated_padding(n))
        np.testing.assert_array_equal(local, whole[origin + start : origin + stop])


def test_aligned_pieces_need_only_the_window_past_their_end():
    # output piece [s, e) with stride S reads [s*S, (e-1)*S + (W-1)*D + 1)
    w = Window(0, stride=2, dilation=3, size=3, offset=0, extent=16, out=8)
    assert w.halo(4) == (0, (3 - 1) * 3 + 1 - 2)
    assert Window(0, 1, 1, 3, -1, 8, 8).halo(4) == (1, 1)  # "same" padding


def test_halos_follow_the_option_and_the_mesh():
    text = """
    func.func @f(%x: tensor<1x10x10x3xf32>, %w: tensor<3x3x3x4xf32>, %o: tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32> {
      %c = linalg.conv_2d_nhwc_hwcf ins(%x, %w : tensor<1x10x10x3xf32>, tensor<3x3x3x4xf32>)
          outs(%o : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
      return %c : tensor<1x8x8x4xf32>
    }"""
    module = mesh_dialect.parse(text, context=_context())
    func = module.regions[0].blocks[0].operations[0]
    conv = next(op for op in func.regions[0].blocks[0].operations if "conv" in op.name)
    rule = rule_for(conv)
    option = ((), (0,), (1,), (), (), (), ())
    (x, w, out), _ = shardings_from_option(rule, option, (2, 2))
    assert x.halo_sizes == (1, 1, 1, 1) and w.halo_sizes == () and out.halo_sizes == ()
    (x, _, _), _ = shardings_from_option(rule, option)  # no mesh: no halos
    assert x.halo_sizes == ()
    (x, _, _), _ = shardings_from_option(rule, ((), (0, 1), (), (), (), (), ()), (2, 2))
    # 10 rows in 4 pieces are uneven: no halos (the solver never picks it)
    assert x.split_axes == ((), (0, 1)) and x.halo_sizes == ()


# ---------------------------------------------------------------------------
# Random windowed ops, partitioned and simulated


def _t(shape, elem="f32") -> str:
    return "tensor<" + "x".join(str(d) for d in shape) + f"x{elem}>"


def _split_text(split) -> str:
    return "[" + ", ".join("[" + ", ".join(map(str, axes)) + "]" for axes in split) + "]"


@st.composite
def meshes_and_splits(draw, spatial: int):
    """A mesh of rank 1-3 (at most 8 devices) and, per spatial dimension,
    the disjoint mesh axes it is split over (maybe none)."""
    rank = draw(st.integers(1, 3))
    shape = []
    for _ in range(rank):
        shape.append(draw(st.sampled_from([1, 2, 2, 3, 4])))
        if math.prod(shape) > 8:
            shape[-1] = 1
    free = list(range(rank))
    splits = []
    for _ in range(spatial):
        k = draw(st.integers(0, min(2, len(free))))
        axes = draw(st.permutations(free))[:k] if free else []
        free = [a for a in free if a not in axes]
        splits.append(list(axes))
    assume(any(math.prod(shape[a] for a in axes) > 1 for axes in splits))
    return tuple(shape), splits


@st.composite
def geometry(draw, n: int, padded: bool, pooling: bool = False):
    """(extent, out, stride, dilation, window, pad_low, pad_high or offset)
    of one spatial dimension cut into n pieces."""
    stride = draw(st.integers(1, 3))
    dilation = 1 if pooling else draw(st.integers(1, 2))
    size = draw(st.integers(1, 4))
    if not padded:
        piece = draw(st.integers(1, 3))
        out = n * piece
        offset = draw(st.integers(0, 2))
        reach = (out - 1) * stride + (size - 1) * dilation + 1 + offset
        extent = n * (-(-reach // n) + draw(st.integers(0, 1)))
        return extent, out, stride, dilation, size, offset, 0
    core = draw(st.integers(1, 4))
    extent = n * core
    fits = []
    for top in range(size):
        for bottom in range(size):
            span = extent - 1 + top + bottom - (size - 1) * dilation
            if span >= 0 and span % stride == 0 and (span // stride + 1) % n == 0:
                fits.append((top, bottom, span // stride + 1))
    assume(fits)
    top, bottom, out = draw(st.sampled_from(fits))
    return extent, out, stride, dilation, size, top, bottom


@st.composite
def programs(draw) -> str:
    kind = draw(st.sampled_from(["generic", "conv", "tosa_conv", "max_pool"]))
    spatial = 1 if kind == "generic" and draw(st.booleans()) else 2
    mesh, splits = draw(meshes_and_splits(spatial))
    padded = kind in ("tosa_conv", "max_pool")
    dims = [draw(geometry(math.prod(mesh[a] for a in axes), padded, kind == "max_pool")) for axes in splits]
    if kind == "conv":
        dims = [(e, o, s, d, w, 0, 0) for e, o, s, d, w, _, _ in dims]  # named ops read from the start
    option = ""
    if draw(st.booleans()):
        # an explicit loop sharding: the spatial loops split as annotated
        loops = [] if kind == "generic" else ["[]"]
        loops += ["[" + ", ".join(map(str, axes)) + "]" for axes in splits]
        option = f"mesh.sharding_option = #mesh.sharding<@mesh, [{', '.join(loops)}]>"
    build = {"generic": _generic, "conv": _conv}.get(kind, _tosa)
    text = build(kind, dims, splits, option)
    aliases = [line for line in text.splitlines() if line.startswith("#")]
    body = [line for line in text.splitlines() if not line.startswith("#")]
    return "\n".join([*aliases, f"mesh.mesh @mesh(shape = {'x'.join(map(str, mesh))})", *body])


def _attrs(*items: str) -> str:
    return "{" + ", ".join(i for i in items if i) + "}"


def _generic(kind, dims, splits, option) -> str:
    spatial = len(dims)
    outs = [o for _, o, *_ in dims]
    ins = [e for e, *_ in dims]
    ws = [w for _, _, _, _, w, _, _ in dims]
    out_loops = ["i", "j"][:spatial]
    win_loops = ["k", "l"][:spatial]
    exprs = [f"{s} * {out_loops[k]} + {d} * {win_loops[k]} + {off}" for k, (_, _, s, d, _, off, _) in enumerate(dims)]
    loops = ", ".join(out_loops + win_loops)
    iters = ", ".join(['"parallel"'] * spatial + ['"reduction"'] * spatial)
    attrs = _attrs("indexing_maps = [#in, #w, #out]", f"iterator_types = [{iters}]", option)
    return f"""
#in = affine_map<({loops}) -> ({", ".join(exprs)})>
#w = affine_map<({loops}) -> ({", ".join(win_loops)})>
#out = affine_map<({loops}) -> ({", ".join(out_loops)})>
func.func @f(%x: {_t(ins)}, %k: {_t(ws)}) -> {_t(outs)} {{
  %s = mesh.sharding @mesh split_axes = {_split_text(splits)} : !mesh.sharding
  %xs = mesh.shard %x to %s : {_t(ins)}
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : {_t(outs)}
  %z = linalg.fill ins(%zero : f32) outs(%e : {_t(outs)}) -> {_t(outs)}
  %r = linalg.generic {attrs}
      ins(%xs, %k : {_t(ins)}, {_t(ws)}) outs(%z : {_t(outs)}) {{
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %t = arith.addf %c, %m : f32
    linalg.yield %t : f32
  }} -> {_t(outs)}
  %rs = mesh.shard %r to %s : {_t(outs)}
  return %rs : {_t(outs)}
}}
"""


def _conv(kind, dims, splits, option) -> str:
    (eh, oh, sh, dh, kh, _, _), (ew, ow, sw, dw, kw, _, _) = dims
    x, w, out = (1, eh, ew, 2), (kh, kw, 2, 2), (1, oh, ow, 2)
    attrs = _attrs(
        f"strides = dense<[{sh}, {sw}]> : tensor<2xi64>", f"dilations = dense<[{dh}, {dw}]> : tensor<2xi64>", option
    )
    return f"""
func.func @f(%x: {_t(x)}, %w: {_t(w)}) -> {_t(out)} {{
  %s = mesh.sharding @mesh split_axes = {_split_text([[], *splits])} : !mesh.sharding
  %xs = mesh.shard %x to %s : {_t(x)}
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : {_t(out)}
  %z = linalg.fill ins(%zero : f32) outs(%e : {_t(out)}) -> {_t(out)}
  %c = linalg.conv_2d_nhwc_hwcf {attrs}
      ins(%xs, %w : {_t(x)}, {_t(w)}) outs(%z : {_t(out)}) -> {_t(out)}
  %cs = mesh.shard %c to %s : {_t(out)}
  return %cs : {_t(out)}
}}
"""


def _tosa(kind, dims, splits, option) -> str:
    (eh, oh, sh, dh, kh, th, bh), (ew, ow, sw, dw, kw, tw, bw) = dims
    x, out = (1, eh, ew, 2), (1, oh, ow, 2)
    pad = f"pad = array<i64: {th}, {bh}, {tw}, {bw}>"
    stride = f"stride = array<i64: {sh}, {sw}>"
    if kind == "max_pool":
        attrs = _attrs(f"kernel = array<i64: {kh}, {kw}>", pad, stride, option)
        op = f"tosa.max_pool2d %xs {attrs} : ({_t(x)}) -> {_t(out)}"
        args = ""
    else:
        w = (2, kh, kw, 2)
        attrs = _attrs("acc_type = f32", f"dilation = array<i64: {dh}, {dw}>", pad, stride, option)
        op = (
            f"tosa.conv2d %xs, %w, %b, %zp, %zp {attrs} "
            f": ({_t(x)}, {_t(w)}, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> {_t(out)}"
        )
        args = f", %w: {_t(w)}, %b: tensor<2xf32>"
    return f"""
func.func @f(%x: {_t(x)}{args}) -> {_t(out)} {{
  %s = mesh.sharding @mesh split_axes = {_split_text([[], *splits])} : !mesh.sharding
  %xs = mesh.shard %x to %s : {_t(x)}
  %zp = "tosa.const"() {{values = dense<0.0> : tensor<1xf32>}} : () -> tensor<1xf32>
  %c = {op}
  %cs = mesh.shard %c to %s : {_t(out)}
  return %cs : {_t(out)}
}}
"""


def _partition(text: str):
    module = mesh_dialect.parse(text, context=_context())
    with _context():
        pm = PassManager("builtin.module")
        mesh_dialect.ShardingPropagation().add_to(pm)
        MeshPartition().add_to(pm)
        pm.run(module)
    mesh_dialect.verify(module)
    return module


def _assert_same_results(text: str, module, seed: int) -> None:
    """`module` (`text` partitioned) gives `text`'s result exactly on small
    random integers."""
    sim = Simulation(mesh_dialect.parse(text, context=_context()))
    rng = np.random.default_rng(seed)
    args = [rng.integers(-3, 4, size=tuple(t.shape)).astype(np.float32) for t in sim.signature("f").arg_types]
    expected = sim.run("f", args)
    got = Simulation(module).run("f", args)
    np.testing.assert_array_equal(got[0], expected[0])


@settings(max_examples=150, deadline=None)
@given(programs(), st.integers(0, 2**31 - 1))
def test_random_windowed_ops_partition_to_the_same_results(text, seed):
    module = _partition(text)
    printed = mesh_dialect.print_ir(module)
    assert "mesh.shard " not in printed
    kind = next(k for k in ("generic", "conv_2d", "conv2d", "max_pool2d") if k in text)
    event(f"{kind}: {'update_halo' if 'mesh.update_halo' in printed else 'no halo exchange'}")
    if "mesh.sharding_option" in text:  # split as asked: the windows are local
        assert "all_gather" not in printed
    _assert_same_results(text, module, seed)


@st.composite
def transposed_convolutions(draw) -> tuple[str, bool]:
    """A stablehlo convolution over 1 or 2 spatial dimensions whose input
    is dilated (`lhs_dilation` 1-3, a transposed convolution), with
    strides, a dilated kernel and padding of either sign, its input and
    result split alike over random mesh axes; and whether every split
    window cuts into pieces that read their rows alike (`Window.even`)."""
    spatial = draw(st.integers(1, 2))
    mesh, splits = draw(meshes_and_splits(spatial))
    dims, even = [], True
    for axes in splits:
        n = math.prod(mesh[a] for a in axes)
        base, stride, dilation, size = (draw(st.integers(lo, hi)) for lo, hi in ((1, 3), (1, 2), (1, 2), (1, 4)))
        extent = n * draw(st.integers(1, 4))
        reach = (size - 1) * dilation + 1
        low = draw(st.integers(-1, reach))
        fits = []
        for high in range(-1, reach + base + 1):
            padded = (extent - 1) * base + 1 + low + high
            out = (padded - reach) // stride + 1 if padded >= reach else 0
            if out >= 1 and out % n == 0:
                fits.append((high, out))
        assume(fits)
        high, out = draw(st.sampled_from(fits))
        w = Window(0, stride, dilation, size, -low, extent, out, base=base)
        # (a window wider than its outputs may split its positions instead: the outputs stay whole)
        even = even and w.even(n) and not (base == 1 and _window_splits(size, out, extent))
        dims.append((extent, out, base, stride, dilation, size, low, high))
    x, k, y = (2, *[d[0] for d in dims], 2), (*[d[5] for d in dims], 2, 3), (2, *[d[1] for d in dims], 3)
    letters = ", ".join(str(j) for j in range(spatial))
    attrs = ", ".join(
        [
            "batch_group_count = 1 : i64",
            f"dimension_numbers = #stablehlo.conv<[b, {letters}, f]x[{letters}, i, o]->[b, {letters}, f]>",
            "feature_group_count = 1 : i64",
            "lhs_dilation = array<i64: " + ", ".join(str(d[2]) for d in dims) + ">",
            "padding = dense<[" + ", ".join(f"[{d[6]}, {d[7]}]" for d in dims) + f"]> : tensor<{spatial}x2xi64>",
            "rhs_dilation = array<i64: " + ", ".join(str(d[4]) for d in dims) + ">",
            "window_strides = array<i64: " + ", ".join(str(d[3]) for d in dims) + ">",
        ]
    )
    text = f"""mesh.mesh @mesh(shape = {"x".join(map(str, mesh))})
func.func @f(%x: {_t(x)}, %k: {_t(k)}) -> {_t(y)} {{
  %s = mesh.sharding @mesh split_axes = {_split_text([[], *splits])} : !mesh.sharding
  %xs = mesh.shard %x to %s : {_t(x)}
  %y = "stablehlo.convolution"(%xs, %k) <{{{attrs}}}> : ({_t(x)}, {_t(k)}) -> {_t(y)}
  %ys = mesh.shard %y to %s : {_t(y)}
  return %ys : {_t(y)}
}}"""
    return text, even


@settings(max_examples=150, deadline=None)
@given(transposed_convolutions(), st.integers(0, 2**31 - 1))
def test_random_transposed_convolutions_partition_to_the_same_results(case, seed):
    text, even = case
    module = _partition(text)
    printed = mesh_dialect.print_ir(module)
    event("halo exchange" if "mesh.update_halo" in printed else "no halo exchange")
    if even:  # rows and a halo on every device, or the split moved to the batch where that moves less
        assert "mesh.all_gather" not in printed and "mesh.send" not in printed
    _assert_same_results(text, module, seed)


@st.composite
def kernel_gradients(draw) -> str:
    """A stablehlo convolution laid out as JAX writes a kernel's gradient
    (`[f, 0, b]x[i, 0, o]->[0, b, f]`: the images' batch is contracted, the
    output gradient is the window), over 1 or 2 spatial dimensions whose
    window is wider than the outputs, with strides, a dilated window
    (the forward pass's stride), padding of either sign and a window read
    forwards or backwards (`window_reversal`); the input and the window
    split alike over random mesh axes, the kernel whole."""
    spatial = draw(st.integers(1, 2))
    mesh, splits = draw(meshes_and_splits(spatial))
    dims = []
    for axes in splits:
        n = math.prod(mesh[a] for a in axes)
        window = n * draw(st.integers(1 if n > 1 else 2, 3))
        out = draw(st.integers(1, window - 1))
        stride, dilation = draw(st.integers(1, 2)), draw(st.integers(1, 3))
        reach = (window - 1) * dilation + (out - 1) * stride + 1
        # The padding on both ends, each in [-1, 2], makes up reach - extent
        # (the last output's window ends on the padded input's last row):
        # the extent is drawn among the multiples of n that allow it, then the
        # low padding among the values that leave the high one in range.
        extents = [e for e in range(max(n, reach - 4), reach + 3) if e % n == 0]
        assume(extents)  # (only 8 devices on one dimension can miss them all)
        extent = draw(st.sampled_from(extents))
        low = draw(st.integers(max(-1, reach - extent - 2), min(2, reach - extent + 1)))
        high = reach - extent - low
        dims.append((extent, window, out, stride, dilation, low, high, draw(st.booleans())))
    x, k, y = (2, *[d[0] for d in dims], 2), (2, *[d[1] for d in dims], 3), (*[d[2] for d in dims], 2, 3)
    letters = ", ".join(str(j) for j in range(spatial))
    attrs = ", ".join(
        [
            "batch_group_count = 1 : i64",
            f"dimension_numbers = #stablehlo.conv<[f, {letters}, b]x[i, {letters}, o]->[{letters}, b, f]>",
            "feature_group_count = 1 : i64",
            "lhs_dilation = array<i64: " + ", ".join("1" for _ in dims) + ">",
            "padding = dense<[" + ", ".join(f"[{d[5]}, {d[6]}]" for d in dims) + f"]> : tensor<{spatial}x2xi64>",
            "rhs_dilation = array<i64: " + ", ".join(str(d[4]) for d in dims) + ">",
            "window_reversal = array<i1: " + ", ".join("true" if d[7] else "false" for d in dims) + ">",
            "window_strides = array<i64: " + ", ".join(str(d[3]) for d in dims) + ">",
        ]
    )
    return f"""mesh.mesh @mesh(shape = {"x".join(map(str, mesh))})
func.func @f(%x: {_t(x)}, %dy: {_t(k)}) -> {_t(y)} {{
  %s = mesh.sharding @mesh split_axes = {_split_text([[], *splits])} : !mesh.sharding
  %r = mesh.sharding @mesh split_axes = [[]] : !mesh.sharding
  %xs = mesh.shard %x to %s : {_t(x)}
  %dys = mesh.shard %dy to %s : {_t(k)}
  %y = "stablehlo.convolution"(%xs, %dys) <{{{attrs}}}> : ({_t(x)}, {_t(k)}) -> {_t(y)}
  %ys = mesh.shard %y to %r : {_t(y)}
  return %ys : {_t(y)}
}}"""


@settings(max_examples=150, deadline=None)
@given(kernel_gradients(), st.integers(0, 2**31 - 1))
def test_random_kernel_gradients_partition_to_the_same_results(text, seed):
    """The window splits where that moves the fewest bytes (an all_reduce
    of the kernel's partial sums), or stays whole: either way the same
    kernel."""
    module = _partition(text)
    printed = mesh_dialect.print_ir(module)
    event("window split: all_reduce" if "mesh.all_reduce" in printed else "window whole")
    event("halo exchange" if "mesh.update_halo" in printed else "no halo exchange")
    _assert_same_results(text, module, seed)


@st.composite
def tiled_pooling_gradients(draw) -> tuple[str, bool]:
    """A select_and_scatter (max pooling's gradient) over 1 or 2 spatial
    dimensions whose windows tile them side by side (window s, stride s,
    1 <= s <= 3, no padding), as many windows as the dimension's devices
    times 1-2 or any count 1-6 (pieces that may not hold whole windows),
    operand, source and result split alike over random mesh axes; and
    whether every split dimension's windows cut into even pieces."""
    spatial = draw(st.integers(1, 2))
    mesh, splits = draw(meshes_and_splits(spatial))
    sizes, windows, even = [], [], True
    for axes in splits:
        n = math.prod(mesh[a] for a in axes)
        s = draw(st.integers(1, 3))
        count = draw(st.one_of(st.integers(1, 2).map(lambda k, n=n: k * n), st.integers(1, 6)))
        sizes.append(count * s)
        windows.append(s)
        even = even and count % n == 0
    x, g = (2, *sizes, 2), (2, *[c // s for c, s in zip(sizes, windows)], 2)
    ones = ", ".join(["1", *map(str, windows), "1"])
    attrs = (
        f"padding = dense<0> : tensor<{spatial + 2}x2xi64>, window_dimensions = array<i64: {ones}>, "
        f"window_strides = array<i64: {ones}>"
    )
    ge = "comparison_direction = #stablehlo<comparison_direction GE>"
    text = f"""mesh.mesh @mesh(shape = {"x".join(map(str, mesh))})
func.func @f(%x: {_t(x)}, %g: {_t(g)}) -> {_t(x)} {{
  %s = mesh.sharding @mesh split_axes = {_split_text([[], *splits])} : !mesh.sharding
  %xs = mesh.shard %x to %s : {_t(x)}
  %gs = mesh.shard %g to %s : {_t(g)}
  %zero = "stablehlo.constant"() <{{value = dense<0.0> : tensor<f32>}}> : () -> tensor<f32>
  %y = "stablehlo.select_and_scatter"(%xs, %gs, %zero) <{{{attrs}}}> ({{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = "stablehlo.compare"(%a, %b) <{{{ge}}}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%c) : (tensor<i1>) -> ()
  }}, {{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%p) : (tensor<f32>) -> ()
  }}) : ({_t(x)}, {_t(g)}, tensor<f32>) -> {_t(x)}
  %ys = mesh.shard %y to %s : {_t(x)}
  return %ys : {_t(x)}
}}"""
    return text, even


@settings(max_examples=150, deadline=None)
@given(tiled_pooling_gradients(), st.integers(0, 2**31 - 1))
def test_random_tiled_pooling_gradients_partition_to_the_same_results(case, seed):
    """Each device scatters into its own cells where its pieces hold whole
    windows (no collective), and the op runs whole elsewhere: either way
    the same gradient, ties included (small integers tie often)."""
    text, even = case
    module = _partition(text)
    printed = mesh_dialect.print_ir(module)
    event("local" if "mesh.all_gather" not in printed else "gathered")
    if even:
        assert "mesh.all_" not in printed
    _assert_same_results(text, module, seed)


@st.composite
def hlo_poolings(draw) -> str:
    """A sum or max `reduce_window` over a batch, two spatial dimensions
    and channels: windows 1-3 wide, strides 1-3, padding up to the window
    less one, 2-9 cells a dimension; each dimension over its own axis of a
    2x2x2 mesh or whole, so odd sizes are cut unevenly (the solver then
    drops the loops the op cannot split and keeps the others, or moves
    their axes to other loops); the result annotated as the input, or left
    to propagation."""
    kind = draw(st.sampled_from(["add", "maximum"]))
    sizes = [draw(st.integers(2, 9)) for _ in range(4)]
    window, stride, padding, out = [1, 1, 1, 1], [1, 1, 1, 1], [0] * 8, list(sizes)
    for d in (1, 2):
        window[d], stride[d] = draw(st.integers(1, 3)), draw(st.integers(1, 3))
        padding[2 * d], padding[2 * d + 1] = draw(st.integers(0, window[d] - 1)), draw(st.integers(0, window[d] - 1))
        span = sizes[d] + padding[2 * d] + padding[2 * d + 1] - window[d]
        assume(span >= 0)
        out[d] = span // stride[d] + 1
    axes = draw(st.permutations([0, 1, 2, None]))
    splits = [[] if a is None or draw(st.booleans()) else [a] for a in axes]
    init = "0.0" if kind == "add" else "0xFF800000"
    pads = ", ".join(str(padding[2 * d : 2 * d + 2]) for d in range(4))
    attrs = (
        f"base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<[{pads}]> : tensor<4x2xi64>, "
        f"window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: {', '.join(map(str, window))}>, "
        f"window_strides = array<i64: {', '.join(map(str, stride))}>"
    )
    result = f"\n  %ys = mesh.shard %y to %s annotate_for_users : {_t(out)}" if draw(st.booleans()) else ""
    return f"""mesh.mesh @mesh(shape = 2x2x2)
func.func @f(%x: {_t(sizes)}) -> {_t(out)} {{
  %s = mesh.sharding @mesh split_axes = {_split_text(splits)} : !mesh.sharding
  %xs = mesh.shard %x to %s annotate_for_users : {_t(sizes)}
  %init = "stablehlo.constant"() <{{value = dense<{init}> : tensor<f32>}}> : () -> tensor<f32>
  %y = "stablehlo.reduce_window"(%xs, %init) <{{{attrs}}}> ({{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = "stablehlo.{kind}"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%c) : (tensor<f32>) -> ()
  }}) : ({_t(sizes)}, tensor<f32>) -> {_t(out)}{result}
  return {"%ys" if result else "%y"} : {_t(out)}
}}"""


@settings(max_examples=150, deadline=None)
@given(hlo_poolings(), st.integers(0, 2**31 - 1))
def test_random_hlo_poolings_partition_to_the_same_results(text, seed):
    """However the annotations cut the input, evenly or not, the pooled
    result is the original's exactly."""
    module = _partition(text)
    printed = mesh_dialect.print_ir(module)
    whole = re.search(r"%x: (tensor<[^>]*>)", text).group(1)
    runs_on = re.search(r"\}\) : \((tensor<[^>]*>), tensor<f32>\)", printed).group(1)
    if runs_on == whole:
        event("run whole")
    elif "mesh.all_to_all" in printed:
        event("axes moved")
    else:
        event("partly gathered" if "mesh.all_gather" in printed else "local")
    _assert_same_results(text, module, seed)


# ---------------------------------------------------------------------------
# The simulator's tosa window ops against their definition, cell by cell


def _naive(kind: str, x, w, b, kernel, pad, stride, dilation, out_hw):
    """The TOSA definition, one output cell and one kernel position at a
    time, padding decided by index (never by padded arrays)."""
    n, h, wd, c = x.shape
    oh, ow = out_hw
    channels = {"conv": None if w is None else w.shape[0], "depthwise": None if w is None else c * w.shape[3]}
    oc = channels.get(kind) or c
    out = np.zeros((n, oh, ow, oc), dtype=np.float64)
    for i, y, z in np.ndindex(n, oh, ow):
        cells = []
        for ky, kx in np.ndindex(*kernel):
            iy = y * stride[0] + ky * dilation[0] - pad[0]
            ix = z * stride[1] + kx * dilation[1] - pad[2]
            if 0 <= iy < h and 0 <= ix < wd:
                cells.append((ky, kx, x[i, iy, ix]))
        if kind == "conv":
            out[i, y, z] = b + sum(w[:, ky, kx, :] @ v for ky, kx, v in cells)
        elif kind == "depthwise":
            out[i, y, z] = b + sum((v[:, None] * w[ky, kx]).reshape(-1) for ky, kx, v in cells)
        elif kind == "max":
            out[i, y, z] = np.max([v for _, _, v in cells], axis=0)
        else:
            out[i, y, z] = np.sum([v for _, _, v in cells], axis=0) / len(cells)
    return out


@st.composite
def window_ops(draw):
    kind = draw(st.sampled_from(["conv", "depthwise", "max", "avg"]))
    kernel = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    stride = (draw(st.integers(1, 2)), draw(st.integers(1, 2)))
    dilation = (1, 1) if kind in ("max", "avg") else (draw(st.integers(1, 2)), draw(st.integers(1, 2)))
    pad = tuple(draw(st.integers(0, kernel[k // 2] - 1)) for k in range(4))
    h, wd = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    out = []
    for k, size in enumerate((h, wd)):
        span = size - 1 + pad[2 * k] + pad[2 * k + 1] - (kernel[k] - 1) * dilation[k]
        assume(span >= 0 and span % stride[k] == 0)
        out.append(span // stride[k] + 1)
    return kind, kernel, pad, stride, dilation, (draw(st.integers(1, 2)), h, wd, draw(st.integers(1, 3))), tuple(out)


@settings(max_examples=80, deadline=None)
@given(window_ops(), st.integers(0, 2**31 - 1))
def test_the_simulators_tosa_window_ops_follow_their_definition(case, seed):
    kind, kernel, pad, stride, dilation, shape, (oh, ow) = case
    rng = np.random.default_rng(seed)
    x = rng.integers(-4, 5, size=shape).astype(np.float32)
    n, _, _, c = shape
    attrs = f"pad = array<i64: {', '.join(map(str, pad))}>, stride = array<i64: {stride[0]}, {stride[1]}>"
    zp = '%zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>'
    w = b = None
    if kind in ("conv", "depthwise"):
        mult = 2
        wshape = (3, *kernel, c) if kind == "conv" else (*kernel, c, mult)
        oc = 3 if kind == "conv" else c * mult
        w = rng.integers(-3, 4, size=wshape).astype(np.float32)
        b = rng.integers(-3, 4, size=(oc,)).astype(np.float32)
        op = "tosa.conv2d" if kind == "conv" else "tosa.depthwise_conv2d"
        dil = f"dilation = array<i64: {dilation[0]}, {dilation[1]}>"
        out_t = _t((n, oh, ow, oc))
        body = (
            f"{zp}\n  %0 = {op} %x, %w, %b, %zp, %zp {{acc_type = f32, {dil}, {attrs}}} "
            f": ({_t(shape)}, {_t(wshape)}, {_t((oc,))}, tensor<1xf32>, tensor<1xf32>) -> {out_t}"
        )
        args = f"%x: {_t(shape)}, %w: {_t(wshape)}, %b: {_t((oc,))}"
        values = [x, w, b]
    else:
        out_t = _t((n, oh, ow, c))
        k = f"kernel = array<i64: {kernel[0]}, {kernel[1]}>"
        if kind == "max":
            body = f"%0 = tosa.max_pool2d %x {{{k}, {attrs}}} : ({_t(shape)}) -> {out_t}"
        else:
            body = (
                f"{zp}\n  %0 = tosa.avg_pool2d %x, %zp, %zp {{acc_type = f32, {k}, {attrs}}} "
                f": ({_t(shape)}, tensor<1xf32>, tensor<1xf32>) -> {out_t}"
            )
        args = f"%x: {_t(shape)}"
        values = [x]
    text = f"func.func @f({args}) -> {out_t} {{\n  {body}\n  return %0 : {out_t}\n}}"
    (got,) = Runner(mesh_dialect.parse(text, context=_context())).run_global("f", values)
    expected = _naive(kind, x, w, b, kernel, pad, stride, dilation, (oh, ow))
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-6)
