"""Signed min and max on i1 in the simulator.

Read signed, an i1 true is -1 and false 0, so `arith.maxsi` on i1 is a
logical and and `arith.minsi` a logical or, while `arith.maxui`/`minui` read
true as 1 (or, and); upstream `mlir-opt --canonicalize` folds
`arith.maxsi %true, %false : i1` to false.  Partitioning splits maxsi and
minsi into the mesh reduction kinds max and min, so the simulator's
reductions of those kinds (collectives, partial layouts) must agree on i1.
StableHLO's maximum and minimum on booleans are or and and, and stay so.
"""

import itertools

import numpy as np
import pytest

import mesh_dialect
from mesh_dialect.sharding.spec import Mesh, Sharding
from mesh_dialect.sim.api import Simulation
from mesh_dialect.sim.collectives import all_reduce, reduce_scatter
from mesh_dialect.sim.interpreter import Runner
from mesh_dialect.sim.layout import assemble, combine, partial_terms

F, T = False, True
TRUTH = {
    # (a, b): (maxsi, minsi, maxui, minui)
    (F, F): (F, F, F, F),
    (F, T): (F, T, T, F),
    (T, F): (F, T, T, F),
    (T, T): (T, T, T, T),
}

_BINARY = """
func.func @f(%a: {t}, %b: {t}) -> ({t}, {t}, {t}, {t}) {{
  %0 = arith.maxsi %a, %b : {t}
  %1 = arith.minsi %a, %b : {t}
  %2 = arith.maxui %a, %b : {t}
  %3 = arith.minui %a, %b : {t}
  return %0, %1, %2, %3 : {t}, {t}, {t}, {t}
}}
"""


def _sim(text: str, **kwargs) -> Simulation:
    return Simulation(mesh_dialect.parse(text, context=mesh_dialect.context()), **kwargs)


@pytest.mark.parametrize(("a", "b"), list(TRUTH))
def test_scalar_i1_min_max_follow_the_truth_table(a, b):
    got = _sim(_BINARY.format(t="i1")).run("f", [np.bool_(a), np.bool_(b)])
    assert [bool(v) for v in got] == list(TRUTH[(a, b)])
    assert all(np.asarray(v).dtype == np.bool_ for v in got)


def test_tensor_i1_min_max_follow_the_truth_table():
    pairs = list(TRUTH)
    a = np.array([p[0] for p in pairs])
    b = np.array([p[1] for p in pairs])
    got = _sim(_BINARY.format(t="tensor<4xi1>")).run("f", [a, b])
    want = np.array([TRUTH[p] for p in pairs]).T
    assert [g.tolist() for g in got] == want.tolist()


def test_wider_integers_keep_signed_and_unsigned_min_max():
    got = _sim(_BINARY.format(t="tensor<2xi8>")).run("f", [np.array([-1, 3], np.int8), np.array([0, -128], np.int8)])
    assert [g.tolist() for g in got] == [[0, 3], [-1, -128], [-1, -128], [0, 3]]


_REDUCE = """
func.func @f(%x: tensor<4x8xi1>, %init: tensor<4xi1>) -> tensor<4xi1> {{
  %r = linalg.reduce ins(%x : tensor<4x8xi1>) outs(%init : tensor<4xi1>) dimensions = [1]
    (%a: i1, %acc: i1) {{
      %m = arith.{op} %a, %acc : i1
      linalg.yield %m : i1
    }}
  return %r : tensor<4xi1>
}}
"""
_ROWS = np.array(
    [
        [T, F, T, T, T, T, T, T],
        [T] * 8,
        [F] * 8,
        [T, T, T, T, F, F, F, F],
    ]
)


@pytest.mark.parametrize(
    ("op", "fold"),
    [("maxsi", np.logical_and), ("minsi", np.logical_or), ("maxui", np.logical_or), ("minui", np.logical_and)],
)
@pytest.mark.parametrize("init", [F, T])
def test_linalg_reduce_of_i1_folds_in_loop_order(op, fold, init):
    inits = np.full(4, init)
    (got,) = _sim(_REDUCE.format(op=op)).run("f", [_ROWS, inits])
    want = fold(fold.reduce(_ROWS, axis=1), inits)
    assert got.tolist() == want.tolist()


