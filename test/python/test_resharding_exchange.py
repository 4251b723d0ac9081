"""The direct exchange (`sharding.exchange`): its schedule delivers every
device its new piece, receives exactly the lower bound, never deadlocks
under synchronous sends, and the planner takes it only where it receives
fewer bytes in no more rounds than the collectives' steps."""

from __future__ import annotations

import dataclasses
import itertools
from types import SimpleNamespace

import numpy as np
import pytest
from reshard_programs import partitioned, pattern_tensor, reshard_program

from mesh_dialect.sharding import Mesh, Sharding
from mesh_dialect.sharding import resharding as rs
from mesh_dialect.sharding.exchange import MAX_DEVICES, Schedule, schedule
from mesh_dialect.sim.api import Simulation
from mesh_dialect.sim.collectives import count_traffic
from mesh_dialect.sim.layout import shard
from mesh_dialect.sim.plans import execute


def S(*split) -> Sharding:
    return Sharding(tuple(tuple(a) for a in split))


def completes(sched: Schedule) -> bool:
    """Whether every round finishes when a send waits for its receive and
    each device runs its send and receive in the schedule's order."""
    for r in sched.rounds:
        n = len(r.dest)
        todo = []
        for j in range(n):
            ops = []
            if r.dest[j] != j:
                ops.append(("send", r.dest[j]))
            if r.source[j] != j:
                ops.insert(0 if not r.send_first[j] else len(ops), ("recv", r.source[j]))
            todo.append(ops)
        while any(todo):
            progressed = False
            for j in range(n):
                if not todo[j] or todo[j][0][0] != "send":
                    continue
                k = todo[j][0][1]
                if todo[k] and todo[k][0] == ("recv", j):
                    todo[j].pop(0)
                    todo[k].pop(0)
                    progressed = True
            if not progressed:
                return False
    return True


CASES = [
    ((32, 16), (2, 4)),
    ((8, 8), (2, 4)),
    ((12, 12), (2, 3)),
    ((4, 8, 4), (2, 2, 2)),
]


@pytest.mark.parametrize(("shape", "mesh_shape"), CASES)
def test_every_schedule_delivers_the_target_and_receives_the_lower_bound(shape, mesh_shape):
    mesh = Mesh(mesh_shape)
    rng = np.random.default_rng(7)
    whole = rng.integers(-1000, 1000, size=shape).astype(np.int32)
    layouts = [S(*split) for split in rs.all_split_layouts(len(mesh_shape), len(shape))]
    scheduled = 0
    for source, target in itertools.product(layouts, repeat=2):
        sched = schedule(shape, mesh, source.split_axes, target.split_axes)
        if sched is None:
            continue
        scheduled += 1
        assert completes(sched), (source, target)
        assert sched.received() * 4 == rs.lower_bound(shape, mesh_shape, source, target), (source, target)
        plan = rs.apply_steps(shape, mesh_shape, source, [rs.Exchange(target.split_axes, len(sched.rounds))])
        assert plan.target == target and plan.bytes_received == plan.lower_bound
        out = execute(plan, shard(whole, source, mesh), mesh)
        want = shard(whole, target, mesh)
        for d in mesh.devices():
            np.testing.assert_array_equal(out[d], want[d], err_msg=f"{source} -> {target}, device {d}")
    assert scheduled > len(layouts)


@pytest.mark.parametrize(("shape", "mesh_shape"), CASES)
def test_a_round_limit_gives_the_same_schedule_or_none(shape, mesh_shape):
    # the planner asks for no more rounds than the collectives' steps: the
    # limit must only cut schedules that exceed it, never change the others
    mesh = Mesh(mesh_shape)
    layouts = [S(*split) for split in rs.all_split_layouts(len(mesh_shape), len(shape))]
    cut = kept = 0
    for source, target in itertools.product(layouts, repeat=2):
        full = schedule(shape, mesh, source.split_axes, target.split_axes)
        if full is None:
            continue
        for limit in range(1, len(full.rounds) + 2):
            limited = schedule(shape, mesh, source.split_axes, target.split_axes, max_rounds=limit)
            if limit < len(full.rounds):
                assert limited is None, (source, target, limit)
                cut += 1
            else:
                assert limited == full, (source, target, limit)
                kept += 1
    assert cut and kept


