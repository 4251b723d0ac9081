"""The resharding planner at scale: the decomposition used past the exact
search's budget (4-7 axis meshes, checked by execution and against its
documented bound), meshes too large to list (65536x65536, 1000x1000x1000),
and integer `average` partials reduced over their whole group at once."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import partial_problems, uneven_problems
from test_resharding import problems as base_problems

from mesh_dialect.sharding import Mesh, Sharding
from mesh_dialect.sharding import resharding as rs
from mesh_dialect.sharding.resharding import (
    AllGather,
    AllReduce,
    AllSlice,
    AllToAll,
    Exchange,
    Partialize,
    Permute,
    Plan,
    ReduceScatter,
    apply_steps,
    plan_resharding,
)
from mesh_dialect.sim.layout import assemble, shard
from mesh_dialect.sim.plans import execute


def S(*split, partial=(), kind="sum") -> Sharding:
    return Sharding(tuple(tuple(a) for a in split), tuple(partial), kind)


def run(plan: Plan, global_array: np.ndarray) -> None:
    """Shard by the source, execute, compare every device with the target exactly."""
    mesh = Mesh(plan.mesh_shape)
    out = execute(plan, shard(global_array, plan.source, mesh), mesh)
    want = shard(global_array, plan.target, mesh)
    for d in mesh.devices():
        np.testing.assert_array_equal(out[d], want[d], err_msg=f"device {d}")


@pytest.fixture
def decompose_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every plan comes from the decomposition (an exact-search budget of 0)."""
    monkeypatch.setattr(rs, "EXACT_SEARCH_BUDGET", 0)


