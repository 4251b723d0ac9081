"""mesh-partition end to end: random annotated programs are propagated,
partitioned and run on every device; the assembled results must equal the
original program's exactly (small integers, so sums are exact)."""

from __future__ import annotations

import numpy as np
from hypothesis import event, given, settings
from hypothesis import strategies as st
from mlir import ir
from mlir.passmanager import PassManager
from strategies import problems, uneven_problems
from test_sharding_propagation import _context, programs

import mesh_dialect
from mesh_dialect.sharding.spec import Mesh, Sharding
from mesh_dialect.sim.api import Simulation
from mesh_dialect.transforms import MeshPartition
from mesh_dialect.transforms.partition.mesh_partition import _slices_only


def _partition(text: str, propagate: bool = True, **options) -> ir.Operation:
    """`text` partitioned (after propagation, or as its annotations say), verified."""
    module = mesh_dialect.parse(text, context=_context())
    with _context():
        pm = PassManager("builtin.module")
        if propagate:
            mesh_dialect.ShardingPropagation().add_to(pm)
        MeshPartition(**options).add_to(pm)
        pm.run(module)
    mesh_dialect.verify(module)
    return module


def _inputs(text: str, seed: int) -> list[np.ndarray]:
    sig = Simulation(mesh_dialect.parse(text, context=_context())).signature("f")
    rng = np.random.default_rng(seed)
    return [rng.integers(-3, 4, size=tuple(t.shape)).astype(np.float32) for t in sig.arg_types]


@settings(max_examples=60, deadline=None)
@given(programs(), st.integers(0, 2**31 - 1), st.booleans())
def test_random_programs_partition_to_the_same_results(text, seed, full_arguments):
    module = _partition(text, full_arguments=full_arguments)
    printed = mesh_dialect.print_ir(module)
    assert "mesh.shard " not in printed and "mesh.sharding_option" not in printed
    args = _inputs(text, seed)
    expected = Simulation(mesh_dialect.parse(text, context=_context())).run("f", args)
    got = Simulation(module).run("f", args)
    if "tanh" in text:  # non-integer values: local and global matmuls may round differently
        np.testing.assert_allclose(got[0], expected[0], rtol=1e-5, atol=1e-5)
    else:
        np.testing.assert_array_equal(got[0], expected[0])


UNEVEN = """
mesh.mesh @mesh(shape = 4)
func.func @f(%a: tensor<6x8xf32>) -> tensor<6x8xf32> {
  %s = mesh.sharding @mesh split_axes = [[0]] : !mesh.sharding
  %a0 = mesh.shard %a to %s : tensor<6x8xf32>
  %t = tosa.tanh %a0 : (tensor<6x8xf32>) -> tensor<6x8xf32>
  return %t : tensor<6x8xf32>
}
"""


def test_uneven_splits_partition_to_the_same_results():
    # 6 rows over 4 devices: pieces of 1, 1, 2, 2 rows (upstream's shard_shape)
    module = _partition(UNEVEN)
    assert "tensor<?x8xf32>" in mesh_dialect.print_ir(module)
    args = _inputs(UNEVEN, 0)
    expected = Simulation(mesh_dialect.parse(UNEVEN, context=_context())).run("f", args)
    np.testing.assert_allclose(Simulation(module).run("f", args)[0], expected[0], rtol=1e-6)


def test_the_alias_is_registered():
    assert mesh_dialect.PASSES["mesh-spmdization"].ARGUMENT == "mesh-spmdization"
    assert issubclass(mesh_dialect.PASSES["mesh-spmdization"], MeshPartition)


def _layout_text(s) -> str:
    text = "split_axes = [" + ", ".join("[" + ", ".join(map(str, axes)) + "]" for axes in (s.split_axes or ((),))) + "]"
    if s.partial_axes:
        text += f" partial = {s.partial_type} [" + ", ".join(map(str, s.partial_axes)) + "]"
    return text


