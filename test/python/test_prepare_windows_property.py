"""`prepare-windows` as a property: random 1-D convolutions and poolings,
padded, strided and dilated, some lifted to 2-D as torch-mlir lifts them
(an expand_shape before or after the pad, a collapse_shape after the op),
read through a random slice, with inits of every kind, are narrowed exactly
when that drops padding alone, and compute exactly what they computed
before the pass (small integers in f32, so sums are exact), and again once
their sequence is split over a mesh and the program propagated and
partitioned."""

from __future__ import annotations

import re

import numpy as np
from hypothesis import event, given, settings
from hypothesis import strategies as st
from simhelpers import parse, passes

import mesh_dialect
from mesh_dialect.sim.api import Simulation


def _t(shape) -> str:
    return f"tensor<{'x'.join(map(str, shape))}xf32>"


def _pad(result: str, source: str, low, high, src_shape, shape) -> str:
    """`result = tensor.pad source` by `low` and `high`, padding with %v."""
    indices = ", ".join(f"%i{d}: index" for d in range(len(shape)))
    return (
        f"  {result} = tensor.pad {source} low{list(low)} high{list(high)} {{\n"
        f"  ^bb0({indices}):\n    tensor.yield %v : f32\n  }} : {_t(src_shape)} to {_t(shape)}"
    )


def _unit_expand(result: str, source: str, shape) -> str:
    """`source` of `shape` with a trailing unit dimension."""
    out = (*shape, 1)
    return (
        f"  {result} = tensor.expand_shape {source} [[0], [1], [2, 3]] output_shape {list(out)} "
        f": {_t(shape)} into {_t(out)}"
    )


