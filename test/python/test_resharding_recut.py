"""Moving the cut of a split dimension (`sharding.recut`, the planner's
Recut step): the rounds deliver every new piece and never deadlock, the
planner takes them only where they receive fewer bytes, `sim.plans`
runs them as partition writes them, and partitioned programs compute the
value and receive what the plan says."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from reshard_programs import partitioned, pattern_tensor, reshard_program

from mesh_dialect.sharding import Mesh, Sharding
from mesh_dialect.sharding import resharding as rs
from mesh_dialect.sharding.recut import MAX_RECUT_ROUNDS, recut_plan, run_recut
from mesh_dialect.sim.api import Simulation
from mesh_dialect.sim.collectives import count_traffic
from mesh_dialect.sim.layout import shard
from mesh_dialect.sim.plans import execute


def cuts(size: int, n: int) -> list[tuple[int, ...]]:
    """Every cut of `size` elements into `n` pieces (empty ones included)."""
    return [(0, *inner, size) for inner in itertools.combinations_with_replacement(range(size + 1), n - 1)]


def completes(dest: list[int], source: list[int], first: tuple[bool, ...]) -> bool:
    """Whether a round of blocking sends finishes when each device runs its
    send and receive in the order `first` says."""
    todo = []
    for j in range(len(dest)):
        ops = [("send", dest[j])] if dest[j] != j else []
        if source[j] != j:
            ops.insert(len(ops) if first[j] else 0, ("recv", source[j]))
        todo.append(ops)
    while any(todo):
        moved = False
        for j, ops in enumerate(todo):
            if ops and ops[0][0] == "send" and todo[ops[0][1]] and todo[ops[0][1]][0] == ("recv", j):
                todo[ops[0][1]].pop(0)
                ops.pop(0)
                moved = True
        if not moved:
            return False
    return True


@pytest.mark.parametrize(("size", "n"), [(0, 2), (5, 2), (7, 3), (9, 4), (6, 5)])
def test_every_recut_delivers_each_new_piece_and_completes(size: int, n: int) -> None:
    for before, after in itertools.product(cuts(size, n), repeat=2):
        plan = recut_plan(before, after, max_rounds=2 * n)
        assert plan is not None
        old = [list(range(before[p], before[p + 1])) for p in range(n)]
        assert run_recut(plan, old) == [list(range(after[p], after[p + 1])) for p in range(n)], (before, after)
        for r in plan.rounds:
            dest = [q - r.distance if r.sends(q) else q for q in range(n)]
            source = [p + r.distance if r.receives(p) else p for p in range(n)]
            assert completes(dest, source, r.send_first), (before, after, r)
            assert r.block == max(r.recv_count) > 0


def test_a_cut_one_row_later_takes_one_round_of_one_row() -> None:
    plan = recut_plan((0, 8, 16, 24, 32), (0, 9, 17, 25, 32))
    assert plan is not None
    assert (plan.keep_from, plan.keep_at, plan.keep_count) == ((0, 1, 1, 1), (0, 0, 0, 0), (8, 7, 7, 7))
    (r,) = plan.rounds
    assert (r.distance, r.block, r.recv_at, r.recv_count) == (1, 1, (8, 7, 7, 0), (1, 1, 1, 0))
    assert plan.received_rows() == (1, 1, 1, 0) and plan.padding() == 0
    # an empty piece pads its block though it sends nothing
    empty = recut_plan((0, 4, 4, 8), (0, 3, 5, 8))
    assert empty is not None and [r.distance for r in empty.rounds] == [-1, 1] and empty.padding() == 1


def test_a_block_longer_than_a_sender_piece_is_padded() -> None:
    # position 1 sends its 1 row, position 2 its 3: blocks of 3 rows, and
    # position 1's block reaches 2 rows past its piece
    plan = recut_plan((0, 2, 3, 6), (0, 3, 6, 6))
    assert plan is not None
    assert [(r.distance, r.block) for r in plan.rounds] == [(1, 3)]
    assert plan.padding() == 2


def test_more_distances_than_the_limit_are_not_planned() -> None:
    n = MAX_RECUT_ROUNDS + 2
    before = tuple(range(n + 1))
    after = (0,) * n + (n,)  # the last position gathers everything
    assert recut_plan(before, after) is None
    assert len(recut_plan(before, after, max_rounds=n).rounds) == n - 1


def S(split, offsets=()) -> Sharding:
    return Sharding(tuple(tuple(a) for a in split), sharded_dims_offsets=tuple(offsets))


def test_the_planner_recuts_where_it_gathered() -> None:
    # x[1:] of 32 elements on 4 devices, its outputs cut as the mesh cuts 31
    plan = rs.plan_resharding((32,), (4,), S([[0]]), S([[0]], (0, 9, 17, 25, 32)))
    assert plan.steps == (rs.Recut(0, (0,), (0, 9, 17, 25, 32), 1),)
    assert plan.bytes_received == plan.lower_bound == 4
    line = "  1. recut mesh_axes = [0] axis = 0 at [0, 9, 17, 25, 32] in 1 rounds  ->  "
    assert str(plan).splitlines()[1] == line + "split_axes = [[0]] sharded_dims_offsets = [0, 9, 17, 25, 32]  (4 bytes)"
    collectives = rs.plan_resharding((32,), (4,), S([[0]]), S([[0]], (0, 9, 17, 25, 32)), exchange=False)
    assert not any(isinstance(s, rs.Recut) for s in collectives.steps) and collectives.bytes_received > 4
    # the rows of an uneven other dimension come along: 5 rows over 2, a device's 3
    two = rs.plan_resharding(
        (5, 16), (2, 4), S([[0], [1]], (0, 2, 5, 0, 4, 8, 12, 16)), S([[0], [1]], (0, 2, 5, 0, 3, 7, 11, 16))
    )
    assert two.steps == (rs.Recut(1, (1,), (0, 3, 7, 11, 16), 1),) and two.bytes_received == 12


def test_the_planner_keeps_collectives_that_move_less() -> None:
    # every row to the last device: a gather moves as much in one step
    plan = rs.plan_resharding((8,), (4,), S([[0]]), S([[0]], (0, 0, 0, 0, 8)))
    assert not any(isinstance(s, rs.Recut) for s in plan.steps)


def uneven_pairs(shape: tuple[int, ...], mesh_shape: tuple[int, ...], count: int, seed: int):
    """Random pairs of layouts splitting the same dimensions over the same
    axes, cut in different places (some at the default cut)."""
    rng = random.Random(seed)
    mesh = Mesh(mesh_shape)
    layouts = [s for s in rs.all_split_layouts(len(mesh_shape), len(shape)) if any(s)]
    out = []
    while len(out) < count:
        split = rng.choice(layouts)

        def cut(dim_axes, size):
            n = mesh.group_size(dim_axes)
            if rng.random() < 0.3:
                return Sharding((tuple(dim_axes),)).cut(0, size, mesh)
            inner = sorted(rng.randint(0, size) for _ in range(n - 1))
            return (0, *inner, size)

        offsets = [[], []]
        for d, axes in enumerate(split):
            if axes:
                for k in range(2):
                    offsets[k] += cut(axes, shape[d])
        source, target = S(split, offsets[0]), S(split, offsets[1])
        if source != target:
            out.append((source, target))
    return out


CASES = [((9,), (4,)), ((7, 5), (2, 3)), ((6, 4, 3), (2, 2, 2))]


@pytest.mark.parametrize(("shape", "mesh_shape"), CASES)
def test_executed_recuts_give_the_target_pieces(shape, mesh_shape) -> None:
    mesh = Mesh(mesh_shape)
    whole = pattern_tensor(shape)
    recut = 0
    for source, target in uneven_pairs(shape, mesh_shape, 60, seed=len(shape)):
        plan = rs.plan_resharding(shape, mesh_shape, source, target)
        recut += any(isinstance(s, rs.Recut) for s in plan.steps)
        _executes_to_target(plan, whole, mesh)
    assert recut > 10


def _executes_to_target(plan: rs.Plan, whole: np.ndarray, mesh: Mesh) -> None:
    """`plan` run by `sim.plans` gives every device its piece of `whole` in
    the target layout, each receiving at most the plan's bytes."""
    source, target = plan.source, plan.target
    with count_traffic() as counted:
        out = execute(plan, shard(whole, source, mesh), mesh)
    assert max(counted.values(), default=0) == plan.bytes_received, (source, target)
    want = shard(whole, target, mesh)
    for d in mesh.devices():
        np.testing.assert_array_equal(out[d], want[d], err_msg=f"{source} -> {target}, device {d}")