@st.composite
def round_trips(draw):
    """(shape, mesh, first layout, second layout): the second extends the
    first's split axes by some of another layout's about half the time (the
    way there only slices), and is that other layout otherwise."""
    shape, mesh, source, other = draw(st.one_of(problems(), uneven_problems()))
    if draw(st.booleans()):
        used = {a for axes in source.split_axes for a in axes} | set(source.partial_axes)
        split = []
        for d in range(len(shape)):
            had = source.split_axes[d] if d < len(source.split_axes) else ()
            more = tuple(a for a in (other.split_axes[d] if d < len(other.split_axes) else ()) if a not in used)
            used.update(more)
            split.append(had + more)
        other = Sharding(tuple(split), source.partial_axes, source.partial_type)
    return shape, mesh, source, other


@settings(max_examples=150, deadline=None)
@given(round_trips(), st.integers(0, 2**31 - 1))
def test_random_round_trips_simulate_to_the_value_and_move_nothing_after_a_slice(trip, seed):
    """A value annotated in a second layout and read back in its first: the
    way back is the value itself where the way there only sliced it (no
    collective but the slice), and the global value survives either way."""
    shape, mesh, first, second = trip
    t = "tensor<" + "".join(f"{n}x" for n in shape) + "i32>"
    text = (
        f"mesh.mesh @mesh(shape = {'x'.join(map(str, mesh))})\n"
        f"func.func @f(%x: {t}) -> ({t}, {t}) {{\n"
        f"  %s0 = mesh.sharding @mesh {first} : !mesh.sharding\n"
        f"  %0 = mesh.shard %x to %s0 : {t}\n"
        f"  %s1 = mesh.sharding @mesh {second} : !mesh.sharding\n"
        f"  %1 = mesh.shard %0 to %s1 : {t}\n"
        f"  %2 = mesh.shard %1 to %s0 annotate_for_users : {t}\n"
        f"  return %2, %1 : {t}, {t}\n}}\n"
    )
    module = _partition(text, propagate=False)
    x = np.random.default_rng(seed).integers(-50, 50, size=shape).astype(np.int32)
    back, there = Simulation(module).run("f", [x])
    np.testing.assert_array_equal(back, x)
    np.testing.assert_array_equal(there, x)
    with _context(), ir.Location.unknown():
        whole = ir.RankedTensorType.get(shape, ir.IntegerType.get_signless(32))
        only_slices = _slices_only(first, second, whole, Mesh(mesh))
    event("the way there only slices" if only_slices else "the way there moves data or starts partial")
    if only_slices:
        printed = mesh_dialect.print_ir(module)
        moving = ("all_gather", "all_to_all", "all_reduce", "send", "recv", "shift", "update_halo")
        assert not [k for k in moving if f"mesh.{k} " in printed], printed


@settings(max_examples=60, deadline=None)
@given(problems(), st.integers(0, 2**31 - 1))
def test_random_reshardings_emit_ir_that_simulates_to_the_target(problem, seed):
    """Planner steps as IR (collectives, slices, send/recv permutations):
    the argument arrives in the source layout, the result must leave in the
    target layout with the same global value."""
    shape, mesh, source, target = problem
    t = "tensor<" + "x".join(map(str, shape)) + "xi32>"
    text = (
        f"mesh.mesh @mesh(shape = {'x'.join(map(str, mesh))})\n"
        f"func.func @f(%x: {t}) -> {t} {{\n"
        f"  %s0 = mesh.sharding @mesh {_layout_text(source)} : !mesh.sharding\n"
        f"  %0 = mesh.shard %x to %s0 : {t}\n"
        f"  %s1 = mesh.sharding @mesh {_layout_text(target)} : !mesh.sharding\n"
        f"  %1 = mesh.shard %0 to %s1 annotate_for_users : {t}\n"
        f"  return %1 : {t}\n}}\n"
    )
    module = _partition(text, propagate=False)
    x = np.random.default_rng(seed).integers(-50, 50, size=shape).astype(np.int32)
    np.testing.assert_array_equal(Simulation(module).run("f", [x])[0], x)