def test_a_large_mesh_past_the_round_limit_keeps_its_collectives():
    # 1024 devices, 64 blocks per piece: the collectives take 3 steps, and a
    # device lacks 63 blocks of its new piece (the count the limit is checked
    # against before the transfers are listed: 0.77 s to 0.09 s here)
    mesh = Mesh((4, 256))
    assert schedule((1024, 1024), mesh, ((0,), (1,)), ((1,), (0,)), max_rounds=3) is None
    plan = rs.plan_resharding((1024, 1024), (4, 256), S([0], [1]), S([1], [0]))
    assert [type(s) for s in plan.steps] == [rs.AllToAll] * 3


def test_transposed_axes_on_2x4_take_two_rounds_of_one_block():
    # x.T of a 16x32 tensor split [[0], [1]], wanted [[0], [1]] again: the
    # transposed pieces are 8x8 cut [[1], [0]], the wanted ones 16x4
    plan = rs.plan_resharding((32, 16), (2, 4), S([1], [0]), S([0], [1]))
    assert plan.steps == (rs.Exchange(((0,), (1,)), 2),)
    step = "  1. exchange to [[0], [1]] in 2 rounds  ->  split_axes = [[0], [1]]  (256 bytes)"
    assert str(plan).splitlines()[1] == step
    assert plan.bytes_received == plan.lower_bound == 256
    collectives = rs.plan_resharding((32, 16), (2, 4), S([1], [0]), S([0], [1]), exchange=False)
    assert collectives.bytes_received == 480 and len(collectives.steps) == 3
    sched = schedule((32, 16), Mesh((2, 4)), ((1,), (0,)), ((0,), (1,)))
    assert sched is not None
    assert (sched.block, sched.piece, len(sched.rounds)) == ((8, 4), (16, 4), 2)
    # device (0, 0) holds rows 0..7 of its new piece, and receives rows 8..15 from device (0, 1)
    assert sched.own[0][0] == (0, 0) and sched.own[1][0] is None
    assert [r.source[0] for r in sched.rounds] == [1, 0]


def test_the_order_check_catches_two_devices_sending_first():
    sched = schedule((32, 16), Mesh((2, 4)), ((1,), (0,)), ((0,), (1,)))
    assert sched is not None
    r = sched.rounds[0]
    everyone_first = dataclasses.replace(r, send_first=(True,) * len(r.dest))
    assert completes(sched) and not completes(dataclasses.replace(sched, rounds=(everyone_first,)))


def test_the_collectives_stay_where_the_exchange_takes_more_rounds():
    # [[0], [1]] -> [[], [0]] on 2x3: the exchange would receive 288 bytes
    # against 336, but in 6 rounds where the gather and all_to_all are 2 steps
    plan = rs.plan_resharding((12, 12), (2, 3), S([0], [1]), S([], [0]))
    assert [type(s) for s in plan.steps] == [rs.AllGather, rs.AllToAll]
    assert (plan.bytes_received, plan.lower_bound) == (336, 288)
    sched = schedule((12, 12), Mesh((2, 3)), ((0,), (1,)), ((), (0,)))
    assert sched is not None and len(sched.rounds) == 6


def test_no_schedule_past_the_limits_or_where_blocks_do_not_divide():
    # 6 columns cut 4 ways and 3 ways: blocks of 6 / 12
    assert schedule((6, 6), Mesh((4, 3)), ((0,), (1,)), ((1,), (0,))) is None
    big = Mesh((MAX_DEVICES, 2))
    assert schedule((2 * MAX_DEVICES, 4), big, ((0,), (1,)), ((1,), (0,))) is None


def test_partial_and_uneven_layouts_never_exchange():
    partial = Sharding(((1,), (0,)), partial_axes=(), partial_type="sum")
    plan = rs.plan_resharding((32, 16), (2, 4), partial, Sharding(((0,),), partial_axes=(1,)))
    assert not any(isinstance(s, rs.Exchange) for s in plan.steps)
    uneven = rs.plan_resharding((30, 16), (2, 4), S([1], [0]), S([0], [1]))
    assert not any(isinstance(s, rs.Exchange) for s in uneven.steps)
    with pytest.raises(ValueError, match="an exchange moves whole values in pieces of one size only"):
        rs.apply_steps((32, 16), (2, 4), Sharding(((1,),), partial_axes=(0,)), [rs.Exchange(((0,), (1,)), 2)])


