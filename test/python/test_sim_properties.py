"""Properties of the simulator on random meshes, shapes and layouts.

Each generated program is run through IR (parse, compile, every device), so
these tie the order in which collectives combine pieces to the order in
which layouts cut tensors: all-gathering every split dimension of a sharded
tensor rebuilds it, and all-slicing a replicated one gives the layout."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import mesh_dialect
from mesh_dialect.sim.api import Simulation


@st.composite
def layouts(draw):
    """A mesh, a tensor shape and split axes (each mesh axis to one tensor
    dimension or to none, in a random order within the dimension)."""
    mesh = tuple(draw(st.lists(st.integers(1, 3), min_size=1, max_size=3)))
    rank = draw(st.integers(1, 3))
    split: list[list[int]] = [[] for _ in range(rank)]
    for axis in draw(st.permutations(range(len(mesh)))):
        dim = draw(st.integers(-1, rank - 1))
        if dim >= 0:
            split[dim].append(axis)
    shape = []
    for axes in split:
        pieces = int(np.prod([mesh[a] for a in axes])) if axes else 1
        shape.append(pieces * draw(st.integers(1, 2)))
    return mesh, tuple(shape), split


def _type(shape) -> str:
    return "tensor<" + "x".join(map(str, shape)) + "xi32>"


def _fmt(split) -> str:
    return "[" + ", ".join("[" + ", ".join(map(str, a)) + "]" for a in split) + "]"


def _local(shape, split, mesh):
    return [n // int(np.prod([mesh[a] for a in axes])) if axes else n for n, axes in zip(shape, split)]


def _run(text: str, x: np.ndarray) -> np.ndarray:
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(text, context=ctx)
    with ctx:
        (y,) = Simulation(module).run("f", [x])
    return y


def _chain(op: str, axis_name: str, split, start, target):
    """`op` over each split dimension in turn, from the `start` shape to the
    `target` shape of that dimension: returns the lines and the last value."""
    current = list(start)
    lines, value = [], "%x"
    for dim, axes in enumerate(split):
        if not axes:
            continue
        before = list(current)
        current[dim] = target[dim]
        lines.append(
            f"  %v{dim} = mesh.{op} {value} on @m mesh_axes = [{', '.join(map(str, axes))}] "
            f"{axis_name} = {dim} : {_type(before)} -> {_type(current)}"
        )
        value = f"%v{dim}"
    return lines, value


@settings(max_examples=40, deadline=None)
@given(layouts(), st.integers(0, 2**31 - 1))
def test_all_gather_of_every_split_dimension_rebuilds_the_tensor(layout, seed):
    mesh, shape, split = layout
    x = np.random.default_rng(seed).integers(-100, 100, shape).astype(np.int32)
    local = _local(shape, split, mesh)
    lines, value = _chain("all_gather", "gather_axis", split, local, shape)
    text = (
        f"mesh.mesh @m(shape = {'x'.join(map(str, mesh))})\n"
        f"func.func @f(%x: {_type(local)} {{mesh.sharding = #mesh.sharding<@m, {_fmt(split)}>}})"
        f" -> {_type(shape)} {{\n" + "\n".join(lines) + f"\n  return {value} : {_type(shape)}\n}}\n"
    )
    np.testing.assert_array_equal(_run(text, x), x)


@settings(max_examples=40, deadline=None)
@given(layouts(), st.integers(0, 2**31 - 1))
def test_all_slice_of_a_replicated_tensor_gives_the_layout(layout, seed):
    mesh, shape, split = layout
    x = np.random.default_rng(seed).integers(-100, 100, shape).astype(np.int32)
    local = _local(shape, split, mesh)
    lines, value = _chain("all_slice", "slice_axis", split, shape, local)
    text = (
        f"mesh.mesh @m(shape = {'x'.join(map(str, mesh))})\n"
        f"func.func @f(%x: {_type(shape)}) -> ({_type(local)} "
        f"{{mesh.sharding = #mesh.sharding<@m, {_fmt(split)}>}}) {{\n"
        + "\n".join(lines)
        + f"\n  return {value} : {_type(local)}\n}}\n"
    )
    np.testing.assert_array_equal(_run(text, x), x)
