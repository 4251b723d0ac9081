"""Resharding pieces of different sizes, by execution: random shapes the
mesh does not divide, random meshes of rank 1-3, random source and target
layouts with and without `sharded_dims_offsets` (and partial axes).  Every
plan runs on the planner's own executor (the simulator's collectives on
padded pieces) and must give the target's pieces and the whole tensor back;
the bytes the plan says each device receives must equal what the
collectives counted while it ran, step by step.  A smaller sample goes
through mesh-partition and the IR simulator, whose traffic must equal the
plan's too."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from mlir import ir
from mlir.passmanager import PassManager
from strategies import uneven_problems

import mesh_dialect
from mesh_dialect.sharding import Mesh, Sharding
from mesh_dialect.sharding.resharding import Plan, execute, plan_resharding
from mesh_dialect.sim.api import Simulation
from mesh_dialect.sim.collectives import count_traffic
from mesh_dialect.sim.layout import assemble, shard
from mesh_dialect.transforms import MeshPartition


def _tensor(shape: tuple[int, ...]) -> np.ndarray:
    return (np.arange(math.prod(shape), dtype=np.int64).reshape(shape) * 7 % 23 - 11).astype(np.int32)


def _run_counting(plan: Plan, x: np.ndarray) -> dict:
    """Execute `plan` step by step on `x`'s source pieces; check each step's
    bytes against the traffic counted in it, and return the final pieces."""
    mesh = Mesh(plan.mesh_shape)
    arrays = shard(x, plan.source, mesh)
    totals = dict.fromkeys(mesh.devices(), 0)
    layout = plan.source
    for step, after, step_bytes in zip(plan.steps, plan.intermediate, plan.step_bytes):
        one = dataclasses.replace(plan, source=layout, steps=(step,), intermediate=(after,))
        with count_traffic() as counted:
            arrays = execute(one, arrays, mesh)
        # int32 elements: 4 bytes each, as the plan counts them
        assert max(counted.values(), default=0) == step_bytes, (str(plan), step)
        for d, n in counted.items():
            totals[d] += n
        layout = after
    assert max(totals.values(), default=0) == plan.bytes_received, str(plan)
    return arrays


@settings(max_examples=300, deadline=None)
@given(uneven_problems())
def test_uneven_plans_execute_to_the_target_and_count_their_bytes(problem):
    shape, mesh_shape, source, target = problem
    plan = plan_resharding(shape, mesh_shape, source, target)
    mesh = Mesh(mesh_shape)
    x = _tensor(shape)
    out = _run_counting(plan, x)
    want = shard(x, plan.target, mesh)
    for d in mesh.devices():
        assert out[d].shape == want[d].shape, (str(plan), d)
        if not plan.target.is_partial:
            np.testing.assert_array_equal(out[d], want[d], err_msg=f"{plan}\ndevice {d}")
    np.testing.assert_array_equal(assemble(out, plan.target, mesh), x)
    assert plan.bytes_received >= plan.lower_bound
    assert plan.bytes_received <= sum(plan.step_bytes)


def _program(shape, mesh_shape, source: Sharding, target: Sharding) -> str:
    """The reshard, then (for a target that is not partial) work on the pieces."""
    t = "tensor<" + "x".join(map(str, shape)) + "xi32>"
    work = f"""  %2 = arith.addi %1, %1 : {t}
  %3 = mesh.shard %2 to %t : {t}
  return %3 : {t}"""
    if target.is_partial:  # elementwise ops do not take partial sums: return it as it is
        work = f"  return %1 : {t}"
    return f"""
mesh.mesh @m(shape = {"x".join(map(str, mesh_shape))})
func.func @f(%x: {t}) -> {t} {{
  %s = mesh.sharding @m {source} : !mesh.sharding
  %t = mesh.sharding @m {target} : !mesh.sharding
  %0 = mesh.shard %x to %s : {t}
  %1 = mesh.shard %0 to %t annotate_for_users : {t}
{work}
}}
"""


def _partitioned(text: str) -> ir.Operation:
    """`text` parsed and partitioned, the result verified."""
    module = mesh_dialect.parse(text, context=mesh_dialect.context())
    pm = PassManager("builtin.module", context=module.context)
    MeshPartition().add_to(pm)
    pm.run(module)
    mesh_dialect.verify(module)
    return module


@settings(max_examples=40, deadline=None)
@given(uneven_problems(max_devices=8))
def test_uneven_reshards_partition_and_simulate_with_the_plans_traffic(problem):
    shape, mesh_shape, source, target = problem
    text = _program(shape, mesh_shape, source, target)
    module = _partitioned(text)
    x = _tensor(shape)
    with count_traffic() as counted:
        got = Simulation(module).run("f", [x], seed=None)
    np.testing.assert_array_equal(got[0], x if target.is_partial else x + x)
    plan = plan_resharding(shape, mesh_shape, source, target)
    assert max(counted.values(), default=0) == plan.bytes_received, str(plan)


def _dynamic_program(shape, dynamic, mesh_shape, dynamic_axes, source: Sharding, target: Sharding) -> str:
    """`_program` with `dynamic` tensor dimensions and mesh axes written `?`."""
    text = _program(shape, mesh_shape, source, target)
    static_type = "tensor<" + "x".join(map(str, shape)) + "xi32>"
    dynamic_type = "tensor<" + "x".join("?" if d in dynamic else str(n) for d, n in enumerate(shape)) + "xi32>"
    dynamic_mesh = "x".join("?" if a in dynamic_axes else str(n) for a, n in enumerate(mesh_shape))
    text = text.replace(static_type, dynamic_type)
    return text.replace("shape = " + "x".join(map(str, mesh_shape)) + ")", f"shape = {dynamic_mesh})")


@settings(max_examples=40, deadline=None)
@given(uneven_problems(max_devices=8), st.data())
def test_dynamic_sizes_partition_and_simulate(problem, data):
    # Sizes known only at run time: tensor dimensions and mesh axes written
    # `?`; the mesh gets its sizes back before the simulator runs it.
    shape, mesh_shape, source, target = problem
    source = Sharding(source.split_axes, source.partial_axes, source.partial_type)
    target = Sharding(target.split_axes, target.partial_axes, target.partial_type)
    dynamic = data.draw(st.sets(st.integers(0, len(shape) - 1), min_size=1))
    dynamic_axes = data.draw(st.sets(st.integers(0, len(mesh_shape) - 1)))
    text = _dynamic_program(shape, dynamic, mesh_shape, dynamic_axes, source, target)
    module = _partitioned(text)
    printed = mesh_dialect.print_ir(module)
    dynamic_mesh = "x".join("?" if a in dynamic_axes else str(n) for a, n in enumerate(mesh_shape))
    printed = printed.replace(f"shape = {dynamic_mesh})", "shape = " + "x".join(map(str, mesh_shape)) + ")")
    x = _tensor(shape)
    got = Simulation(mesh_dialect.parse(printed, context=mesh_dialect.context())).run("f", [x], seed=None)
    np.testing.assert_array_equal(got[0], x if target.is_partial else x + x)
