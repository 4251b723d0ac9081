"""mesh-partition end to end: random annotated programs are propagated,
partitioned and run on every device; the assembled results must equal the
original program's exactly (small integers, so sums are exact)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from mlir import ir
from mlir.passmanager import PassManager
from test_resharding import problems
from test_sharding_propagation import _context, programs

import mesh_dialect
from mesh_dialect.sim.api import Simulation
from mesh_dialect.transforms import MeshPartition


def _partition(text: str, **options) -> ir.Operation:
    module = mesh_dialect.parse(text, context=_context())
    with _context():
        pm = PassManager("builtin.module")
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
    module = mesh_dialect.parse(text, context=_context())
    with _context():
        pm = PassManager("builtin.module")
        MeshPartition().add_to(pm)
        pm.run(module)
    mesh_dialect.verify(module)
    x = np.random.default_rng(seed).integers(-50, 50, size=shape).astype(np.int32)
    np.testing.assert_array_equal(Simulation(module).run("f", [x])[0], x)
