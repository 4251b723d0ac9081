"""A `Simulation` whose module changes in place (a pass manager run on it,
an attribute set from Python) runs the program the module now holds, not
the one it compiled first."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from mlir import ir

import mesh_dialect
from mesh_dialect.sim.api import Simulation

ROOT = Path(__file__).resolve().parents[2]

CONSTANT = """\
func.func @f(%a: tensor<64xf32>) -> tensor<64xf32> {
  %c = arith.constant dense<[{values}]> : tensor<64xf32>
  %r = arith.addf %a, %c : tensor<64xf32>
  return %r : tensor<64xf32>
}
"""


def _inputs(shapes, seed=0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s).astype(np.float32) for s in shapes]


def test_a_run_after_partition_simulates_the_partitioned_program():
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse((ROOT / "test/Sim/partition-mlp.mlir").read_text(), context=ctx)
    sim = Simulation(module)
    inputs = _inputs([(2, 4, 8), (8, 32), (32, 8)])
    assert sim.signature("mlp").mesh is None
    reference = sim.run("mlp", inputs)[0]
    mesh_dialect.pass_manager("builtin.module(sharding-propagation, mesh-partition)", context=ctx).run(module)
    sig = sim.signature("mlp")
    assert sig.mesh == "mesh0" and sig.arg_shardings[0] is not None
    assert [tuple(ir.ShapedType(t).shape) for t in sig.arg_types] == [(2, 4, 4), (8, 16), (16, 8)]
    assert set(sim.device_inputs("mlp", inputs)) == {(0,), (1,)}
    np.testing.assert_allclose(sim.run("mlp", inputs)[0], reference, rtol=1e-5, atol=1e-5)


def test_a_changed_large_constant_is_seen():
    ctx = mesh_dialect.context()
    values = np.arange(64, dtype=np.float32)
    module = mesh_dialect.parse(CONSTANT.replace("{values}", ", ".join(f"{v:.1f}" for v in values)), context=ctx)
    sim = Simulation(module)
    zeros = [np.zeros(64, np.float32)]
    np.testing.assert_array_equal(sim.run("f", zeros)[0], values)
    changed = values.copy()
    changed[40] = -1.0  # one element of 64: the whole constant must count, none elided
    body = module.regions[0].blocks[0].operations[0].regions[0].blocks[0]
    with ctx:
        constant = body.operations[0]
        constant.attributes["value"] = ir.DenseElementsAttr.get(changed, type=constant.result.type)
    np.testing.assert_array_equal(sim.run("f", zeros)[0], changed)


def test_function_names_follow_the_module():
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse("func.func @f() { return }\nfunc.func @g() { return }\n", context=ctx)
    sim = Simulation(module)
    assert sim.function_names() == ["f", "g"]
    module.regions[0].blocks[0].operations[1].erase()
    assert sim.function_names() == ["f"]
