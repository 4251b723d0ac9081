"""Argmax and argmin split along the reduced dimension (`select` loops):
each device picks from its piece, the picks are gathered and picked from
again.  Random programs (both directions, floats and integers, one or two
mesh axes on the reduced dimension, meshes of rank 1-2) run on every device
and give the original's values and indices bit for bit, on inputs full of
ties, NaNs, signed zeros and infinities."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mlir import ir
from mlir.passmanager import PassManager

import mesh_dialect
from mesh_dialect.interfaces import RuleCache, rule_for
from mesh_dialect.interfaces.registry import register_rule
from mesh_dialect.interfaces.rules import Iterator, ShardingRule, select_axes, shardings_from_option
from mesh_dialect.sim.api import Simulation
from mesh_dialect.transforms import MeshPartition


@functools.cache
def _context():
    return mesh_dialect.context()


def _compare(a: str, b: str, direction: str, kind: str, element: str) -> str:
    return (
        f'"stablehlo.compare"({a}, {b}) <{{compare_type = #stablehlo<comparison_type {kind}>, '
        f"comparison_direction = #stablehlo<comparison_direction {direction}>}}> : "
        f"(tensor<{element}>, tensor<{element}>) -> tensor<i1>"
    )


def program(
    *,
    shape=(8, 12),
    dim=1,
    mesh="4",
    split="[[], [0]]",
    wins="GT",
    element="f32",
    nan_term=True,
    index_wins="LT",
    results="%r#0, %r#1",
) -> str:
    """A JAX-shaped argmax (`wins` GT) or argmin (LT) of `%arg0` along `dim`."""
    kind = "FLOAT" if element.startswith("f") else "SIGNED"
    tensor = "x".join(map(str, shape))
    kept = "x".join(str(n) for d, n in enumerate(shape) if d != dim)
    init = "0xFF800000" if wins == "GT" else "0x7F800000"
    if kind == "SIGNED":
        init = "-2147483648" if wins == "GT" else "2147483647"
    beats = _compare("%a", "%b", wins, kind, element)
    if nan_term:
        pick = f"""      %gt = {beats}
      %nan = {_compare("%a", "%a", "NE", kind, element)}
      %p = "stablehlo.or"(%gt, %nan) : (tensor<i1>, tensor<i1>) -> tensor<i1>"""
    else:
        pick = f"      %p = {beats}"
    result_types = f"tensor<{kept}x{element}>, tensor<{kept}xi32>"
    returned = ", ".join(
        f"tensor<{kept}x{element}>" if r.endswith("#0") else f"tensor<{kept}xi32>" for r in results.split(", ")
    )
    return f"""module {{
  mesh.mesh @mesh(shape = {mesh})
  func.func @f(%x: tensor<{tensor}x{element}>) -> ({returned}) {{
    %s = mesh.sharding @mesh split_axes = {split} : !mesh.sharding
    %xs = mesh.shard %x to %s : tensor<{tensor}x{element}>
    %i = "stablehlo.iota"() <{{iota_dimension = {dim} : i64}}> : () -> tensor<{tensor}xi32>
    %v0 = "stablehlo.constant"() <{{value = dense<{init}> : tensor<{element}>}}> : () -> tensor<{element}>
    %i0 = "stablehlo.constant"() <{{value = dense<0> : tensor<i32>}}> : () -> tensor<i32>
    %r:2 = "stablehlo.reduce"(%xs, %i, %v0, %i0) <{{dimensions = array<i64: {dim}>}}> ({{
    ^bb0(%a: tensor<{element}>, %ai: tensor<i32>, %b: tensor<{element}>, %bi: tensor<i32>):
{pick}
      %eq = {_compare("%a", "%b", "EQ", kind, element)}
      %lt = {_compare("%ai", "%bi", index_wins, "SIGNED", "i32")}
      %tie = "stablehlo.and"(%eq, %lt) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %q = "stablehlo.or"(%p, %tie) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %v = "stablehlo.select"(%p, %a, %b) : (tensor<i1>, tensor<{element}>, tensor<{element}>) -> tensor<{element}>
      %j = "stablehlo.select"(%q, %ai, %bi) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%v, %j) : (tensor<{element}>, tensor<i32>) -> ()
    }}) : (tensor<{tensor}x{element}>, tensor<{tensor}xi32>, tensor<{element}>, tensor<i32>) -> ({result_types})
    return {results} : {returned}
  }}
}}
"""


def _partition(text: str, **options):
    module = mesh_dialect.parse(text, context=_context())
    with _context():
        pm = PassManager("builtin.module")
        mesh_dialect.ShardingPropagation(**options).add_to(pm)
        MeshPartition().add_to(pm)
        pm.run(module)
    mesh_dialect.verify(module)
    return module


def _reduce_rule(text: str) -> ShardingRule:
    module = mesh_dialect.parse(text, context=_context())
    found = []

    def visit(op):
        if op.name == "stablehlo.reduce":
            found.append(rule_for(op))
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return found[0]


def _bits(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x)
    return x.view(np.dtype(f"u{x.dtype.itemsize}")) if x.dtype.kind == "f" else x


def _awkward(rng: np.random.Generator, shape, element: str) -> np.ndarray:
    """Few distinct values (many ties), and for floats NaNs, both zeros and
    both infinities."""
    if element == "i32":
        pool = np.array([-(2**31), -1, 0, 3, 2**31 - 1], dtype=np.int32)
    else:
        pool = np.array([np.nan, -np.nan, 0.0, -0.0, np.inf, -np.inf, 1.5, -2.0], dtype=np.float32)
    return pool[rng.integers(0, len(pool), size=shape)]


@pytest.mark.parametrize("wins", ["GT", "LT"])
@pytest.mark.parametrize("element", ["f32", "i32"])
def test_the_jax_argmax_and_argmin_bodies_are_select_reductions(wins, element):
    rule = _reduce_rule(program(wins=wins, element=element, nan_term=element == "f32"))
    assert [str(it) for it in rule.iterators] == ["parallel", "reduction<select>"]
    # split along the reduced loop: operands split, results whole
    operands, results = shardings_from_option(rule, ((), (0,)))
    assert operands[0].split_axes == ((), (0,)) and operands[1].split_axes == ((), (0,))
    assert all(not r.is_partial and not any(r.split_axes) for r in results)
    assert select_axes(rule, ((), (0,))) == (0,)


@pytest.mark.parametrize(
    "change",
    [
        # the value picked on a tie is not the winner's: not a selection of one pair
        lambda t: t.replace('"stablehlo.select"(%p, %a, %b)', '"stablehlo.select"(%q, %a, %b)'),
        # an index picked by a condition that ignores the values
        lambda t: t.replace('"stablehlo.or"(%p, %tie)', '"stablehlo.or"(%eq, %tie)'),
        # the NaN test of the other side
        lambda t: t.replace('"stablehlo.compare"(%a, %a)', '"stablehlo.compare"(%b, %b)'),
        # a tie broken by equal values again instead of the indices
        lambda t: t.replace('"stablehlo.and"(%eq, %lt)', '"stablehlo.and"(%eq, %eq)'),
        # equal values read in IEEE's total order (-0 is not +0) beside an
        # IEEE greater-than: two orders of the zeros
        lambda t: t.replace(
            "comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>",
            "comparison_type TOTALORDER>, comparison_direction = #stablehlo<comparison_direction EQ>",
        ),
    ],
)
def test_other_bodies_stay_invalid(change):
    text = change(program())
    assert text != program()
    rule = _reduce_rule(text)
    assert str(rule.iterators[1]) == "invalid"


def test_a_float_body_without_the_nan_test_stays_invalid():
    # a > b ? a : b drops a NaN the next element follows: where the pieces
    # are cut would change the answer
    rule = _reduce_rule(program(nan_term=False))
    assert str(rule.iterators[1]) == "invalid"
    text = program(shape=(1, 12), nan_term=False)
    module = _partition(text)
    assert '"stablehlo.reshape"' not in mesh_dialect.print_ir(module)
    x = np.array([[5.0, 0, 0, np.nan, 1.0, 0, 0, 0, 0, 0, 0, 0]], dtype=np.float32)
    expected = Simulation(mesh_dialect.parse(text, context=_context())).run("f", [x])
    got = Simulation(module).run("f", [x])
    for g, e in zip(got, expected):
        np.testing.assert_array_equal(_bits(g), _bits(e))


def test_float_indices_stay_invalid():
    text = program().replace("%ai: tensor<i32>", "%ai: tensor<f32>").replace("%bi: tensor<i32>", "%bi: tensor<f32>")
    text = text.replace("tensor<8x12xi32>", "tensor<8x12xf32>").replace(
        "(tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>", "(tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>"
    )
    text = text.replace(
        "dense<0> : tensor<i32>}> : () -> tensor<i32>", "dense<0.0> : tensor<f32>}> : () -> tensor<f32>"
    )
    text = text.replace(
        '"stablehlo.compare"(%ai, %bi) <{compare_type = #stablehlo<comparison_type SIGNED>',
        '"stablehlo.compare"(%ai, %bi) <{compare_type = #stablehlo<comparison_type FLOAT>',
    )
    text = text.replace("(tensor<i32>, tensor<i32>) -> tensor<i1>", "(tensor<f32>, tensor<f32>) -> tensor<i1>")
    text = text.replace("tensor<f32>, tensor<i32>) -> ()", "tensor<f32>, tensor<f32>) -> ()")
    text = text.replace(
        "tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)",
        "tensor<f32>, tensor<f32>) -> (tensor<8xf32>, tensor<8xf32>)",
    )
    text = text.replace("-> (tensor<8xf32>, tensor<8xi32>)", "-> (tensor<8xf32>, tensor<8xf32>)")
    text = text.replace(": tensor<8xf32>, tensor<8xi32>", ": tensor<8xf32>, tensor<8xf32>")
    text = text.replace(
        '"stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<8x12xf32>',
        '"stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<8x12xf32>',
    )
    rule = _reduce_rule(text)
    assert str(rule.iterators[1]) == "invalid"


def test_a_select_reduction_over_two_dimensions_stays_invalid():
    text = program().replace("dimensions = array<i64: 1>", "dimensions = array<i64: 0, 1>")
    text = text.replace("tensor<8xf32>, tensor<8xi32>", "tensor<f32>, tensor<i32>")
    rule = _reduce_rule(text)
    assert [str(it) for it in rule.iterators] == ["invalid", "invalid"]


def test_a_registered_rule_may_not_have_select_loops():
    def fake(op):
        return ShardingRule((Iterator("select"),), ((0,),), ((None,),))

    text = program()
    previous = register_rule("stablehlo.reduce", fake)
    try:
        module = mesh_dialect.parse(text, context=_context())
        ops = []
        module.operation.walk(lambda op: ops.append(op) or ir.WalkResult.ADVANCE)
        reduce = next(op for op in ops if op.name == "stablehlo.reduce")
        with pytest.raises(Exception, match="has a 'select' loop, which only the built-in reduce rule may have"):
            RuleCache().rule_for(reduce)
    finally:
        register_rule("stablehlo.reduce", previous)


def test_a_split_argmax_gathers_the_picks_not_the_input():
    module = _partition(program(shape=(8, 64), results="%r#1"))
    printed = mesh_dialect.print_ir(module)
    gathers = [line.strip() for line in printed.splitlines() if "mesh.all_gather" in line]
    # one all_gather per result of the reduce, of one pick per row and device
    assert gathers == [
        "%8 = mesh.all_gather %7 on @mesh mesh_axes = [0] gather_axis = 1 : tensor<8x1xf32> -> tensor<8x4xf32>",
        "%10 = mesh.all_gather %9 on @mesh mesh_axes = [0] gather_axis = 1 : tensor<8x1xi32> -> tensor<8x4xi32>",
    ]
    assert "tensor<8x16xf32> {mesh.sharding" in printed


def test_the_sweep_solver_splits_it_too():
    module = _partition(program(shape=(8, 64), results="%r#1"), solver="sweep")
    printed = mesh_dialect.print_ir(module)
    assert printed.count("mesh.all_gather") == 2 and "tensor<8x1xi32> -> tensor<8x4xi32>" in printed


_CASES = [
    # (shape, dim, mesh, split): few rows kept, so picking is cheaper than
    # gathering the input (at least over some of the axes)
    ((2, 12), 1, "4", "[[], [0]]"),
    ((24, 2), 0, "2x2", "[[0, 1]]"),
    ((24, 2), 0, "2x2", "[[1, 0]]"),
    ((2, 24), 1, "2x3", "[[], [0, 1]]"),
    ((2, 24), 1, "2x3", "[[], [1, 0]]"),
    ((4, 24), 1, "2x2", "[[1], [0]]"),
    ((3, 9), 1, "3", "[[], [0]]"),
]


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(_CASES),
    st.sampled_from(["GT", "LT"]),
    st.sampled_from(["f32", "i32"]),
    st.sampled_from(["LT", "GT"]),
    st.integers(0, 2**31 - 1),
)
def test_split_argmax_and_argmin_give_the_same_pairs_bit_for_bit(case, wins, element, index_wins, seed):
    shape, dim, mesh, split = case
    text = program(
        shape=shape,
        dim=dim,
        mesh=mesh,
        split=split,
        wins=wins,
        element=element,
        nan_term=element == "f32",
        index_wins=index_wins,
    )
    module = _partition(text)
    printed = mesh_dialect.print_ir(module)
    assert printed.count('"stablehlo.reshape"') == 2  # the picks are gathered (the input may be too, in part)
    rng = np.random.default_rng(seed)
    x = _awkward(rng, shape, element)
    expected = Simulation(mesh_dialect.parse(text, context=_context())).run("f", [x])
    got = Simulation(module).run("f", [x])
    for g, e in zip(got, expected):
        np.testing.assert_array_equal(_bits(g), _bits(e))