def _partitioned_computes(plan: rs.Plan, x: np.ndarray) -> str:
    """The partitioned program of `reshard_program` for the plan's layouts
    computes its value (`x + x`; a partial target's `x`, which the simulator
    sums from its terms) and receives the plan's bytes; its text."""
    source, target = plan.source, plan.target
    module = partitioned(reshard_program(x.shape, plan.mesh_shape, source, target))
    with count_traffic() as counted:
        got = Simulation(module).run("f", [x], seed=None)
    np.testing.assert_array_equal(got[0], x if target.partial_axes else x + x, err_msg=f"{source} -> {target}")
    assert max(counted.values(), default=0) == plan.bytes_received, (source, target)
    return str(module)


@pytest.mark.parametrize(("shape", "mesh_shape"), CASES)
def test_partitioned_recuts_compute_the_value_and_receive_the_plans_bytes(shape, mesh_shape) -> None:
    x = pattern_tensor(shape)
    seen = 0
    for source, target in uneven_pairs(shape, mesh_shape, 40, seed=10 + len(shape)):
        plan = rs.plan_resharding(shape, mesh_shape, source, target)
        if not any(isinstance(s, rs.Recut) for s in plan.steps):
            continue
        seen += 1
        assert "mesh.all_gather" not in _partitioned_computes(plan, x)
    assert seen > 5


