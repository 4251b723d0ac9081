"""A reshard of pieces of different sizes cuts and joins one piece per group
member.  Up to mesh-partition's `unroll-limit` members it writes each
member's slices out; past it (a 65536-device axis hung partition) it loops
over the members with `scf.for`, reading each member's offset and size
from constant tables.  With the limit at 0 every such reshard loops on
meshes small enough to simulate: the loops must give exactly the original
program's result, with the plan's traffic, on meshes of several shapes,
with offsets and empty pieces."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from mlir import ir
from reshard_programs import dynamic_reshard_program, partitioned, pattern_tensor, reshard_program
from strategies import dynamic_uneven_problems, uneven_problems

import mesh_dialect
from mesh_dialect.sharding import Sharding
from mesh_dialect.sharding.resharding import plan_resharding
from mesh_dialect.sim.api import Simulation
from mesh_dialect.sim.collectives import count_traffic
from mesh_dialect.transforms.partition.mesh_partition import UNROLL_LIMIT


def _ops(module: ir.Operation) -> list[str]:
    names: list[str] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        names.append(op.name)
        return ir.WalkResult.ADVANCE

    module.walk(visit, ir.WalkOrder.PRE_ORDER)
    return names


def _check_runs(
    module: ir.Operation, shape, mesh_shape, source: Sharding, target: Sharding, traffic: bool = True
) -> None:
    """The partitioned reshard gives exactly the original's result and moves
    the bytes its plan says (`traffic`: a dynamic size moves more, summing
    the sizes of the pieces first)."""
    x = pattern_tensor(shape)
    with count_traffic() as counted:
        got = Simulation(module).run("f", [x], seed=None)
    np.testing.assert_array_equal(got[0], x if target.is_partial else x + x)
    if traffic:
        plan = plan_resharding(shape, mesh_shape, source, target)
        assert max(counted.values(), default=0) == plan.bytes_received, str(plan)


@settings(max_examples=60, deadline=None)
@given(uneven_problems(max_devices=8))
def test_forced_loops_simulate_like_the_original(problem):
    shape, mesh_shape, source, target = problem
    module = partitioned(reshard_program(shape, mesh_shape, source, target), unroll_limit=0)
    _check_runs(module, shape, mesh_shape, source, target)


@settings(max_examples=30, deadline=None)
@given(dynamic_uneven_problems(max_devices=8))
def test_forced_loops_with_dynamic_sizes_simulate_like_the_original(problem):
    # tensor sizes known only at run time: offsets and sizes by formula
    # instead of tables, inside the same loops
    shape, mesh_shape, source, target, dynamic = problem
    text = dynamic_reshard_program(shape, dynamic, mesh_shape, source, target)
    _check_runs(partitioned(text, unroll_limit=0), shape, mesh_shape, source, target, traffic=False)


def _s(split, partial=(), offsets=()) -> Sharding:
    return Sharding(split, partial, "sum", (), offsets)


# (shape, mesh, source, target, the collectives, scf.for loops with the limit at 0)
CASES = {
    # the fuzzer's program on a small axis: 4 rows over 8 devices, 4 pieces empty
    "rows_over_8_mostly_empty": ((4, 12), (1, 8), _s(((1,),)), _s(()), ("all_to_all", "all_gather"), 3),
    "rows_over_2x4": ((4, 12), (2, 4), _s(((0, 1),)), _s(()), ("all_to_all", "all_gather"), 3),
    "rows_over_5": ((3, 7), (5,), _s(((0,),)), _s(((), (0,))), ("all_to_all",), 2),
    "reduce_scatter_2_3_2": ((7, 3), (3,), _s((), (0,)), _s(((0,),)), ("reduce_scatter",), 1),
    "reduce_scatter_empty_pieces": ((2, 3), (4,), _s((), (0,)), _s(((0,),)), ("reduce_scatter",), 1),
    "gather_offsets": ((6, 2), (4,), _s(((0,),), offsets=(0, 1, 1, 4, 6)), _s(()), ("all_gather",), 1),
    "swap_axes_2x3": ((5, 7), (2, 3), _s(((0,), (1,))), _s(((1,), (0,))), ("all_to_all", "send"), 4),
    "mesh_2x2x2": ((3, 5, 2), (2, 2, 2), _s(((0,), (1, 2))), _s(((1, 2), (0,))), ("all_to_all", "send"), 2),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_reshard_loops_and_simulates_exactly(name):
    shape, mesh_shape, source, target, kinds, loops = CASES[name]
    text = reshard_program(shape, mesh_shape, source, target)
    forced = partitioned(text, unroll_limit=0)
    unrolled = partitioned(text, unroll_limit=UNROLL_LIMIT)
    for module, want in ((forced, loops), (unrolled, 0)):
        names = _ops(module)
        assert names.count("scf.for") == want, mesh_dialect.print_ir(module)
        assert all(f"mesh.{kind}" in names for kind in kinds), names
        _check_runs(module, shape, mesh_shape, source, target)


def test_the_limit_is_the_largest_unrolled_group():
    # 7 rows over 5 devices (1, 1, 1, 2, 2) gathered: a group of 5 joins its
    # pieces with one tensor.concat up to a limit of 5, and loops below it
    shape, mesh_shape, source, target = (7, 3), (5,), _s(((0,),)), _s(())
    text = reshard_program(shape, mesh_shape, source, target)
    for limit, loops, concats in ((5, 0, 1), (4, 1, 0)):
        module = partitioned(text, unroll_limit=limit)
        names = _ops(module)
        assert (names.count("scf.for"), names.count("tensor.concat")) == (loops, concats)
        _check_runs(module, shape, mesh_shape, source, target)
