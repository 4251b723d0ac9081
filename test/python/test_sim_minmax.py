"""Float max and min in the simulator order -0.0 below +0.0 whatever the
operand order (numpy's maximum and minimum pick by order on ties): the
helpers of `sim.minmax` on their truth table, their reductions, and the ops
and reductions that use them (arith, linalg, stablehlo, tosa, mesh)."""

from __future__ import annotations

import functools
import itertools

import numpy as np
import pytest
from simhelpers import run

import mesh_dialect.sim.ops  # noqa: F401  (registers the handlers)
from mesh_dialect.sim import minmax
from mesh_dialect.sim.layout import combine

P, N, NAN = 0.0, -0.0, float("nan")
VALUES = [P, N, NAN, -NAN, 1.0, -1.0]  # -NAN: a NaN with its sign bit set
FLOATS = [np.float16, np.float32, np.float64]


def _key(x) -> tuple:
    """What tells results apart: NaN-ness, then value and sign bit."""
    x = float(x)
    return ("nan",) if np.isnan(x) else (x, bool(np.signbit(x)))


def _want(a: float, b: float, larger: bool, ignore_nan: bool) -> tuple:
    if np.isnan(a) or np.isnan(b):
        if not ignore_nan or (np.isnan(a) and np.isnan(b)):
            return ("nan",)
        return _key(b if np.isnan(a) else a)
    # -0 < +0: order by (value, sign bit clear)
    order = sorted([a, b], key=lambda v: (v, not np.signbit(v)))
    return _key(order[-1] if larger else order[0])


CASES = {
    minmax.maximum: (True, False),
    minmax.minimum: (False, False),
    minmax.maximum_number: (True, True),
    minmax.minimum_number: (False, True),
}


@pytest.mark.parametrize("fn", list(CASES), ids=lambda f: f.__name__)
@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_truth_table_both_orders(fn, dtype):
    larger, ignore = CASES[fn]
    for a, b in itertools.product(VALUES, repeat=2):
        got = fn(dtype(a), dtype(b))
        assert isinstance(got, dtype), (a, b, type(got))
        assert _key(got) == _want(a, b, larger, ignore), (fn.__name__, a, b, got)


@pytest.mark.parametrize("fn", list(CASES), ids=lambda f: f.__name__)
def test_arrays_and_broadcasting(fn):
    larger, ignore = CASES[fn]
    pairs = list(itertools.product(VALUES, repeat=2))
    a = np.array([p[0] for p in pairs], dtype=np.float32)
    b = np.array([p[1] for p in pairs], dtype=np.float32)
    got = fn(a, b)
    assert got.dtype == np.float32 and got.shape == a.shape
    assert [_key(v) for v in got] == [_want(x, y, larger, ignore) for x, y in pairs]
    # a scalar against an array, either side
    for s in VALUES:
        left = fn(np.float32(s), b)
        right = fn(b, np.float32(s))
        assert [_key(v) for v in left] == [_key(v) for v in right] == [_want(s, y, larger, ignore) for y in b]


def test_integers_and_bools_are_numpys():
    a = np.array([-3, 0, 5], dtype=np.int8)
    b = np.array([2, 0, -7], dtype=np.int8)
    assert (minmax.maximum(a, b) == np.maximum(a, b)).all() and minmax.maximum(a, b).dtype == np.int8
    assert (minmax.minimum_number(a, b) == np.minimum(a, b)).all()
    t = np.array([True, False])
    assert (minmax.maximum(t, t[::-1]) == np.maximum(t, t[::-1])).all()


@pytest.mark.parametrize("fn", list(CASES), ids=lambda f: f.__name__)
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_reduce_is_the_fold_in_any_order(fn, keepdims, dtype):
    rng = np.random.default_rng(7)
    x = rng.choice(np.array(VALUES, dtype=dtype), size=(6, 5, 4))
    for axis in (0, 1, 2, (0, 2)):
        got = minmax.reduce(fn, x, axis, keepdims=keepdims)
        moved = np.moveaxis(x, np.atleast_1d(axis), range(-len(np.atleast_1d(axis)), 0))
        flat = moved.reshape(*moved.shape[: moved.ndim - len(np.atleast_1d(axis))], -1)
        for items in (np.moveaxis(flat, -1, 0), np.moveaxis(flat, -1, 0)[::-1]):
            folded = functools.reduce(fn, items)
            want = np.expand_dims(folded, axis) if keepdims else folded
            assert got.dtype == dtype and got.shape == want.shape
            assert [_key(v) for v in got.flat] == [_key(v) for v in want.flat]


@pytest.mark.parametrize("fn", list(CASES), ids=lambda f: f.__name__)
def test_reduce_with_initial(fn):
    x = np.array([[N, N], [P, N], [NAN, N]], dtype=np.float64)
    for init in (P, N, NAN, -5.0):
        got = minmax.reduce(fn, x, 1, initial=init)
        want = [functools.reduce(fn, [np.float64(init), *row]) for row in x]
        assert [_key(v) for v in got] == [_key(v) for v in want], init
        empty = minmax.reduce(fn, np.zeros((3, 0)), 1, initial=init)
        assert [_key(v) for v in empty] == [_key(init)] * 3


def test_mesh_max_min_of_signed_zeros():
    p = np.array([P, P, N], dtype=np.float32)
    n = np.array([N, P, N], dtype=np.float32)
    for kind, want in (("max", [P, P, N]), ("min", [N, P, N])):
        assert [_key(v) for v in combine([p, n], kind)] == [_key(v) for v in want]
        assert [_key(v) for v in combine([n, p], kind)] == [_key(v) for v in want]


