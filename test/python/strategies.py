"""Hypothesis strategies shared by the resharding tests: random meshes and
pairs of layouts of a tensor on them, with pieces of one size
(`problems`) or of sizes drawn freely (`uneven_problems`); and split axes
for the slice tests' programs (`split_axes`, spelled by `split_text`)."""

from __future__ import annotations

import math

from hypothesis import strategies as st

from mesh_dialect.sharding import Sharding

KINDS = ("sum", "max")


@st.composite
def split_axes(draw, rank: int, axes: int) -> list[list[int]]:
    """Per dimension of a tensor of `rank`, the mesh axes splitting it:
    each of `axes` mesh axes splits one dimension or none."""
    split: list[list[int]] = [[] for _ in range(rank)]
    for a in range(axes):
        d = draw(st.integers(-1, rank - 1))  # -1: this axis splits nothing
        if d >= 0:
            split[d].append(a)
    return split


def split_text(split: list[list[int]]) -> str:
    """`split_axes` as a `mesh.sharding` spells it: `[[0], [], [1, 2]]`."""
    return f"[{', '.join('[' + ', '.join(map(str, s)) + ']' for s in split)}]"


def draw_mesh(draw, ranks: tuple[int, int], axis_sizes: tuple[int, int], max_devices: int) -> tuple[int, ...]:
    """A mesh shape, its axes shrunk together until it has at most `max_devices` devices."""
    mesh = tuple(draw(st.lists(st.integers(*axis_sizes), min_size=ranks[0], max_size=ranks[1])))
    while math.prod(mesh) > max_devices:
        mesh = tuple(max(n - 1, 1) for n in mesh)
    return mesh


def draw_layout(
    draw, mesh: tuple[int, ...], rank: int, partial_ok: bool, kinds: tuple[str, ...], shape: tuple[int, ...] | None
) -> Sharding:
    """Every mesh axis, in a random order, to a tensor dimension, to the
    partial axes (when `partial_ok`) or to none; with a `shape`, explicit
    piece offsets on about a third of the layouts."""
    split: list[list[int]] = [[] for _ in range(rank)]
    partial = []
    for a in draw(st.permutations(range(len(mesh)))):
        where = draw(st.integers(-2 if partial_ok else -1, rank - 1))
        if where >= 0:
            split[where].append(a)
        elif where == -2:
            partial.append(a)
    offsets: list[int] = []
    if shape is not None and draw(st.integers(0, 2)) == 0:
        for d, axes in enumerate(split):
            if axes:
                n = math.prod(mesh[a] for a in axes)
                cuts = sorted(draw(st.lists(st.integers(0, shape[d]), min_size=n - 1, max_size=n - 1)))
                offsets += [0, *cuts, shape[d]]
    kind = draw(st.sampled_from(kinds))
    return Sharding(tuple(map(tuple, split)), tuple(partial), kind, (), tuple(offsets))


@st.composite
def problems(draw, mesh_ranks=(1, 3), max_devices=12, axis_sizes=(1, 3), kinds=KINDS):
    """(shape, mesh shape, source, target) with every size a multiple of
    both layouts' piece counts, so every piece has one size."""
    mesh = draw_mesh(draw, mesh_ranks, axis_sizes, max_devices)
    rank = draw(st.integers(1, 3))
    source = draw_layout(draw, mesh, rank, True, kinds, None)
    target = draw_layout(draw, mesh, rank, draw(st.booleans()), kinds, None)
    shape = []
    for d in range(rank):
        n = math.lcm(*(math.prod(mesh[a] for a in s.axes_of(d)) for s in (source, target)))
        shape.append(n * draw(st.integers(1, 2)))
    return tuple(shape), mesh, source, target


@st.composite
def uneven_problems(draw, max_devices: int = 12):
    """(shape, mesh shape, source, target) with sizes drawn freely (0 to 13),
    so most splits are uneven, and offsets on about a third of the layouts."""
    mesh = draw_mesh(draw, (1, 3), (1, 4), max_devices)
    rank = draw(st.integers(1, 3))
    shape = tuple(draw(st.integers(0, 13)) for _ in range(rank))
    source = draw_layout(draw, mesh, rank, True, KINDS, shape)
    return shape, mesh, source, draw_layout(draw, mesh, rank, draw(st.booleans()), KINDS, shape)


@st.composite
def dynamic_uneven_problems(draw, max_devices: int = 12):
    """(shape, mesh shape, source, target, dynamic): `uneven_problems` with
    no offsets (sizes known only at run time have none) and the tensor
    dimensions to write `?`, at least one."""
    shape, mesh, source, target = draw(uneven_problems(max_devices))
    source, target = (Sharding(s.split_axes, s.partial_axes, s.partial_type) for s in (source, target))
    return shape, mesh, source, target, draw(st.sets(st.integers(0, len(shape) - 1), min_size=1))


@st.composite
def partial_problems(draw, max_devices: int = 16):
    """`problems` whose source is always partial, on mesh axes of 2 to 4
    devices (so partial groups of 3 and more are common), with a partial
    target about half the time: the cases the search bound treats apart."""
    shape, mesh, source, target = draw(problems(axis_sizes=(2, 4), max_devices=max_devices))
    if not source.is_partial:
        # the axis the source leaves free, or else its first split one, goes partial
        used = [a for axes in source.split_axes for a in axes]
        free = [a for a in range(len(mesh)) if a not in used]
        axis = free[0] if free else used[0]
        split = tuple(tuple(a for a in axes if a != axis) for axes in source.split_axes)
        source = Sharding(split, (axis,), source.partial_type)
    return shape, mesh, source, target
