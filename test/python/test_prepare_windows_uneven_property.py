"""`prepare-windows{pad-uneven}` as a property: random hlo sum and max
poolings and convolutions (stablehlo and mhlo spellings, inits that are
and are not the reduction's identity, any padding) of a sequence annotated
with XLA's cut over 2 to 8 devices, or with another cut, or moving more
than one row at a time, are padded exactly when the rewrite's conditions
hold, and compute exactly what they computed before (small integers in
f32, so sums are exact), unpartitioned and once propagated and
partitioned."""

from __future__ import annotations

import functools
import math

import numpy as np
from hypothesis import event, given, settings
from hypothesis import strategies as st

import mesh_dialect
from mesh_dialect.sim.api import Simulation


@functools.cache
def _context():
    return mesh_dialect.context(allow_unregistered_dialects=True)


def _ints(dialect: str, values: list[int]) -> str:
    if dialect == "stablehlo":
        return f"array<i64: {', '.join(map(str, values))}>"
    return f"dense<[{', '.join(map(str, values))}]> : tensor<{len(values)}xi64>"


@st.composite
def programs(draw) -> tuple[str, bool]:
    """(a function @f on @mesh, whether the rewrite applies to it)."""
    dialect = draw(st.sampled_from(["stablehlo", "mhlo"]))
    kind = draw(st.sampled_from(["sum", "max", "conv"]))
    pieces = draw(st.sampled_from([2, 3, 4, 4, 8]))
    n = draw(st.integers(2, 13))
    k = draw(st.integers(1, 4)) if draw(st.integers(0, 7)) else n  # sometimes a cumulative sum's window
    low = draw(st.integers(0, k - 1))
    high = k - 1 - low
    stride = draw(st.sampled_from([1, 1, 1, 2]))
    if stride == 2:
        high += 1  # (an output count of ceil(n / 2))
    other = draw(st.sampled_from([None, None, None, "balanced", "wide"])) if n % pieces else None
    xla = other is None
    c = math.ceil(n / pieces)
    cut = [min(i * c, n) for i in range(pieces + 1)]
    if other == "balanced":  # 2, 2, 3, 3 of 10
        cut = [n * i // pieces for i in range(pieces + 1)]
    elif other == "wide":  # XLA's pattern with wider pieces: 4, 4, 2, 0 of 10
        cut = [min(i * (c + 1), n) for i in range(pieces + 1)]
    out = (n + low + high - k) // stride + 1
    # (halos of at most a piece: a window wider than that, a cumulative
    # sum's, is a scan, which partition splits otherwise)
    # (and a window one row wide, unpadded, needs no halo: left alone)
    applies = n % pieces != 0 and xla and stride == 1 and max(low, high) <= c and k > 1
    ch = 2
    # the argument arrives so cut (its own annotation), or whole and read so
    # (one for its users)
    users = " annotate_for_users" if draw(st.booleans()) else ""
    x = f"tensor<2x{n}x{ch}xf32>"
    y = f"tensor<2x{out}x{ch}xf32>"
    head = (
        f"mesh.mesh @mesh(shape = {pieces})\n"
        f"func.func @f(%x: {x}, %k: tensor<{k}x{ch}x{ch}xf32>) -> {y} {{\n"
        f"  %s = mesh.sharding @mesh split_axes = [[], [0]] sharded_dims_offsets = {cut} : !mesh.sharding\n"
        f"  %a = mesh.shard %x to %s{users} : {x}\n"
    )
    # the op reads the annotated value, or one computed from it: then the
    # function's cut for a size of n is the one padded
    through = draw(st.booleans())
    if through:
        head += f'  %n = "{dialect}.negate"(%a) : ({x}) -> {x}\n'
    read = "%n" if through else "%a"
    if kind == "conv":
        if dialect == "stablehlo":
            props = (
                f"<{{batch_group_count = 1 : i64, feature_group_count = 1 : i64, "
                f"dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, "
                f"padding = dense<[[{low}, {high}]]> : tensor<1x2xi64>, window_strides = array<i64: {stride}>}}>"
            )
        else:
            props = (
                f"{{batch_group_count = 1 : i64, feature_group_count = 1 : i64, "
                f"dimension_numbers = #mhlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, "
                f"padding = dense<[[{low}, {high}]]> : tensor<1x2xi64>, "
                f"window_strides = dense<{stride}> : tensor<1xi64>}}"
            )
        body = f'  %r = "{dialect}.convolution"({read}, %k) {props} : ({x}, tensor<{k}x{ch}x{ch}xf32>) -> {y}\n'
    else:
        init = draw(st.sampled_from(["0.0", "1.0", "0xFF800000"] if kind == "max" else ["0.0", "2.0"]))
        combine = "add" if kind == "sum" else "maximum"
        attrs = (
            f"padding = dense<[[0, 0], [{low}, {high}], [0, 0]]> : tensor<3x2xi64>, "
            f"window_dimensions = {_ints(dialect, [1, k, 1])}, window_strides = {_ints(dialect, [1, stride, 1])}"
        )
        # (properties come before the region, other attributes after it)
        props, after = (f"<{{{attrs}}}> ", "") if dialect == "stablehlo" else ("", f" {{{attrs}}}")
        body = (
            f'  %z = "{dialect}.constant"() {{value = dense<{init}> : tensor<f32>}} : () -> tensor<f32>\n'
            f'  %r = "{dialect}.reduce_window"({read}, %z) {props}({{\n'
            f"  ^bb0(%p: tensor<f32>, %q: tensor<f32>):\n"
            f'    %t = "{dialect}.{combine}"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n'
            f'    "{dialect}.return"(%t) : (tensor<f32>) -> ()\n'
            f"  }}){after} : ({x}, tensor<f32>) -> {y}\n"
        )
    event(f"{kind}, {'rewritten' if applies else 'left alone'}{'' if xla else ', ' + str(other)}")
    tail = f"  %b = mesh.shard %r to %s : {y}\n  return %b : {y}\n}}\n" if out == n else f"  return %r : {y}\n}}\n"
    return head + body + tail, applies


def _passes(text: str, pipeline: str):
    module = mesh_dialect.parse(text, context=_context())
    mesh_dialect.pass_manager(f"builtin.module({pipeline})", context=_context()).run(module.operation)
    mesh_dialect.verify(module)
    return module


@settings(max_examples=300, deadline=None)
@given(programs(), st.integers(0, 2**31 - 1))
def test_padded_window_ops_compute_the_same(case, seed):
    text, applies = case
    prepared = _passes(text, "prepare-windows")
    printed = mesh_dialect.print_ir(prepared)
    assert ('.pad"' in printed) == applies, printed
    sim = Simulation(mesh_dialect.parse(text, context=_context()))
    rng = np.random.default_rng(seed)
    args = [rng.integers(-3, 4, size=tuple(t.shape)).astype(np.float32) for t in sim.signature("f").arg_types]
    (expected,) = sim.run("f", args)
    pipeline = "prepare-windows, sharding-propagation, mesh-partition, mesh-optimize-collectives"
    partitioned = _passes(text, pipeline)
    for module in (prepared, partitioned):
        (got,) = Simulation(module).run("f", args)
        np.testing.assert_array_equal(got, expected)
    if applies:
        found = mesh_dialect.print_ir(partitioned)
        event(", ".join(sorted({c for c in ("update_halo", "all_gather", "all_to_all") if f"mesh.{c}" in found})))