def test_a_recut_follows_or_precedes_the_collectives_of_another_dimension() -> None:
    # rows split over axis 0 recut 4, 4 -> 3, 5 while the columns are gathered
    # over axis 1: 48 bytes of columns and 24 of one row (the gather of the
    # rows and their cut again received 108)
    plan = rs.plan_resharding((8, 6), (2, 2), S([[0], [1]]), S([[0]], (0, 3, 8)))
    assert [str(s) for s in plan.steps] == [
        "all_gather mesh_axes = [1] gather_axis = 1",
        "recut mesh_axes = [0] axis = 0 at [0, 3, 8] in 1 rounds",
    ]
    assert plan.step_bytes == (48, 24) and plan.bytes_received == 72
    searched = rs.plan_resharding((8, 6), (2, 2), S([[0], [1]]), S([[0]], (0, 3, 8)), exchange=False)
    assert searched.bytes_received == 108
    # the other way the recut goes first, on the pieces before they are cut
    # again: one row of 3 columns (12 bytes; 60 before)
    back = rs.plan_resharding((8, 6), (2, 2), S([[0]], (0, 3, 8)), S([[0], [1]]))
    assert [str(s) for s in back.steps] == [
        "all_slice mesh_axes = [1] slice_axis = 1",
        "recut mesh_axes = [0] axis = 0 at [0, 4, 8] in 1 rounds",
    ]
    assert back.bytes_received == 12


def mixed_pairs(shape: tuple[int, ...], mesh_shape: tuple[int, ...], count: int, seed: int):
    """Random pairs of layouts that split differently but split some
    dimension over the same axes in both, each cut anywhere (some at the
    default cut), the target partial over a free axis at times."""
    rng = random.Random(seed)
    mesh = Mesh(mesh_shape)
    layouts = [s for s in rs.all_split_layouts(len(mesh_shape), len(shape)) if any(s)]
    out = []
    while len(out) < count:
        a, b = rng.choice(layouts), rng.choice(layouts)
        if a == b or not any(a[d] and a[d] == b[d] for d in range(len(shape))):
            continue

        def cut(dim_axes, size):
            if rng.random() < 0.3:
                return Sharding((tuple(dim_axes),)).cut(0, size, mesh)
            inner = sorted(rng.randint(0, size) for _ in range(mesh.group_size(dim_axes) - 1))
            return (0, *inner, size)

        offsets: list[list[int]] = [[], []]
        for k, split in enumerate((a, b)):
            for d, axes in enumerate(split):
                if axes:
                    offsets[k] += cut(axes, shape[d])
        free = [x for x in range(len(mesh_shape)) if not any(x in axes for axes in b)]
        partial = (rng.choice(free),) if free and rng.random() < 0.3 else ()
        target = Sharding(tuple(tuple(x) for x in b), partial_axes=partial, sharded_dims_offsets=tuple(offsets[1]))
        out.append((S(a, offsets[0]), target))
    return out


def _composed(plan: rs.Plan) -> bool:
    recuts = sum(isinstance(s, rs.Recut) for s in plan.steps)
    return 0 < recuts < len(plan.steps)


MIXED = [((9, 5), (2, 3)), ((7, 5), (2, 2)), ((6, 4, 3), (2, 2, 2))]


@pytest.mark.parametrize(("shape", "mesh_shape"), MIXED)
def test_executed_recuts_beside_collectives_give_the_target_pieces(shape, mesh_shape) -> None:
    mesh = Mesh(mesh_shape)
    whole = pattern_tensor(shape)
    composed = 0
    for source, target in mixed_pairs(shape, mesh_shape, 60, seed=20 + len(shape)):
        plan = rs.plan_resharding(shape, mesh_shape, source, target)
        searched = rs.plan_resharding(shape, mesh_shape, source, target, exchange=False)
        assert plan.bytes_received <= searched.bytes_received, (source, target)
        composed += _composed(plan)
        if not target.partial_axes:  # (partial ones: partitioned below)
            _executes_to_target(plan, whole, mesh)
    assert composed > 20


@pytest.mark.parametrize(("shape", "mesh_shape"), MIXED)
def test_partitioned_recuts_beside_collectives_compute_the_value(shape, mesh_shape) -> None:
    x = pattern_tensor(shape)
    seen = 0
    for source, target in mixed_pairs(shape, mesh_shape, 40, seed=30 + len(shape)):
        plan = rs.plan_resharding(shape, mesh_shape, source, target)
        if not _composed(plan):
            continue
        seen += 1
        _partitioned_computes(plan, x)
    assert seen > 5