def bound(shape, mesh_shape, source: Sharding, target: Sharding, element_bytes: int = 4) -> int:
    """The decomposition's bound of the module docstring, computed from scratch."""
    sizes = mesh_shape
    rank = len(shape)

    def count(axes) -> int:
        return math.prod(sizes[a] for a in axes)

    e = math.prod(n // count(source.axes_of(d)) for d, n in enumerate(shape))
    r = 0
    keep = source.partial_type == target.partial_type
    if source.partial_axes and not (keep and set(source.partial_axes) <= set(target.partial_axes)):
        some = keep and source.partial_type != "average"
        g = count([a for a in source.partial_axes if not (some and a in target.partial_axes)])
        r = 2 * (e - e // g)
    lcp, moved = [], []
    for d in range(rank):
        a, b = source.axes_of(d), target.axes_of(d)
        k = 0
        while k < min(len(a), len(b)) and a[k] == b[k]:
            k += 1
        lcp.append(a[:k])
        moved += a[k:]
    e_lcp = math.prod(n // count(lcp[d]) for d, n in enumerate(shape))
    greedy = sum((1 - 1 / sizes[a]) * e_lcp for a in moved)
    return int(element_bytes * (r + min(math.prod(shape) - e, greedy)))


# -- average partials --------------------------------------------------------------


def average_terms(mesh: Mesh, terms: dict) -> dict:
    return {d: np.full((2, 2), terms[d], dtype=np.int64) for d in mesh.devices()}


@pytest.mark.parametrize(
    "target",
    [S([0], [1]), S(), S(partial=[0], kind="average"), S([1], partial=[0], kind="average"), S([0])],
)
def test_integer_average_is_reduced_over_the_whole_group_at_once(target):
    # terms 1, 0, 1, 2 average to trunc(4 / 4) = 1; averaging along axis 0
    # first gives trunc((trunc(1/2) + trunc(3/2)) / 2) = 0
    mesh = Mesh((2, 2))
    source = S(partial=[0, 1], kind="average")
    plan = plan_resharding((2, 2), mesh, source, target)
    for step in plan.steps:
        if isinstance(step, AllReduce | ReduceScatter):
            assert sorted(step.axes) == [0, 1], plan
    terms = average_terms(mesh, {(0, 0): 1, (1, 0): 0, (0, 1): 1, (1, 1): 2})
    out = execute(plan, terms, mesh)
    np.testing.assert_array_equal(assemble(out, target, mesh), np.ones((2, 2), dtype=np.int64))


def test_integer_average_plans_are_exact():
    plan = plan_resharding((2, 2), (2, 2), S(partial=[0, 1], kind="average"), S([0], [1]))
    # before: reduce_scatter over [0], then over [1] (16 bytes, but wrong)
    assert plan.steps == (AllReduce((0, 1), "average"), AllSlice((0,), 0), AllSlice((1,), 1))
    assert plan.bytes_received == 24
    plan = plan_resharding((2, 2), (2, 2), S(partial=[0, 1], kind="average"), S(partial=[0], kind="average"))
    assert plan.steps == (AllReduce((0, 1), "average"), Partialize((0,), "average"))


def test_the_decomposition_reduces_an_average_over_the_whole_group(decompose_only):
    mesh = Mesh((2, 2))
    target = S([1], partial=[0], kind="average")
    plan = plan_resharding((2, 2), mesh, S(partial=[0, 1], kind="average"), target)
    assert plan.steps == (AllReduce((0, 1), "average"), AllSlice((1,), 0), Partialize((0,), "average"))
    terms = average_terms(mesh, {(0, 0): 1, (1, 0): 0, (0, 1): 1, (1, 1): 2})
    np.testing.assert_array_equal(assemble(execute(plan, terms, mesh), target, mesh), np.ones((2, 2), np.int64))


# -- the decomposition ----------------------------------------------------------------


KINDS = ("sum", "max", "average")


def problems(mesh_ranks=(4, 7)):
    """Resharding problems on meshes of 4-7 axes of size 1 or 2."""
    return base_problems(mesh_ranks=mesh_ranks, max_devices=2**7, axis_sizes=(1, 2), kinds=KINDS)


def check(problem) -> Plan:
    shape, mesh_shape, source, target = problem
    plan = plan_resharding(shape, mesh_shape, source, target)
    t = np.arange(math.prod(shape), dtype=np.int64).reshape(shape) * 7 % 23 - 11
    run(plan, t)
    assert plan.lower_bound <= plan.bytes_received
    assert apply_steps(shape, mesh_shape, source, plan.steps) == plan
    for step in plan.steps:
        if isinstance(step, AllReduce | ReduceScatter) and step.kind == "average":
            assert sorted(step.axes) == sorted(plan.source.partial_axes), plan
    return plan


@settings(max_examples=60, deadline=None)
@given(problems())
def test_property_the_decomposition_executes_within_its_bound(problem):
    with pytest.MonkeyPatch.context() as m:
        m.setattr(rs, "EXACT_SEARCH_BUDGET", 0)
        plan = check(problem)
    shape, mesh_shape, source, target = problem
    assert plan.bytes_received <= bound(shape, mesh_shape, source, target)
    assert len(plan.steps) <= 2 + 2 * len(mesh_shape)


@settings(max_examples=15, deadline=None)
@given(problems(mesh_ranks=(4, 6)))
def test_property_plans_on_4_to_6_axis_meshes_execute(problem):
    check(problem)


def test_seven_axis_mesh_every_dimension_over_several_axes():
    # the case: 2x2x2x2x2x2x2, every dimension split over several axes
    # (a 16^3 tensor here so that it executes; 128^3 plans the same steps)
    mesh = (2,) * 7
    source, target = S([0, 1], [2, 3], [4, 5, 6]), S([6, 5, 4], [1, 3], [2, 0])
    plan = plan_resharding((16, 16, 16), mesh, source, target, exchange=False)
    assert [type(s) for s in plan.steps] == [Permute, AllToAll]
    assert plan.steps[1] == AllToAll((4,), 0, 2)
    assert (plan.bytes_received, plan.lower_bound) == (192, 128)
    run(plan, np.arange(16**3, dtype=np.int64).reshape(16, 16, 16))
    big = plan_resharding((128, 128, 128), mesh, source, target, exchange=False)
    assert big.steps == plan.steps and (big.bytes_received, big.lower_bound) == (98304, 65536)
    # those two steps move some data twice: a direct exchange receives only
    # the lower bound, in as many rounds
    direct = plan_resharding((16, 16, 16), mesh, source, target)
    assert direct.steps == (Exchange(target.split_axes, 2),) and direct.bytes_received == 128
    run(direct, np.arange(16**3, dtype=np.int64).reshape(16, 16, 16))
    assert plan_resharding((128, 128, 128), mesh, source, target).bytes_received == 65536


def test_uneven_pieces_on_a_4096_device_mesh_using_three_axes():
    # the fuzzer's slow case: uneven pieces, so the exact search runs with
    # its per-device bound, on twelve axes of which the layouts use three
    # (the bound's arrays span only the axes a layout uses; the plan is the
    # one the bound over every device gave)
    mesh = (2,) * 12
    plan = plan_resharding((7, 4, 3), mesh, S([], [], [3]), S([], [2], [1]), element_bytes=8)
    assert plan.steps == (AllGather((3,), 2), AllSlice((2,), 1), AllSlice((1,), 2))
    assert plan.bytes_received == 448
    run(plan, np.arange(7 * 4 * 3, dtype=np.int64).reshape(7, 4, 3))


# (the fuzzer's hang: 422 plans like this one, each spending the whole exact
# budget, in one propagation over a mesh of seven axes)
HARD = ((6, 12), (4, 2, 4, 3, 2, 3, 2), S([1]), S([2]))


def test_a_hard_plan_spends_the_whole_budget_without_an_allowance():
    shape, mesh, source, target = HARD
    allowance = rs.SearchAllowance(left=10**9)
    plan_resharding(shape, mesh, source, target, element_bytes=2, allowance=allowance)
    assert 10**9 - allowance.left > rs.EXACT_SEARCH_BUDGET


def test_plans_past_a_spent_allowance_search_briefly_and_still_execute():
    shape, mesh, source, target = HARD
    allowance = rs.SearchAllowance(left=3 * rs.EXACT_SEARCH_BUDGET, after=5_000)
    plans, budgets = [], []
    for t in (target, S([2], [1]), S([], [2, 1]), S([], [1, 2]), target, S([0], [3])):
        left, budget = allowance.left, allowance.budget()
        plans.append(plan_resharding(shape, mesh, source, t, element_bytes=2, allowance=allowance))
        # a search spends at most its budget and the batch of moves it
        # listed when it ran out
        assert 0 < left - allowance.left < budget + 5_000
        budgets.append(budget)
    assert budgets[:2] == [rs.EXACT_SEARCH_BUDGET] * 2 and budgets[3:] == [5_000] * 3
    for plan in plans:
        assert plan.bytes_received >= plan.lower_bound
        run(plan, np.arange(6 * 12, dtype=np.int64).reshape(6, 12))


@settings(max_examples=60, deadline=None)
@given(st.one_of(base_problems(), uneven_problems(), partial_problems()))
def test_property_a_spent_allowance_changes_no_plan_its_after_budget_covers(problem):
    """A plan whose exact search needs no more than an allowance's `after`
    candidates is the same once the allowance is spent (random plans on
    meshes of up to 12 devices: 17 candidates at the median, 2,646 the
    most in 600; the JAX corpus: 204 the most)."""
    shape, mesh, source, target = problem
    ample = rs.SearchAllowance(left=10**9)
    exact = plan_resharding(shape, mesh, source, target, allowance=ample)
    spent = rs.SearchAllowance(left=0)
    if 10**9 - ample.left <= spent.after:
        assert plan_resharding(shape, mesh, source, target, allowance=spent) == exact


# -- meshes too large to list ----------------------------------------------------------


def test_65536x65536_mesh_swaps_axes_without_a_permutation_table():
    plan = plan_resharding((65536, 65536), (65536, 65536), S([0], [1]), S([1], [0]))
    assert plan.steps == (AllGather((0,), 0), AllToAll((1,), 0, 1), AllSlice((0,), 1))
    assert plan.step_bytes == (262140, 262140, 0)
    assert (plan.bytes_received, plan.lower_bound) == (524280, 4)


def test_1000_cubed_mesh_plans_arithmetically():
    plan = plan_resharding((1000, 1000, 1000), (1000, 1000, 1000), S([0], [1], [2]), S([2], [0], [1]))
    assert plan.steps == (
        AllGather((0,), 0),
        AllToAll((2,), 0, 2),
        AllToAll((1,), 2, 1),
        AllSlice((0,), 1),
    )
    assert (plan.bytes_received, plan.lower_bound) == (11988, 4)


def test_a_huge_permutation_is_refused_naming_the_device_count():
    with pytest.raises(ValueError, match=r"a permutation of 4294967296 devices is past the planner's limit of 65536"):
        rs._permutation(Mesh((65536, 65536)), ((0,), (1,)), ((1,), (0,)))
    with pytest.raises(ValueError, match=r"checking it covers 4294967296 devices, past the limit of 65536 devices"):
        apply_steps((65536, 65536), (65536, 65536), S([0], [1]), [Permute((), (0,), ((1,), (0,)))])


def test_a_small_permutation_on_a_huge_mesh_is_still_a_permute():
    # only axes 1 and 2 move pieces; the 65536 devices along axis 0 are not listed
    plan = plan_resharding((4, 4), (65536, 2, 2), S([1], [2]), S([2], [1]))
    assert plan.steps == (Permute((1, 2), (0, 2, 1, 3), ((2,), (1,))),)
    assert (plan.bytes_received, plan.lower_bound) == (16, 16)


# -- per-device costs on arrays against the same model device by device ---------


def _box(s: Sharding, shape, mesh: Mesh, dev) -> list[tuple[int, int]]:
    out = []
    for dim, (sl, size) in enumerate(zip(s.slice_of(shape, mesh, dev), shape)):
        low, high = s.halo(dim)
        out.append((max(sl.start - low, 0), min(sl.stop + high, size)))
    return out


def _volume(box) -> int:
    return math.prod(max(b - a, 0) for a, b in box)


def _lacking(before: Sharding, after: Sharding, shape, mesh: Mesh, dev) -> int:
    want, have = _box(after, shape, mesh, dev), _box(before, shape, mesh, dev)
    return _volume(want) - _volume([(max(a, c), min(b, d)) for (a, b), (c, d) in zip(want, have)])


def bound_device_by_device(shape, mesh: Mesh, source: Sharding, target: Sharding) -> int:
    """The module docstring's lower bound in elements, over every device."""
    src_partial = {a for a in source.partial_axes if mesh.shape[a] > 1}
    keep = not src_partial or (source.partial_type == target.partial_type and src_partial <= set(target.partial_axes))
    new_axes = set(target.partial_axes) - src_partial if keep else set(target.partial_axes)
    identity = target.is_partial and target.partial_type in rs.IDENTITY_KINDS
    worst = 0
    for dev in mesh.devices():
        if identity and any(dev[a] for a in new_axes):
            continue
        need = _lacking(source, target, shape, mesh, dev) if keep else _volume(_box(target, shape, mesh, dev))
        worst = max(worst, need)
    return worst


def step_costs_device_by_device(p, step, before: Sharding, after: Sharding) -> list[int]:
    """Elements each device (row-major) receives in `step`, as the module
    docstring's model counts them, one device at a time."""
    shape, mesh = p.shape, p.mesh
    devices = mesh.devices()
    if isinstance(step, rs.UpdateHalo):
        if rs.halos_within(step.destination_halos, step.source_halos):
            return [0] * len(devices)
        after = Sharding(before.split_axes, before.partial_axes, before.partial_type, step.destination_halos)
        return [
            _volume(_box(after, shape, mesh, d)) - _volume([(s.start, s.stop) for s in after.slice_of(shape, mesh, d)])
            for d in devices
        ]
    if isinstance(step, AllSlice | Partialize):
        return [0] * len(devices)
    if isinstance(step, Exchange):
        return [_lacking(before, after, shape, mesh, d) for d in devices]
    if isinstance(step, rs.Recut):
        # one round per distance k between holder and receiver, its block the
        # longest run any position receives from k places on
        old, new = before.bounds(step.dim, shape[step.dim], mesh), step.cut
        n = len(old)

        def run(p: int, q: int) -> int:
            return max(0, min(new[p + 1], old[q][1]) - max(new[p], old[q][0]))

        block = {}
        for p in range(n):
            for q in range(n):
                if q != p and run(p, q):
                    block[q - p] = max(block.get(q - p, 0), run(p, q))
        out = []
        for d in devices:
            p = mesh.in_group_index(d, step.axes)
            rows = sum(b for k, b in block.items() if 0 <= p + k < n and run(p, p + k))
            extents = [s.stop - s.start for s in before.slice_of(shape, mesh, d)]
            extents[step.dim] = rows
            out.append(math.prod(extents))
        return out
    if p.uneven:
        pieces = {d: [s.stop - s.start for s in before.slice_of(shape, mesh, d)] for d in devices}
    else:
        pieces = {d: list(before.local_shape(shape, mesh, d)) for d in devices}
    if isinstance(step, Permute):
        out = dict.fromkeys(devices, 0)
        for d in devices:
            dest = mesh.member(d, step.axes, step.perm[mesh.in_group_index(d, step.axes)])
            if dest != d:
                out[dest] = math.prod(pieces[d])
        return [out[d] for d in devices]
    padded: dict[int, int] = {}
    if p.uneven and isinstance(step, AllGather):
        padded[step.dim] = rs.largest_piece(before, step.dim, shape, mesh)
    elif p.uneven and isinstance(step, AllToAll | ReduceScatter):
        cut = step.split_dim if isinstance(step, AllToAll) else step.dim
        padded[cut] = mesh.group_size(step.axes) * rs.largest_piece(after, cut, shape, mesh)
        if isinstance(step, AllToAll):
            padded[step.concat_dim] = rs.largest_piece(before, step.concat_dim, shape, mesh)
    return [rs.uniform_cost(step, math.prod(padded.get(i, n) for i, n in enumerate(pieces[d])), mesh) for d in devices]


@st.composite
def haloed_problems(draw):
    """`problems` whose target (and sometimes source) carries halos of up to
    two rows on its split dimensions, where they fit."""
    shape, mesh_shape, source, target = draw(base_problems(max_devices=16))

    def with_halos(s: Sharding) -> Sharding:
        if s.is_partial or not s.sharded_dims():
            return s
        halos = tuple(draw(st.integers(0, 2)) for _ in range(2 * len(s.sharded_dims())))
        haloed = Sharding(s.split_axes, (), "sum", halos)
        try:
            haloed.validate(Mesh(mesh_shape), shape)
        except ValueError:
            return s
        return haloed

    return shape, mesh_shape, with_halos(source) if draw(st.booleans()) else source, with_halos(target)


@settings(max_examples=300, deadline=None)
@given(st.one_of(base_problems(max_devices=24), uneven_problems(max_devices=24), partial_problems(), haloed_problems()))
def test_property_costs_on_arrays_match_the_model_device_by_device(problem):
    # The lower bound and every step's per-device costs are taken on arrays
    # over the mesh (whose 65,536 devices took seconds one at a time): they
    # equal the model's numbers taken one device at a time, and so does
    # the plan's bytes_received (the most any device receives over the steps).
    shape, mesh_shape, source, target = problem
    mesh = Mesh(mesh_shape)
    assert rs._lower_bound(tuple(shape), mesh, source, target) == bound_device_by_device(shape, mesh, source, target)
    plan = plan_resharding(shape, mesh_shape, source, target, exchange=True)
    uneven = not (source.is_even(shape, mesh) and target.is_even(shape, mesh))
    p = rs._Problem(tuple(shape), mesh, 4, target, uneven=uneven)
    totals = [0] * mesh.size
    layout = plan.source
    for step, after in zip(plan.steps, plan.intermediate):
        costs = rs._step_costs(p, step, layout, after)
        want = step_costs_device_by_device(p, step, layout, after)
        assert [int(c) for c in costs] == want, step
        totals = [t + c for t, c in zip(totals, want)]
        layout = after
    assert plan.bytes_received == max(totals, default=0) * 4


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.one_of(base_problems(max_devices=24), uneven_problems(max_devices=24), partial_problems()),
        min_size=1,
        max_size=3,
    )
)
def test_property_search_bounds_shared_between_plans_change_no_plan(problems):
    # The exact search's bounds are kept per goal across plans (a compile
    # plans many layout changes toward few goals).  Plans toward one goal
    # with another element size, a doubled shape or another start, planned
    # after each other, equal the plans each made with nothing kept.
    requests = []
    for shape, mesh_shape, source, target in problems:
        doubled = tuple(2 * n for n in shape)
        for s, t in ((source, target), (target, source), (Sharding(()), target)):
            for dims, element_bytes in ((shape, 4), (shape, 1), (doubled, 4)):
                if (s.sharded_dims_offsets or t.sharded_dims_offsets) and dims != shape:
                    continue  # offsets are cut for their own shape
                requests.append((dims, mesh_shape, s, t, element_bytes))

    def plan(request):
        dims, mesh_shape, s, t, element_bytes = request
        found = plan_resharding(dims, mesh_shape, s, t, element_bytes=element_bytes, exchange=False)
        return found.steps, found.bytes_received

    alone = []
    for request in requests:
        rs._BOUNDS.clear()
        alone.append(plan(request))
    rs._BOUNDS.clear()
    assert [plan(r) for r in requests] == alone
    assert [plan(r) for r in reversed(requests)] == alone[::-1]
