"""mesh-partition end to end: random annotated programs are propagated,
partitioned and run on every device; the assembled results must equal the
original program's exactly (small integers, so sums are exact)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mlir import ir
from mlir.passmanager import PassManager
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


def test_uneven_splits_are_refused_with_a_diagnostic():
    with pytest.raises(ir.MLIRError) as info:
        _partition(UNEVEN)
    assert "dimension 0 of size 6 does not split evenly over mesh axes [0] (4 pieces)" in str(info.value)


def test_the_alias_is_registered():
    assert mesh_dialect.PASSES["mesh-spmdization"].ARGUMENT == "mesh-spmdization"
    assert issubclass(mesh_dialect.PASSES["mesh-spmdization"], MeshPartition)
