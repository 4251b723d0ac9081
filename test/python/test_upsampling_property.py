"""Nearest up-sampling as a property: random scales, sizes, meshes and
spellings of the index arithmetic (torch-mlir's float division, floor and
clamp; a multiplication by the reciprocal; unsigned casts; integer
division), with the
clamp sometimes biting, propagated and partitioned (or partitioned alone,
the loop split by another operand), compute exactly what the original
computes; where the arithmetic is `i floordiv s` and the mesh divides the
input's rows, the input is read in place with no collective."""

from __future__ import annotations

import numpy as np
from hypothesis import event, given, settings
from hypothesis import strategies as st
from simhelpers import parse, passes

import mesh_dialect
from mesh_dialect.sim.api import Simulation


def _chain(kind: str, scale: int, top: int) -> str:
    """The row index `%r` from the loop index `%i`."""
    if kind == "torch":
        return (
            "    %ic = arith.index_cast %i : index to i64\n"
            "    %if = arith.sitofp %ic : i64 to f32\n"
            "    %iq = arith.divf %if, %fs : f32\n"
            "    %il = math.floor %iq : f32\n"
            "    %ilo = arith.maximumf %il, %zero : f32\n"
            "    %ihi = arith.minimumf %ilo, %top : f32\n"
            "    %in = arith.fptosi %ihi : f32 to i64\n"
            "    %r = arith.index_cast %in : i64 to index"
        )
    if kind == "reciprocal":
        return (
            "    %ic = arith.index_cast %i : index to i32\n"
            "    %if = arith.sitofp %ic : i32 to f32\n"
            "    %iq = arith.mulf %if, %inv : f32\n"
            "    %il = math.floor %iq : f32\n"
            "    %in = arith.fptosi %il : f32 to i32\n"
            "    %r = arith.index_cast %in : i32 to index"
        )
    if kind == "unsigned":
        return (
            "    %ic = arith.index_castui %i : index to i32\n"
            "    %if = arith.uitofp %ic : i32 to f32\n"
            "    %iq = arith.divf %if, %fs : f32\n"
            "    %il = math.floor %iq : f32\n"
            "    %in = arith.fptoui %il : f32 to i32\n"
            "    %r = arith.index_castui %in : i32 to index"
        )
    return f"    %r = arith.{kind} %i, %cs : index"


@st.composite
def programs(draw) -> tuple[str, bool]:
    """(a function @f, whether its rows may be read in place: the index
    arithmetic is i floordiv s and the mesh axes divide the input's rows)."""
    scale = draw(st.integers(1, 4))
    rows = draw(st.integers(1, 8))
    cols = draw(st.integers(1, 3))
    kind = draw(st.sampled_from(["torch", "reciprocal", "unsigned", "floordivsi", "divsi", "divui"]))
    top = draw(st.integers(max(0, rows - 3), rows + 1))  # the clamp bites below rows - 1
    mesh, axes, devices = draw(
        st.sampled_from([("4", "[0]", 4), ("2", "[0]", 2), ("8", "[0]", 8), ("2x2", "[1]", 2), ("2x2", "[0, 1]", 4)])
    )
    other = draw(st.booleans())  # an operand of the output's shape, split as the rows
    out = rows * scale
    x, o = f"tensor<{rows}x{cols}xf32>", f"tensor<{out}x{cols}xf32>"
    ins = f" ins(%ys : {o})" if other else ""
    maps = "[#id, #id]" if other else "[#id]"
    arg = "%in0: f32, " if other else ""
    add = "    %w = arith.addf %v, %in0 : f32\n" if other else "    %w = arith.addf %v, %v : f32\n"
    text = f"""
#id = affine_map<(d0, d1) -> (d0, d1)>
mesh.mesh @mesh(shape = {mesh})
func.func @f(%x: {x}, %y: {o}) -> {o} {{
  %s = mesh.sharding @mesh split_axes = [{axes}] : !mesh.sharding
  %xs = mesh.shard %x to %s : {x}
  %ys = mesh.shard %y to %s annotate_for_users : {o}
  %zero = arith.constant 0.0 : f32
  %fs = arith.constant {float(scale)} : f32
  %inv = arith.constant {1.0 / scale} : f32
  %top = arith.constant {float(top)} : f32
  %cs = arith.constant {scale} : index
  %e = tensor.empty() : {o}
  %u = linalg.generic {{indexing_maps = {maps}, iterator_types = ["parallel", "parallel"]}}{ins} outs(%e : {o}) {{
  ^bb0({arg}%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
{_chain(kind, scale, top)}
    %v = tensor.extract %xs[%r, %j] : {x}
{add}    linalg.yield %w : f32
  }} -> {o}
  %us = mesh.shard %u to %s : {o}
  return %us : {o}
}}
"""
    in_place = kind != "reciprocal" and (kind != "torch" or top >= rows - 1) and rows % devices == 0
    return text, in_place


@settings(max_examples=300, deadline=None)
@given(programs(), st.sampled_from(["sharding-propagation, mesh-partition", "mesh-partition"]), st.integers(0, 2**31))
def test_upsampled_reads_compute_the_same(case, pipeline, seed):
    text, in_place = case
    sim = Simulation(parse(text))
    rng = np.random.default_rng(seed)
    args = [rng.integers(-3, 4, size=tuple(t.shape)).astype(np.float32) for t in sim.signature("f").arg_types]
    expected = sim.run("f", args)
    module = passes(text, pipeline)
    for a, b in zip(Simulation(module).run("f", args), expected, strict=True):
        np.testing.assert_array_equal(a, b)
    printed = mesh_dialect.print_ir(module)
    moved = any(f"= mesh.{c}" in printed for c in ("all_gather", "all_to_all", "all_reduce", "update_halo", "send"))
    if in_place and pipeline == "mesh-partition":
        assert not moved, printed
    event(f"{'in place' if in_place else 'whole'}: {'moved' if moved else 'nothing moved'}")