@st.composite
def programs(draw) -> tuple[str, str, str]:
    """(a function @f, the result type of its window op after the pass, and before)."""
    kind = draw(st.sampled_from(["conv", "depthwise", "max", "sum", "lifted", "lifted_pad_first"]))
    n, c = draw(st.integers(1, 2)), 2
    length = draw(st.sampled_from([4, 6, 8, 12, 16]))
    k, stride, dilation = draw(st.integers(1, 4)), draw(st.integers(1, 2)), draw(st.integers(1, 2))
    low, high = draw(st.integers(0, 4)), draw(st.integers(0, 4))
    causal = draw(st.booleans())  # PyTorch's causal convolution: conv(padding=k-1)[..., :L]
    if causal:
        stride, low = 1, (k - 1) * dilation
        high = low
    padded = length + low + high
    span = (k - 1) * dilation + 1
    if padded < span:
        high += span - padded
        padded = span
    out = (padded - span) // stride + 1
    first = 0 if causal else draw(st.integers(0, out - 1))
    kept = length if causal else draw(st.integers(1, out - first))
    init = draw(st.sampled_from(["fill", "fill", "broadcast", "broadcast", "argument"]))
    extra_use = draw(st.sampled_from([False, False, False, True]))
    lifted = kind.startswith("lifted")
    f = 3 if kind == "conv" else c
    x = (n, c, length)
    out_shape = (n, f, out)
    value = draw(st.sampled_from(["0.0", "-5.0", "7.0"]))
    vector = f"vector<{2 if lifted else 1}xi64>"
    attrs = f"{{dilations = dense<{dilation}> : {vector}, strides = dense<{stride}> : {vector}}}"
    args = [f"%x: {_t(x)}"]
    body = [
        "  %s = mesh.sharding @mesh split_axes = SPLIT : !mesh.sharding",
        f"  %xs = mesh.shard %x to %s annotate_for_users : {_t(x)}",
        f"  %v = arith.constant {value} : f32",
    ]
    # the init, of the op's own shape (lifted: a trailing unit dimension)
    o = (*out_shape, 1) if lifted else out_shape
    if init == "argument":
        args.append(f"%i: {_t(o)}")
        init_value = "%i"
    else:
        body.append(f"  %e = tensor.empty() : {_t(o)}")
        if init == "fill":
            body.append(f"  %init = linalg.fill ins(%v : f32) outs(%e : {_t(o)}) -> {_t(o)}")
        else:
            args.append(f"%b: {_t((f,))}")
            dims = "[0, 2, 3]" if lifted else "[0, 2]"
            body.append(f"  %init = linalg.broadcast ins(%b : {_t((f,))}) outs(%e : {_t(o)}) dimensions = {dims}")
        init_value = "%init"
    if lifted:
        x4, p4 = (*x, 1), (n, c, padded, 1)
        if kind == "lifted":
            body.append(_unit_expand("%x4", "%xs", x))
            body.append(_pad("%p", "%x4", (0, 0, low, 0), (0, 0, high, 0), x4, p4))
        else:  # padded first, then lifted: the pad goes past the expand_shape
            body.append(_pad("%p3", "%xs", (0, 0, low), (0, 0, high), x, (n, c, padded)))
            body.append(_unit_expand("%p", "%p3", (n, c, padded)))
        args.append(f"%w: {_t((c, k, 1))}")
        body.append(
            f"  %r4 = linalg.depthwise_conv_2d_nchw_chw {attrs} ins(%p, %w : {_t(p4)}, {_t((c, k, 1))}) "
            f"outs({init_value} : {_t(o)}) -> {_t(o)}"
        )
        body.append(f"  %r = tensor.collapse_shape %r4 [[0], [1], [2, 3]] : {_t(o)} into {_t(out_shape)}")
    else:
        p3 = (n, c, padded)
        body.append(_pad("%p", "%xs", (0, 0, low), (0, 0, high), x, p3))
        if kind == "conv":
            w, op = (f, c, k), "linalg.conv_1d_ncw_fcw"
        elif kind == "depthwise":
            w, op = (c, k), "linalg.depthwise_conv_1d_ncw_cw"
        else:
            w, op = (k,), f"linalg.pooling_ncw_{kind}"
        args.append(f"%w: {_t(w)}")
        body.append(f"  %r = {op} {attrs} ins(%p, %w : {_t(p3)}, {_t(w)}) outs({init_value} : {_t(o)}) -> {_t(o)}")
    kept_shape = (n, f, kept)
    body.append(
        f"  %k = tensor.extract_slice %r[0, 0, {first}] [{n}, {f}, {kept}] [1, 1, 1] "
        f": {_t(out_shape)} to {_t(kept_shape)}"
    )
    body.append(f"  %ks = mesh.shard %k to %s : {_t(kept_shape)}")
    results = [("%ks", kept_shape)]
    if extra_use:
        results.append(("%r", out_shape))
    body.append(f"  return {', '.join(v for v, _ in results)} : {', '.join(_t(s) for _, s in results)}")
    mesh = draw(st.sampled_from([2, 4]))
    signature = f"func.func @f({', '.join(args)}) -> ({', '.join(_t(s) for _, s in results)})"
    text = f"mesh.mesh @mesh(shape = {mesh})\n{signature} {{\n" + "\n".join(body) + "\n}\n"
    # the pass narrows only what drops padding alone: the kept outputs read the
    # pad's whole source and line up with it, and the init can be made again
    reads = (first * stride, (first + kept - 1) * stride + span)
    drops_padding = reads[0] <= low and reads[1] >= low + length and kept * stride == length
    narrows = (first, kept) != (0, out) and drops_padding and init != "argument" and not extra_use
    narrowed = (n, f, kept, 1) if lifted else kept_shape
    return text, _t(narrowed if narrows else o), _t(o)


@settings(max_examples=200, deadline=None)
@given(programs(), st.sampled_from(["[[], [], []]", "[[], [], [0]]"]), st.integers(0, 2**31 - 1))
def test_prepared_windows_compute_the_same(case, split, seed):
    text, result, before = case
    text = text.replace("SPLIT", split)
    prepared = passes(text, "prepare-windows")
    printed = mesh_dialect.print_ir(prepared)
    window = next(line for line in printed.splitlines() if re.search(r"linalg\.\w*(conv|pooling)", line))
    assert window.endswith(f"-> {result}"), printed
    event("narrowed" if result != before else "left alone")
    sim = Simulation(parse(text))
    rng = np.random.default_rng(seed)
    args = [rng.integers(-3, 4, size=tuple(t.shape)).astype(np.float32) for t in sim.signature("f").arg_types]
    expected = sim.run("f", args)
    for module in (prepared, passes(text, "prepare-windows, sharding-propagation, mesh-partition")):
        got = Simulation(module).run("f", args)
        for a, b in zip(got, expected, strict=True):
            np.testing.assert_array_equal(a, b)
    partitioned = mesh_dialect.print_ir(module)
    event("update_halo" if "update_halo" in partitioned else "no halo")