def exchanged_pairs(shape, mesh_shape) -> list[tuple[Sharding, Sharding]]:
    layouts = [S(*split) for split in rs.all_split_layouts(len(mesh_shape), len(shape))]
    return [
        (source, target)
        for source, target in itertools.product(layouts, repeat=2)
        if any(isinstance(step, rs.Exchange) for step in rs.plan_resharding(shape, mesh_shape, source, target).steps)
    ]


@pytest.mark.parametrize(("shape", "mesh_shape"), [((8, 8), (2, 4)), ((12, 12), (2, 3)), ((4, 8, 4), (2, 2, 2))])
def test_partitioned_exchanges_compute_the_value_and_receive_the_lower_bound(shape, mesh_shape):
    # every pair the planner exchanges on these meshes (a sample on 2x2x2),
    # written by mesh-partition and run device by device
    pairs = exchanged_pairs(shape, mesh_shape)
    assert pairs
    x = pattern_tensor(shape)
    for source, target in pairs[:: max(1, len(pairs) // 24)]:
        module = partitioned(reshard_program(shape, mesh_shape, source, target))
        with count_traffic() as counted:
            got = Simulation(module).run("f", [x], seed=None)
        np.testing.assert_array_equal(got[0], x + x, err_msg=f"{source} -> {target}")
        assert max(counted.values()) == rs.lower_bound(shape, mesh_shape, source, target), (source, target)


def test_dynamic_sizes_never_exchange():
    # an unsplit dynamic batch: the tables need every size, so the
    # collectives stay (partition wrote a static tensor.empty before)
    source, target = S([], [], [0]), S([], [0], [1])
    static = rs.plan_resharding((4, 16, 16), (2, 4), source, target)
    assert [type(s) for s in static.steps] == [rs.Exchange]
    dynamic = rs.plan_resharding((4, 16, 16), (2, 4), source, target, dynamic_dims=(0,))
    assert not any(isinstance(s, rs.Exchange) for s in dynamic.steps)
    text = reshard_program((4, 16, 16), (2, 4), source, target).replace("tensor<4x16x16xi32>", "tensor<?x16x16xi32>")
    printed = str(partitioned(text))
    assert "mesh.all_to_all" in printed and "mesh.send" not in printed


def test_the_cost_solver_prices_an_exchange_only_where_partition_writes_one():
    # the solver's price of a reshard is partition's: an exchange for static
    # sizes, the collectives for a dynamic dimension or a dynamic mesh axis
    from mesh_dialect.transforms.propagation.graph import costed_mesh
    from mesh_dialect.transforms.propagation.sharding_propagation import _Function
    from mesh_dialect.transforms.propagation.solver import Value

    source, target = S([], [], [0]), S([], [0], [1])

    def price(shape, mesh_shape, dynamic=()):
        fn = SimpleNamespace(mesh_shapes={"m": mesh_shape}, cuts={}, allowance=None)
        return _Function._reshard_plan(fn, Value(shape, 4, dynamic=dynamic), ("m", source), ("m", target))

    exchanged = rs.plan_resharding((4, 16, 16), (2, 4), source, target)
    collectives = rs.plan_resharding((4, 16, 16), (2, 4), source, target, exchange=False)
    assert exchanged.bytes_received < collectives.bytes_received
    assert price((4, 16, 16), (2, 4)) == (exchanged.bytes_received, exchanged.steps[0].rounds)
    assert price((4, 16, 16), (2, 4), dynamic=(0,))[0] == collectives.bytes_received
    # a dynamic mesh axis, costed at a nominal size where the exchange would win
    stand_in = costed_mesh((2, -1))
    source, target = S([], [], [0]), S([], [0, 1])
    on_dynamic_mesh = rs.plan_resharding((4, 8, 8), stand_in, source, target, exchange=False)
    assert rs.plan_resharding((4, 8, 8), stand_in, source, target).bytes_received < on_dynamic_mesh.bytes_received
    assert price((4, 8, 8), (2, -1))[0] == on_dynamic_mesh.bytes_received
