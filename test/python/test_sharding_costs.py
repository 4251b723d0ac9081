"""The all_reduce price (`sharding/costs.py`) against a ring all_reduce run
chunk by chunk: a reduce-scatter pass then an all-gather pass around the
ring, each step handing one chunk to the next device."""

from __future__ import annotations

import pytest

from mesh_dialect.sharding.costs import all_reduce_elements
from mesh_dialect.sharding.resharding import plan_resharding
from mesh_dialect.sharding.spec import Mesh, Sharding


def ring_received(elems: int, g: int) -> list[int]:
    """Elements each device receives in a ring all_reduce of `elems` cut into
    `g` chunks of `elems / g` rounded up (the first ones) or down."""
    chunks = [elems // g + (1 if k < elems % g else 0) for k in range(g)]
    received = [0] * g
    for step in range(g - 1):  # reduce-scatter: device d gets chunk d - step - 1
        for d in range(g):
            received[d] += chunks[(d - step - 1) % g]
    for step in range(g - 1):  # all-gather: device d gets chunk d - step
        for d in range(g):
            received[d] += chunks[(d - step) % g]
    return received


@pytest.mark.parametrize("g", [1, 2, 3, 4, 7, 8, 16])
def test_the_price_bounds_the_ring_within_one_element(g):
    for elems in range(0, 3 * g + 2):
        worst = max(ring_received(elems, g))
        price = all_reduce_elements(elems, g)
        assert worst <= price <= worst + 1, (elems, g, worst, price)
        if elems % g == 0:
            assert price == worst == 2 * (g - 1) * elems // g
        # never above the ring's price with every chunk rounded up
        assert price <= 2 * (g - 1) * -(-elems // g)


def test_a_tensor_smaller_than_the_group_is_received_twice_not_once_per_device():
    # 4 elements over 8 devices: half the chunks are empty, and a device whose
    # chunk is empty receives all 4 in each pass (rounding every chunk up
    # priced 14, which made splitting the reduction over two axes look cheaper)
    assert all_reduce_elements(4, 8) == 8 == max(ring_received(4, 8))


def test_the_planner_reduces_a_small_partial_sum_over_two_axes_at_once():
    # 4 elements partial over both axes of a 2x4 mesh, wanted whole: one
    # all_reduce (8 elements), not a reduce_scatter, an all_reduce and an
    # all_gather (3 + 2 + 3), which rounding every chunk up made cheaper
    plan = plan_resharding((4,), Mesh((2, 4)), Sharding((), (0, 1), "sum"), Sharding(()))
    assert [type(s).__name__ for s in plan.steps] == ["AllReduce"]
    assert sorted(plan.steps[0].axes) == [0, 1]
    assert plan.bytes_received == 8 * 4