_ARITH = """
func.func @f(%a: {t}, %b: {t}) -> ({t}, {t}, {t}, {t}, {t}, {t}, {t}, {t}) {{
  %0 = arith.maximumf %a, %b : {t}
  %1 = arith.maximumf %b, %a : {t}
  %2 = arith.minimumf %a, %b : {t}
  %3 = arith.minimumf %b, %a : {t}
  %4 = arith.maxnumf %a, %b : {t}
  %5 = arith.maxnumf %b, %a : {t}
  %6 = arith.minnumf %a, %b : {t}
  %7 = arith.minnumf %b, %a : {t}
  return %0, %1, %2, %3, %4, %5, %6, %7 : {t}, {t}, {t}, {t}, {t}, {t}, {t}, {t}
}}
"""


def test_arith_ops_on_scalars_and_tensors():
    pairs = list(itertools.product(VALUES, repeat=2))
    a = np.array([p[0] for p in pairs], dtype=np.float32)
    b = np.array([p[1] for p in pairs], dtype=np.float32)
    got = run(_ARITH.format(t=f"tensor<{len(pairs)}xf32>"), a, b)
    for k, (larger, ignore) in enumerate([(True, False), (False, False), (True, True), (False, True)]):
        want = [_want(x, y, larger, ignore) for x, y in pairs]
        assert [_key(v) for v in got[2 * k]] == want
        assert [_key(v) for v in got[2 * k + 1]] == want
    for x, y in pairs:
        got = run(_ARITH.format(t="f32"), np.float32(x), np.float32(y))
        assert [_key(v) for v in got] == [_want(x, y, lg, ig) for lg, ig in CASES.values() for _ in (0, 1)]


_LINALG = """
func.func @f(%x: tensor<4x2xf32>, %init: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %max = linalg.reduce ins(%x : tensor<4x2xf32>) outs(%init : tensor<4xf32>) dimensions = [1]
    (%a: f32, %acc: f32) {
      %m = arith.maximumf %a, %acc : f32
      linalg.yield %m : f32
    }
  %min = linalg.reduce ins(%x : tensor<4x2xf32>) outs(%init : tensor<4xf32>) dimensions = [1]
    (%a: f32, %acc: f32) {
      %m = arith.minimumf %acc, %a : f32
      linalg.yield %m : f32
    }
  return %max, %min : tensor<4xf32>, tensor<4xf32>
}
"""


def test_linalg_reduce_of_signed_zeros():
    x = np.array([[N, P], [P, N], [N, N], [P, P]], dtype=np.float32)
    for init, want_max, want_min in ((P, [P, P, P, P], [N, N, N, P]), (N, [P, P, N, P], [N, N, N, N])):
        mx, mn = run(_LINALG, x, np.full(4, init, dtype=np.float32))
        assert [_key(v) for v in mx] == [_key(v) for v in want_max]
        assert [_key(v) for v in mn] == [_key(v) for v in want_min]


_HLO = """
func.func @f(%a: tensor<2xf32>, %b: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<f32>, tensor<f32>) {
  %0 = "stablehlo.maximum"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = "stablehlo.minimum"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %z = "stablehlo.constant"() <{value = dense<-0.0> : tensor<f32>}> : () -> tensor<f32>
  %2 = "stablehlo.reduce"(%a, %z) <{dimensions = array<i64: 0>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %r = "stablehlo.maximum"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%r) : (tensor<f32>) -> ()
  }) : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
  %3 = "stablehlo.reduce"(%b, %z) <{dimensions = array<i64: 0>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %r = "stablehlo.minimum"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%r) : (tensor<f32>) -> ()
  }) : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
  return %0, %1, %2, %3 : tensor<2xf32>, tensor<2xf32>, tensor<f32>, tensor<f32>
}
"""


def test_stablehlo_maximum_minimum_and_reduce():
    a = np.array([N, P], dtype=np.float32)
    b = np.array([P, N], dtype=np.float32)
    mx, mn, rmax, rmin = run(_HLO, a, b)
    assert [_key(v) for v in mx] == [_key(P)] * 2
    assert [_key(v) for v in mn] == [_key(N)] * 2
    assert _key(rmax) == _key(P) and _key(rmin) == _key(N)


_TOSA = """
func.func @f(%a: tensor<2xf32>, %b: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) {
  %0 = tosa.maximum %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = tosa.minimum %a, %b {nan_mode = #tosa.nan_mode<IGNORE>} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %2 = tosa.reduce_max %b {axis = 0 : i32} : (tensor<2xf32>) -> tensor<1xf32>
  %3 = tosa.reduce_min %a {axis = 0 : i32, nan_mode = #tosa.nan_mode<IGNORE>} : (tensor<2xf32>) -> tensor<1xf32>
  return %0, %1, %2, %3 : tensor<2xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>
}
"""


def test_tosa_maximum_minimum_and_reductions():
    a = np.array([N, P], dtype=np.float32)
    b = np.array([P, N], dtype=np.float32)
    mx, mn, rmax, rmin = run(_TOSA, a, b)
    assert [_key(v) for v in mx] == [_key(P)] * 2
    assert [_key(v) for v in mn] == [_key(N)] * 2
    assert _key(rmax[0]) == _key(P) and _key(rmin[0]) == _key(N)
