"""A split reduction's init that arrives in its result's partial layout is
read as terms (`_init_as_terms`) only when the partial is of the kind the
op reduces with: a sum's terms folded into a max would not add up."""

from __future__ import annotations

import pytest

from mesh_dialect.interfaces.rules import ShardingRule
from mesh_dialect.sharding import Sharding
from mesh_dialect.transforms.partition.mesh_partition import _init_as_terms, _init_read_whole

ROWS = Sharding(((0,),))


def _partial(kind: str) -> Sharding:
    return Sharding(((0,),), partial_axes=(1,), partial_type=kind)


@pytest.mark.parametrize("kind", ["sum", "max", "min"])
def test_an_init_of_the_reductions_kind_is_read_as_terms(kind):
    rule = ShardingRule.matmul(kind=kind)
    out = _partial(kind)
    assert _init_as_terms("linalg.generic", rule, [ROWS, None, out], [out]) == 2
    assert _init_read_whole("linalg.generic", rule, [ROWS, None, out], [out]) == [ROWS, None, ROWS]


@pytest.mark.parametrize(("reduces", "arrives"), [("max", "sum"), ("sum", "max"), ("min", "max")])
def test_an_init_of_another_kind_is_not(reduces, arrives):
    rule = ShardingRule.matmul(kind=reduces)
    out = _partial(arrives)
    assert _init_as_terms("linalg.generic", rule, [ROWS, None, out], [out]) is None
    assert _init_read_whole("linalg.generic", rule, [ROWS, None, out], [out]) == [ROWS, None, out]


def test_only_a_linalg_op_of_one_result_in_the_results_layout():
    rule = ShardingRule.matmul()
    out = _partial("sum")
    assert _init_as_terms("stablehlo.dot_general", rule, [ROWS, None, out], [out]) is None
    assert _init_as_terms("linalg.generic", rule, [ROWS, None, out], [out, out]) is None
    assert _init_as_terms("linalg.generic", rule, [ROWS, None, _partial("max")], [out]) is None
    assert _init_as_terms("linalg.generic", rule, [ROWS, None, ROWS], [ROWS]) is None
