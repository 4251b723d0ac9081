"""Random per-device islands in annotated programs, as an imported shard_map
makes them: an argument laid out at random, cut into each device's piece by
a chain of `mesh.all_slice`s (one per dimension, in a random order), a body
on the pieces (an add, a rotation along a cut axis), put back together by a
chain of `mesh.all_gather`s, then whole-program code with a layout of its
own.  Partition turns the slices into a reshard of the argument and the
gathers into a layout of the result (`enter_pieces`, `leave_pieces`), and
every device must compute what the original computes on every device,
exactly (small integers in f32)."""

from __future__ import annotations

import numpy as np
from hypothesis import event, given, settings
from hypothesis import strategies as st
from strategies import split_axes, split_text

import mesh_dialect
from mesh_dialect.sim.api import Simulation

SIZE = 12  # every dimension: divided by 2, 3, 4 and 6


def _t(shape: list[int]) -> str:
    return f"tensor<{'x'.join(map(str, shape))}xf32>"


@st.composite
def programs(draw) -> tuple[str, str]:
    mesh = draw(st.sampled_from([(2,), (4,), (2, 2), (2, 3)]))
    rank = draw(st.integers(1, 2))
    shape = [SIZE] * rank
    arrive = draw(split_axes(rank, len(mesh)))
    cut = draw(split_axes(rank, len(mesh)).filter(lambda s: any(s)))
    after = draw(split_axes(rank, len(mesh)))
    lines = [f"%in = mesh.sharding @m split_axes = {split_text(arrive)} : !mesh.sharding"]
    lines.append(f"%after = mesh.sharding @m split_axes = {split_text(after)} : !mesh.sharding")
    lines.append(f"%xa = mesh.shard %x to %in : {_t(shape)}")
    value, piece = "%xa", list(shape)
    dims = [d for d in range(rank) if cut[d]]
    for k, d in enumerate(draw(st.permutations(dims))):
        count = int(np.prod([mesh[a] for a in cut[d]]))
        before = list(piece)
        piece[d] //= count
        axes = ", ".join(map(str, cut[d]))
        lines.append(
            f"%s{k} = mesh.all_slice {value} on @m mesh_axes = [{axes}] slice_axis = {d} : {_t(before)} -> {_t(piece)}"
        )
        value = f"%s{k}"
    lines.append(f"%b = arith.addf {value}, {value} : {_t(piece)}")
    value = "%b"
    cut_axes = [a for d in dims for a in cut[d]]
    if draw(st.booleans()):
        axis = draw(st.sampled_from(cut_axes))
        offset = draw(st.integers(1, mesh[axis] - 1)) if mesh[axis] > 1 else 0
        lines.append(
            f"%r = mesh.shift {value} on @m mesh_axes = [{axis}] shift_axis = {axis} offset = {offset} rotate : "
            f"{_t(piece)} -> {_t(piece)}"
        )
        value = "%r"
        event("rotated")
    for k, d in enumerate(draw(st.permutations(dims))):
        count = int(np.prod([mesh[a] for a in cut[d]]))
        before = list(piece)
        piece[d] *= count
        axes = ", ".join(map(str, cut[d]))
        lines.append(
            f"%g{k} = mesh.all_gather {value} on @m mesh_axes = [{axes}] gather_axis = {d} : "
            f"{_t(before)} -> {_t(piece)}"
        )
        value = f"%g{k}"
    lines.append(f"%ga = mesh.shard {value} to %after annotate_for_users : {_t(shape)}")
    lines.append(f"%e = arith.mulf %ga, %x : {_t(shape)}")
    lines.append(f"%out = mesh.shard %e to %after : {_t(shape)}")
    body = "\n  ".join(lines)
    text = f"""mesh.mesh @m(shape = {"x".join(map(str, mesh))})
func.func @f(%x: {_t(shape)}) -> {_t(shape)} {{
  {body}
  return %out : {_t(shape)}
}}
"""
    return text, "x".join(map(str, mesh))


@settings(max_examples=120, deadline=None)
@given(programs(), st.integers(0, 2**31 - 1))
def test_islands_partition_to_the_same_results(program, seed):
    text, _ = program
    rng = np.random.default_rng(seed)
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(text, context=ctx)
    mesh_dialect.pass_manager("builtin.module(sharding-propagation, mesh-partition)", context=ctx).run(module.operation)
    mesh_dialect.verify(module)
    printed = mesh_dialect.print_ir(module)
    event("slices gone" if "all_slice" not in printed else "slices kept")
    event("gathers gone" if "all_gather" not in printed else "gathers kept")
    reference = Simulation(mesh_dialect.parse(text, context=ctx), mesh="m")
    args = [rng.integers(-3, 4, size=tuple(t.shape)).astype(np.float32) for t in reference.signature("f").arg_types]
    expected = reference.run("f", args, spmd=True)
    got = Simulation(module).run("f", args)
    np.testing.assert_array_equal(got[0], expected[0])