_COLLECTIVES = """
mesh.mesh @m(shape = 2)
func.func @f(%x: tensor<4xi1>) -> (tensor<4xi1>, tensor<4xi1>, tensor<2xi1>, tensor<2xi1>) {
  %0 = mesh.all_reduce %x on @m mesh_axes = [0] reduction = <max> : tensor<4xi1> -> tensor<4xi1>
  %1 = mesh.all_reduce %x on @m mesh_axes = [0] reduction = <min> : tensor<4xi1> -> tensor<4xi1>
  %2 = mesh.reduce_scatter %x on @m mesh_axes = [0] reduction = <max> scatter_axis = 0 : tensor<4xi1> -> tensor<2xi1>
  %3 = mesh.reduce_scatter %x on @m mesh_axes = [0] reduction = <min> scatter_axis = 0 : tensor<4xi1> -> tensor<2xi1>
  return %0, %1, %2, %3 : tensor<4xi1>, tensor<4xi1>, tensor<2xi1>, tensor<2xi1>
}
"""


def test_mesh_max_and_min_on_i1_are_signed_in_the_ir():
    ctx = mesh_dialect.context()
    module = mesh_dialect.parse(_COLLECTIVES, context=ctx)
    inputs = {(0,): [np.array([F, F, T, T])], (1,): [np.array([F, T, F, T])]}
    with ctx:
        out = Runner(module, mesh="m").run_spmd("f", inputs)
    for d in out:
        assert out[d][0].tolist() == [F, F, F, T]  # max: and
        assert out[d][1].tolist() == [F, T, T, T]  # min: or
    assert out[(0,)][2].tolist() == [F, F] and out[(1,)][2].tolist() == [F, T]
    assert out[(0,)][3].tolist() == [F, T] and out[(1,)][3].tolist() == [T, T]


def test_collective_functions_and_combine_agree_on_i1():
    mesh = Mesh((2,))
    x = {(0,): np.array([F, F, T, T]), (1,): np.array([F, T, F, T])}
    assert all(v.tolist() == [F, F, F, T] for v in all_reduce(x, mesh, [0], "max").values())
    assert all(v.tolist() == [F, T, T, T] for v in all_reduce(x, mesh, [0], "min").values())
    assert reduce_scatter(x, mesh, [0], "max", 0)[(1,)].tolist() == [F, T]
    assert combine(list(x.values()), "max").tolist() == [F, F, F, T]
    assert combine(list(x.values()), "min").tolist() == [F, T, T, T]


@pytest.mark.parametrize("kind", ["max", "min"])
def test_partial_i1_layouts_reduce_signed(kind):
    mesh = Mesh((2,))
    s = Sharding(((),), (0,), kind)
    x = {(0,): np.array([F, F, T, T]), (1,): np.array([F, T, F, T])}
    want = [F, F, F, T] if kind == "max" else [F, T, T, T]
    assert assemble(x, s, mesh).tolist() == want
    value = np.array([p[0] for p in itertools.product([F, T], repeat=3)])
    for n in (2, 3, 5):
        terms = partial_terms(value, kind, n, np.random.default_rng(n))
        assert combine(list(terms), kind).tolist() == value.tolist()


_HLO = """
func.func @f(%a: tensor<4xi1>, %b: tensor<4xi1>) -> (tensor<4xi1>, tensor<4xi1>) {
  %0 = "stablehlo.maximum"(%a, %b) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %1 = "stablehlo.minimum"(%a, %b) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  "func.return"(%0, %1) : (tensor<4xi1>, tensor<4xi1>) -> ()
}
"""


def test_stablehlo_maximum_on_booleans_stays_or():
    a, b = np.array([F, F, T, T]), np.array([F, T, F, T])
    got = _sim(_HLO).run("f", [a, b])
    assert [g.tolist() for g in got] == [[F, T, T, T], [F, F, F, T]]
