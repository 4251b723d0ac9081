"""linalg in the simulator: every op against a numpy reference computed here,
exact results (floats accumulate in loop order, integers wrap), the three
ways a reduction runs agreeing bit for bit, and the errors."""

from __future__ import annotations

import math
import subprocess

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from simhelpers import MLIR_OPT, run, small_ints

import mesh_dialect
import mesh_dialect.sim.ops  # noqa: F401  (registers the handlers)
from mesh_dialect.sim.floats import to_bf16
from mesh_dialect.sim.interpreter import Runner
from mesh_dialect.sim.ops import linalg as linalg_ops
from mesh_dialect.sim.program import SimError

F32 = np.float32
RNG = np.random.default_rng(1234)


ints = small_ints(RNG)


def loop_matmul(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """C + A@B accumulated k by k in C's type, as the lowered loop does."""
    out = c.copy()
    for k in range(a.shape[1]):
        out = (out + a[:, k, None].astype(c.dtype) * b[None, k, :].astype(c.dtype)).astype(c.dtype)
    return out


# -- an MLP layer ------------------------------------------------------------------


MLP = """
func.func @f(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<4x16xf32>, %init: tensor<4x16xf32>)
    -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<4x16xf32>) -> tensor<4x16xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%acc : tensor<4x16xf32>) -> tensor<4x16xf32>
  %biased = linalg.add ins(%mm, %b : tensor<4x16xf32>, tensor<4x16xf32>) outs(%init : tensor<4x16xf32>)
      -> tensor<4x16xf32>
  %zeros = linalg.fill ins(%zero : f32) outs(%init : tensor<4x16xf32>) -> tensor<4x16xf32>
  %relu = linalg.max ins(%biased, %zeros : tensor<4x16xf32>, tensor<4x16xf32>) outs(%init : tensor<4x16xf32>)
      -> tensor<4x16xf32>
  return %relu : tensor<4x16xf32>
}
"""


def test_mlp_layer_fill_matmul_add_relu():
    x, w, b = ints((4, 8)), ints((8, 16)), ints((4, 16))
    init = np.full((4, 16), 99, F32)  # overwritten by the fills
    (out,) = run(MLP, x, w, b, init)
    np.testing.assert_array_equal(out, np.maximum(x @ w + b, 0))
    assert out.dtype == F32
    np.testing.assert_array_equal(init, np.full((4, 16), 99, F32))  # tensors are values


# -- contractions -----------------------------------------------------------------------


@pytest.fixture
def loop_order(monkeypatch):
    """Float contractions summed in loop order instead of by BLAS."""
    monkeypatch.setattr(linalg_ops, "LOOP_ORDER_FLOATS", True)


def test_matmul_accumulates_into_outs_in_loop_order(loop_order):
    a, b = RNG.standard_normal((5, 7)).astype(F32), RNG.standard_normal((7, 3)).astype(F32)
    c = RNG.standard_normal((5, 3)).astype(F32)
    text = """
    func.func @f(%a: tensor<5x7xf32>, %b: tensor<7x3xf32>, %c: tensor<5x3xf32>) -> tensor<5x3xf32> {
      %0 = linalg.matmul ins(%a, %b : tensor<5x7xf32>, tensor<7x3xf32>) outs(%c : tensor<5x3xf32>) -> tensor<5x3xf32>
      return %0 : tensor<5x3xf32>
    }"""
    (out,) = run(text, a, b, c)
    np.testing.assert_array_equal(out, loop_matmul(a, b, c))


def test_matmul_f16_rounds_every_step_in_f16(loop_order):
    a, b = RNG.standard_normal((3, 9)).astype(np.float16), RNG.standard_normal((9, 2)).astype(np.float16)
    c = RNG.standard_normal((3, 2)).astype(np.float16)
    text = """
    func.func @f(%a: tensor<3x9xf16>, %b: tensor<9x2xf16>, %c: tensor<3x2xf16>) -> tensor<3x2xf16> {
      %0 = linalg.matmul ins(%a, %b : tensor<3x9xf16>, tensor<9x2xf16>) outs(%c : tensor<3x2xf16>) -> tensor<3x2xf16>
      return %0 : tensor<3x2xf16>
    }"""
    (out,) = run(text, a, b, c)
    np.testing.assert_array_equal(out, loop_matmul(a, b, c))


def test_matmul_integer_accumulate_wraps_in_the_output_type():
    a = np.array([[100, 100, -128], [127, 127, 127]], np.int8)
    b = np.array([[100, 3], [100, -1], [2, 127]], np.int8)
    c = np.array([[120, -128], [1, 2]], np.int8)
    text = """
    func.func @f(%a: tensor<2x3xi8>, %b: tensor<3x2xi8>, %c: tensor<2x2xi8>) -> tensor<2x2xi8> {
      %0 = linalg.matmul ins(%a, %b : tensor<2x3xi8>, tensor<3x2xi8>) outs(%c : tensor<2x2xi8>) -> tensor<2x2xi8>
      return %0 : tensor<2x2xi8>
    }"""
    (out,) = run(text, a, b, c)
    exact = c.astype(np.int64) + a.astype(np.int64) @ b.astype(np.int64)
    expected = ((exact + 128) % 256 - 128).astype(np.int8)
    np.testing.assert_array_equal(out, expected)
    assert not np.array_equal(exact, expected)  # it did wrap


def test_matmul_whose_output_loop_no_input_reads_broadcasts():
    # A's map (m, n, k) -> (k) leaves loop m to the output alone: every row
    # of C gets the same sum (einsum cannot broadcast a loop like that)
    a = np.array([1, -2, 3], np.int32)
    b = np.array([[1, 2], [3, 4], [5, 6]], np.int32)
    c = np.array([[10, 20], [30, 40], [50, 60], [70, 80]], np.int32)
    text = """
    func.func @f(%a: tensor<3xi32>, %b: tensor<3x2xi32>, %c: tensor<4x2xi32>) -> tensor<4x2xi32> {
      %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k)>, affine_map<(m, n, k) -> (k, n)>,
                                          affine_map<(m, n, k) -> (m, n)>]
          ins(%a, %b : tensor<3xi32>, tensor<3x2xi32>) outs(%c : tensor<4x2xi32>) -> tensor<4x2xi32>
      return %0 : tensor<4x2xi32>
    }"""
    (out,) = run(text, a, b, c)
    np.testing.assert_array_equal(out, c + (a @ b)[None, :])


def test_matmul_widening_signed_and_unsigned_casts():
    a = np.array([[-1, 2], [3, -128]], np.int8)
    b = np.array([[5, -6], [-7, 8]], np.int8)
    c = np.zeros((2, 2), np.int32)
    body = """
    func.func @f(%a: tensor<2x2xi8>, %b: tensor<2x2xi8>, %c: tensor<2x2xi32>) -> (tensor<2x2xi32>, tensor<2x2xi32>) {
      %s = linalg.matmul ins(%a, %b : tensor<2x2xi8>, tensor<2x2xi8>) outs(%c : tensor<2x2xi32>) -> tensor<2x2xi32>
      %u = linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%a, %b : tensor<2x2xi8>, tensor<2x2xi8>)
          outs(%c : tensor<2x2xi32>) -> tensor<2x2xi32>
      return %s, %u : tensor<2x2xi32>, tensor<2x2xi32>
    }"""
    signed, unsigned = run(body, a, b, c)
    np.testing.assert_array_equal(signed, a.astype(np.int32) @ b.astype(np.int32))
    np.testing.assert_array_equal(unsigned, a.view(np.uint8).astype(np.int32) @ b.view(np.uint8).astype(np.int32))


def test_matmul_with_explicit_transposed_indexing_maps():
    at, bt, c = ints((3, 2)), ints((4, 3)), ints((2, 4))
    text = """
    func.func @f(%at: tensor<3x2xf32>, %bt: tensor<4x3xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
      %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>,
                                          affine_map<(m, n, k) -> (m, n)>]
          ins(%at, %bt : tensor<3x2xf32>, tensor<4x3xf32>) outs(%c : tensor<2x4xf32>) -> tensor<2x4xf32>
      return %0 : tensor<2x4xf32>
    }"""
    (out,) = run(text, at, bt, c)
    np.testing.assert_array_equal(out, c + at.T @ bt.T)


def test_batch_matmul_matvec_vecmat_dot():
    a, b, c = ints((2, 3, 4)), ints((2, 4, 5)), ints((2, 3, 5))
    m, v, y = ints((3, 4)), ints((4,)), ints((3,))
    u, z = ints((3,)), ints((4,))
    s = ints(())
    text = """
    func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %c: tensor<2x3x5xf32>, %m: tensor<3x4xf32>,
                 %v: tensor<4xf32>, %y: tensor<3xf32>, %u: tensor<3xf32>, %z: tensor<4xf32>, %s: tensor<f32>)
        -> (tensor<2x3x5xf32>, tensor<3xf32>, tensor<4xf32>, tensor<f32>) {
      %bm = linalg.batch_matmul ins(%a, %b : tensor<2x3x4xf32>, tensor<2x4x5xf32>) outs(%c : tensor<2x3x5xf32>)
          -> tensor<2x3x5xf32>
      %mv = linalg.matvec ins(%m, %v : tensor<3x4xf32>, tensor<4xf32>) outs(%y : tensor<3xf32>) -> tensor<3xf32>
      %vm = linalg.vecmat ins(%u, %m : tensor<3xf32>, tensor<3x4xf32>) outs(%z : tensor<4xf32>) -> tensor<4xf32>
      %d = linalg.dot ins(%v, %z : tensor<4xf32>, tensor<4xf32>) outs(%s : tensor<f32>) -> tensor<f32>
      return %bm, %mv, %vm, %d : tensor<2x3x5xf32>, tensor<3xf32>, tensor<4xf32>, tensor<f32>
    }"""
    bm, mv, vm, d = run(text, a, b, c, m, v, y, u, z, s)
    np.testing.assert_array_equal(bm, c + a @ b)
    np.testing.assert_array_equal(mv, y + m @ v)
    np.testing.assert_array_equal(vm, z + u @ m)
    assert d.shape == () and d.dtype == F32
    np.testing.assert_array_equal(d, s + v @ z)


@pytest.mark.parametrize("path", ["accumulate", "slabs", "loop", "elements"])
def test_the_three_reduction_paths_agree_bit_for_bit(path, monkeypatch, loop_order):
    if path == "slabs":  # the whole domain does not fit: two k at a time
        monkeypatch.setattr(linalg_ops, "_ACCUMULATE_LIMIT", 4 * 3 * 2)
    elif path == "loop":
        monkeypatch.setattr(linalg_ops, "_ACCUMULATE_LIMIT", 0)
    elif path == "elements":
        monkeypatch.setattr(linalg_ops, "_VECTOR_OPS", ())
    a, b = RNG.standard_normal((4, 6)).astype(F32), RNG.standard_normal((6, 3)).astype(F32)
    c = RNG.standard_normal((4, 3)).astype(F32)
    text = """
    func.func @f(%a: tensor<4x6xf32>, %b: tensor<6x3xf32>, %c: tensor<4x3xf32>) -> tensor<4x3xf32> {
      %0 = linalg.matmul ins(%a, %b : tensor<4x6xf32>, tensor<6x3xf32>) outs(%c : tensor<4x3xf32>) -> tensor<4x3xf32>
      return %0 : tensor<4x3xf32>
    }"""
    (out,) = run(text, a, b, c)
    np.testing.assert_array_equal(out, loop_matmul(a, b, c))


@settings(max_examples=25, deadline=None)
@given(
    m=st.integers(1, 4),
    n=st.integers(1, 4),
    k=st.integers(0, 40),
    seed=st.integers(0, 2**32 - 1),
    limit=st.sampled_from([1 << 21, 7, 0]),
)
def test_int8_matmul_wraps_like_modular_arithmetic(m, n, k, seed, limit):
    """Any shape (k = 0 included), any path: C + A@B modulo 256."""
    rng = np.random.default_rng(seed)
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    b = rng.integers(-128, 128, (k, n)).astype(np.int8)
    c = rng.integers(-128, 128, (m, n)).astype(np.int8)
    text = f"""
    func.func @f(%a: tensor<{m}x{k}xi8>, %b: tensor<{k}x{n}xi8>, %c: tensor<{m}x{n}xi8>) -> tensor<{m}x{n}xi8> {{
      %0 = linalg.matmul ins(%a, %b : tensor<{m}x{k}xi8>, tensor<{k}x{n}xi8>) outs(%c : tensor<{m}x{n}xi8>)
          -> tensor<{m}x{n}xi8>
      return %0 : tensor<{m}x{n}xi8>
    }}"""
    saved = linalg_ops._ACCUMULATE_LIMIT
    linalg_ops._ACCUMULATE_LIMIT = limit
    try:
        (out,) = run(text, a, b, c)
    finally:
        linalg_ops._ACCUMULATE_LIMIT = saved
    exact = c.astype(np.int64) + a.astype(np.int64) @ b.astype(np.int64)
    np.testing.assert_array_equal(out, ((exact + 128) % 256 - 128).astype(np.int8))


# -- data movement ----------------------------------------------------------------------


def test_transpose_broadcast_copy_fill():
    x = ints((2, 3, 4))
    v = ints((3,))
    text = """
    func.func @f(%x: tensor<2x3x4xf32>, %t: tensor<4x2x3xf32>, %v: tensor<3xf32>, %b: tensor<2x3x5xf32>)
        -> (tensor<4x2x3xf32>, tensor<2x3x5xf32>, tensor<2x3x4xf32>, tensor<4x2x3xf32>) {
      %tr = linalg.transpose ins(%x : tensor<2x3x4xf32>) outs(%t : tensor<4x2x3xf32>) permutation = [2, 0, 1]
      %bc = linalg.broadcast ins(%v : tensor<3xf32>) outs(%b : tensor<2x3x5xf32>) dimensions = [0, 2]
      %cp = linalg.copy ins(%x : tensor<2x3x4xf32>) outs(%x : tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
      %c = arith.constant 2.5 : f32
      %fl = linalg.fill ins(%c : f32) outs(%t : tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
      return %tr, %bc, %cp, %fl : tensor<4x2x3xf32>, tensor<2x3x5xf32>, tensor<2x3x4xf32>, tensor<4x2x3xf32>
    }"""
    tr, bc, cp, fl = run(text, x, np.zeros((4, 2, 3), F32), v, np.zeros((2, 3, 5), F32))
    np.testing.assert_array_equal(tr, x.transpose(2, 0, 1))
    np.testing.assert_array_equal(bc, np.broadcast_to(v[None, :, None], (2, 3, 5)))
    np.testing.assert_array_equal(cp, x)
    assert cp is not x and tr.flags.c_contiguous
    np.testing.assert_array_equal(fl, np.full((4, 2, 3), 2.5, F32))


def test_reduce_over_two_dims_and_map():
    x = RNG.standard_normal((3, 4, 5)).astype(F32)
    init = RNG.standard_normal((4,)).astype(F32)
    text = """
    func.func @f(%x: tensor<3x4x5xf32>, %init: tensor<4xf32>) -> (tensor<4xf32>, tensor<3x4x5xf32>) {
      %r = linalg.reduce ins(%x : tensor<3x4x5xf32>) outs(%init : tensor<4xf32>) dimensions = [0, 2]
        (%in: f32, %acc: f32) {
          %0 = arith.addf %acc, %in : f32
          linalg.yield %0 : f32
        }
      %m = linalg.map ins(%x, %x : tensor<3x4x5xf32>, tensor<3x4x5xf32>) outs(%x : tensor<3x4x5xf32>)
        (%a: f32, %b: f32, %o: f32) {
          %0 = arith.mulf %a, %b : f32
          %1 = arith.subf %0, %a : f32
          linalg.yield %1 : f32
        }
      return %r, %m : tensor<4xf32>, tensor<3x4x5xf32>
    }"""
    r, m = run(text, x, init)
    expected = init.copy()
    for i in range(3):  # dims 0 then 2, lexicographically
        for k in range(5):
            expected = (expected + x[i, :, k]).astype(F32)
    np.testing.assert_array_equal(r, expected)
    np.testing.assert_array_equal(m, x * x - x)


COMBINERS = [
    # (body op, element type, numpy fold applied in loop order)
    ("arith.addi", "i8", np.add),
    ("arith.muli", "i8", np.multiply),
    ("arith.maxsi", "i8", np.maximum),
    ("arith.minsi", "i8", np.minimum),
    ("arith.maxui", "i8", lambda a, b: np.maximum(a.view(np.uint8), b.view(np.uint8)).view(np.int8)),
    ("arith.minui", "i8", lambda a, b: np.minimum(a.view(np.uint8), b.view(np.uint8)).view(np.int8)),
    ("arith.andi", "i8", np.bitwise_and),
    ("arith.ori", "i8", np.bitwise_or),
    ("arith.xori", "i8", np.bitwise_xor),
    ("arith.addf", "f32", np.add),
    ("arith.mulf", "f32", np.multiply),
    ("arith.maximumf", "f32", np.maximum),
    ("arith.minimumf", "f32", np.minimum),
    ("arith.maxnumf", "f32", np.fmax),
    ("arith.minnumf", "f32", np.fmin),
]


@pytest.mark.parametrize(("op", "elem", "fold"), COMBINERS, ids=[c[0] for c in COMBINERS])
@pytest.mark.parametrize("out_first", [True, False])
def test_reduce_with_each_combiner(op, elem, fold, out_first):
    dtype = np.int8 if elem == "i8" else F32
    if dtype == F32:
        x = RNG.standard_normal((3, 9)).astype(F32)
        x[1, 4] = np.nan
        init = np.array([0.5, np.nan, -0.0], F32)
    else:
        x = RNG.integers(-128, 128, (3, 9)).astype(np.int8)
        init = RNG.integers(-128, 128, 3).astype(np.int8)
    operands = "%acc, %in" if out_first else "%in, %acc"
    text = f"""
    func.func @f(%x: tensor<3x9x{elem}>, %init: tensor<3x{elem}>) -> tensor<3x{elem}> {{
      %r = linalg.reduce ins(%x : tensor<3x9x{elem}>) outs(%init : tensor<3x{elem}>) dimensions = [1]
        (%in: {elem}, %acc: {elem}) {{
          %0 = {op} {operands} : {elem}
          linalg.yield %0 : {elem}
        }}
      return %r : tensor<3x{elem}>
    }}"""
    (out,) = run(text, x, init)
    expected = init.copy()
    with np.errstate(over="ignore"):
        for j in range(9):
            expected = fold(expected, x[:, j]) if out_first else fold(x[:, j], expected)
    np.testing.assert_array_equal(out, expected.astype(dtype))
    assert out.dtype == dtype


# -- named elementwise ops ------------------------------------------------------------

UNARY = {
    "exp": np.exp,
    "log": np.log,
    "abs": np.abs,
    "ceil": np.ceil,
    "floor": np.floor,
    "negf": np.negative,
    "sqrt": np.sqrt,
    "rsqrt": lambda x: 1 / np.sqrt(x),
    "tanh": np.tanh,
    "square": np.square,
    "reciprocal": lambda x: 1 / x,
    "erf": np.vectorize(math.erf),
}
TRANSCENDENTAL = {"exp", "log", "sqrt", "rsqrt", "tanh", "erf", "reciprocal"}


@pytest.mark.parametrize("name", sorted(UNARY))
def test_named_unary_ops(name):
    x = (RNG.random((3, 4)) * 4 + 0.25).astype(F32) * np.where(name in ("abs", "ceil", "floor", "negf"), -1, 1)
    text = f"""
    func.func @f(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {{
      %0 = linalg.{name} ins(%x : tensor<3x4xf32>) outs(%x : tensor<3x4xf32>) -> tensor<3x4xf32>
      return %0 : tensor<3x4xf32>
    }}"""
    (out,) = run(text, x)
    expected = UNARY[name](x.astype(np.float64))
    assert out.dtype == F32
    if name in TRANSCENDENTAL:
        np.testing.assert_allclose(out, expected, rtol=2e-7 * 4, atol=0)  # a few f32 ulps
    else:
        np.testing.assert_array_equal(out, expected.astype(F32))


BINARY = {
    "add": (np.add, F32),
    "sub": (np.subtract, F32),
    "mul": (np.multiply, F32),
    "div": (np.divide, F32),
    "max": (np.maximum, F32),
    "min": (np.minimum, F32),
    "powf": (np.power, F32),
    "div_unsigned": (lambda a, b: (a.view(np.uint32) // b.view(np.uint32)).view(np.int32), np.int32),
}


@pytest.mark.parametrize("name", sorted(BINARY))
def test_named_binary_ops(name):
    fn, dtype = BINARY[name]
    if dtype == F32:
        a, b = (RNG.random((2, 5)) * 3 + 0.5).astype(F32), (RNG.random((2, 5)) * 3 + 0.5).astype(F32)
        t = "f32"
    else:
        a = np.array([[-7, 7, -1, 100, 5], [0, -(2**31), 9, 3, -3]], np.int32)
        b = np.array([[2, -2, 3, 7, -1], [5, 2, 4, 3, 3]], np.int32)
        t = "i32"
    text = f"""
    func.func @f(%a: tensor<2x5x{t}>, %b: tensor<2x5x{t}>) -> tensor<2x5x{t}> {{
      %0 = linalg.{name} ins(%a, %b : tensor<2x5x{t}>, tensor<2x5x{t}>) outs(%a : tensor<2x5x{t}>) -> tensor<2x5x{t}>
      return %0 : tensor<2x5x{t}>
    }}"""
    (out,) = run(text, a, b)
    if name == "powf":
        np.testing.assert_allclose(out, fn(a.astype(np.float64), b), rtol=1e-6)
    else:
        np.testing.assert_array_equal(out, fn(a, b))


def test_signed_div_truncates_and_select_picks():
    a = np.array([-7, 7, -8, 9], np.int32)
    b = np.array([2, -2, 3, 4], np.int32)
    cond = np.array([True, False, True, False])
    text = """
    func.func @f(%a: tensor<4xi32>, %b: tensor<4xi32>, %c: tensor<4xi1>) -> (tensor<4xi32>, tensor<4xi32>) {
      %d = linalg.div ins(%a, %b : tensor<4xi32>, tensor<4xi32>) outs(%a : tensor<4xi32>) -> tensor<4xi32>
      %s = linalg.select ins(%c, %a, %b : tensor<4xi1>, tensor<4xi32>, tensor<4xi32>) outs(%a : tensor<4xi32>)
          -> tensor<4xi32>
      return %d, %s : tensor<4xi32>, tensor<4xi32>
    }"""
    d, s = run(text, a, b, cond)
    np.testing.assert_array_equal(d, [-3, -3, -2, 2])
    np.testing.assert_array_equal(s, np.where(cond, a, b))


def test_linalg_elementwise_kinds():
    a, b = ints((2, 3)), ints((2, 3))
    text = """
    func.func @f(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
      %e = linalg.elementwise kind=#linalg.elementwise_kind<exp> ins(%a : tensor<2x3xf32>) outs(%a : tensor<2x3xf32>)
          -> tensor<2x3xf32>
      %s = linalg.elementwise kind=#linalg.elementwise_kind<sub> ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>)
          outs(%a : tensor<2x3xf32>) -> tensor<2x3xf32>
      return %e, %s : tensor<2x3xf32>, tensor<2x3xf32>
    }"""
    e, s = run(text, a, b)
    np.testing.assert_allclose(e, np.exp(a.astype(np.float64)), rtol=1e-6)
    np.testing.assert_array_equal(s, a - b)


# -- linalg.generic ------------------------------------------------------------------


def test_generic_reduction_dim_first_with_two_outputs():
    """Sum and max over d0 (the outer loop dim); the sum rounds in order."""
    x = RNG.standard_normal((6, 4)).astype(F32)
    s0, m0 = RNG.standard_normal(4).astype(F32), np.full(4, -np.inf, F32)
    text = """
    func.func @f(%x: tensor<6x4xf32>, %s: tensor<4xf32>, %m: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
      %0:2 = linalg.generic {indexing_maps = [affine_map<(r, p) -> (r, p)>, affine_map<(r, p) -> (p)>,
                                              affine_map<(r, p) -> (p)>],
                             iterator_types = ["reduction", "parallel"]}
          ins(%x : tensor<6x4xf32>) outs(%s, %m : tensor<4xf32>, tensor<4xf32>) {
      ^bb0(%in: f32, %sum: f32, %max: f32):
        %sq = arith.mulf %in, %in : f32
        %1 = arith.addf %sum, %sq : f32
        %2 = arith.maximumf %max, %in : f32
        linalg.yield %1, %2 : f32, f32
      } -> (tensor<4xf32>, tensor<4xf32>)
      return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
    }"""
    total, biggest = run(text, x, s0, m0)
    expected = s0.copy()
    for r in range(6):
        expected = (expected + x[r] * x[r]).astype(F32)
    np.testing.assert_array_equal(total, expected)
    np.testing.assert_array_equal(biggest, x.max(axis=0))


def test_generic_with_linalg_index_elementwise_and_in_a_reduction():
    x = ints((3, 4), dtype=np.int32)
    acc = ints((3,), dtype=np.int32)
    text = """
    func.func @f(%x: tensor<3x4xi32>, %acc: tensor<3xi32>) -> (tensor<3x4xi32>, tensor<3xi32>) {
      %e = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                           iterator_types = ["parallel", "parallel"]}
          ins(%x : tensor<3x4xi32>) outs(%x : tensor<3x4xi32>) {
      ^bb0(%in: i32, %out: i32):
        %i = linalg.index 0 : index
        %j = linalg.index 1 : index
        %ii = arith.index_cast %i : index to i32
        %jj = arith.index_cast %j : index to i32
        %0 = arith.muli %in, %ii : i32
        %1 = arith.addi %0, %jj : i32
        linalg.yield %1 : i32
      } -> tensor<3x4xi32>
      %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                           iterator_types = ["parallel", "reduction"]}
          ins(%x : tensor<3x4xi32>) outs(%acc : tensor<3xi32>) {
      ^bb0(%in: i32, %out: i32):
        %j = linalg.index 1 : index
        %jj = arith.index_cast %j : index to i32
        %0 = arith.muli %out, %jj : i32
        %1 = arith.addi %0, %in : i32
        linalg.yield %1 : i32
      } -> tensor<3xi32>
      return %e, %r : tensor<3x4xi32>, tensor<3xi32>
    }"""
    e, r = run(text, x, acc)
    i, j = np.indices((3, 4))
    np.testing.assert_array_equal(e, x * i + j)
    expected = acc.copy()
    for j in range(4):
        expected = expected * j + x[:, j]
    np.testing.assert_array_equal(r, expected)


def test_generic_with_a_control_flow_body_runs_element_by_element():
    x = ints((2, 5), dtype=np.int32)
    acc = np.zeros(2, np.int32)
    text = """
    func.func @f(%x: tensor<2x5xi32>, %acc: tensor<2xi32>) -> tensor<2xi32> {
      %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                           iterator_types = ["parallel", "reduction"]}
          ins(%x : tensor<2x5xi32>) outs(%acc : tensor<2xi32>) {
      ^bb0(%in: i32, %out: i32):
        %z = arith.constant 0 : i32
        %pos = arith.cmpi sgt, %in, %z : i32
        %v = scf.if %pos -> i32 {
          %s = arith.addi %out, %in : i32
          scf.yield %s : i32
        } else {
          scf.yield %out : i32
        }
        linalg.yield %v : i32
      } -> tensor<2xi32>
      return %r : tensor<2xi32>
    }"""
    (r,) = run(text, x, acc)
    np.testing.assert_array_equal(r, np.where(x > 0, x, 0).sum(axis=1))


def test_generic_with_non_permutation_maps_convolves():
    x, w = ints((10,)), ints((3,))
    y = ints((8,))
    text = """
    func.func @f(%x: tensor<10xf32>, %w: tensor<3xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
      %r = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i + k)>, affine_map<(i, k) -> (k)>,
                                            affine_map<(i, k) -> (i)>],
                           iterator_types = ["parallel", "reduction"]}
          ins(%x, %w : tensor<10xf32>, tensor<3xf32>) outs(%y : tensor<8xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %0 = arith.mulf %a, %b : f32
        %1 = arith.addf %o, %0 : f32
        linalg.yield %1 : f32
      } -> tensor<8xf32>
      return %r : tensor<8xf32>
    }"""
    (r,) = run(text, x, w, y)
    np.testing.assert_array_equal(r, y + np.correlate(x, w, mode="valid"))


def test_named_convolution_and_pooling():
    x = ints((1, 6, 5, 2))
    w = ints((3, 2, 2, 4))
    out = np.zeros((1, 4, 4, 4), F32)
    pool_out = np.full((1, 5, 4, 2), -np.inf, F32)
    text = """
    func.func @f(%x: tensor<1x6x5x2xf32>, %w: tensor<3x2x2x4xf32>, %o: tensor<1x4x4x4xf32>,
                 %win: tensor<2x2xf32>, %po: tensor<1x5x4x2xf32>) -> (tensor<1x4x4x4xf32>, tensor<1x5x4x2xf32>) {
      %c = linalg.conv_2d_nhwc_hwcf ins(%x, %w : tensor<1x6x5x2xf32>, tensor<3x2x2x4xf32>)
          outs(%o : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
      %p = linalg.pooling_nhwc_max ins(%x, %win : tensor<1x6x5x2xf32>, tensor<2x2xf32>)
          outs(%po : tensor<1x5x4x2xf32>) -> tensor<1x5x4x2xf32>
      return %c, %p : tensor<1x4x4x4xf32>, tensor<1x5x4x2xf32>
    }"""
    conv, pool = run(text, x, w, out, np.zeros((2, 2), F32), pool_out)
    expected = np.zeros_like(out)
    for h in range(4):
        for v in range(4):
            expected[0, h, v] = np.einsum("hwc,hwcf->f", x[0, h : h + 3, v : v + 2], w)
    np.testing.assert_array_equal(conv, expected)
    windows = np.lib.stride_tricks.sliding_window_view(x, (2, 2), axis=(1, 2))
    np.testing.assert_array_equal(pool, windows.max(axis=(-2, -1)))


def test_linalg_on_buffers_writes_the_output_in_place():
    a, b = ints((2, 3)), ints((3, 2))
    c = ints((2, 2))
    original = c.copy()
    text = """
    func.func @f(%a: memref<2x3xf32>, %b: memref<3x2xf32>, %c: memref<2x2xf32>) {
      linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x2xf32>) outs(%c : memref<2x2xf32>)
      return
    }"""
    assert run(text, a, b, c) == []
    np.testing.assert_array_equal(c, original + a @ b)


# -- errors ----------------------------------------------------------------------------


def test_mismatched_operand_shapes_fail_with_the_location():
    text = """
    func.func @f(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
      %0 = linalg.add ins(%a, %b : tensor<?xf32>, tensor<?xf32>) outs(%a : tensor<?xf32>) -> tensor<?xf32>
      return %0 : tensor<?xf32>
    }"""
    with pytest.raises(
        SimError, match=r":3:\d+: 'linalg.add' operand #1 has size 4 in dim 0 but loop dim d0 has size 3"
    ):
        run(text, np.zeros(3, F32), np.zeros(4, F32))


def test_out_of_bounds_affine_read_fails():
    text = """
    func.func @f(%x: tensor<?xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
      %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i + 1)>, affine_map<(i) -> (i)>],
                           iterator_types = ["parallel"]}
          ins(%x : tensor<?xf32>) outs(%y : tensor<4xf32>) {
      ^bb0(%a: f32, %o: f32):
        linalg.yield %a : f32
      } -> tensor<4xf32>
      return %r : tensor<4xf32>
    }"""
    (r,) = run(text, np.arange(5, dtype=F32), np.zeros(4, F32))
    np.testing.assert_array_equal(r, [1, 2, 3, 4])
    with pytest.raises(SimError, match="reads operand #0 out of bounds in dim 0"):
        run(text, np.arange(4, dtype=F32), np.zeros(4, F32))


def test_linalg_ops_without_a_body_are_reported_unsupported():
    text = """
    func.func @f(%x: tensor<2x4xf32>, %e: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
      %0 = linalg.pack %x inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %e : tensor<2x4xf32> -> tensor<1x2x2x2xf32>
      return %0 : tensor<1x2x2x2xf32>
    }"""
    with pytest.raises(SimError, match="'linalg.pack' is not supported"):
        run(text, ints((2, 4)), ints((1, 2, 2, 2)))


_DECOMPOSE = """
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match ops{["linalg.softmax"]} in %root : (!transform.any_op) -> !transform.any_op
    %parts = transform.structured.decompose_interface %ops : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
"""


@pytest.mark.parametrize("element", ["f32", "f16", "bf16"])
@pytest.mark.parametrize("dim", [0, 1])
def test_softmax_runs_as_mlirs_own_decomposition(element, dim):
    """linalg.softmax gives, bit for bit, what upstream's decomposition of
    it (max, exp of the difference, sum, quotient: `decompose_interface`)
    gives in the simulator, NaN and infinite rows included."""
    if not MLIR_OPT.exists():
        pytest.skip("upstream mlir-opt is not installed")
    t = f"tensor<6x6x{element}>"
    text = f"""func.func @f(%x: {t}) -> {t} {{
      %e = tensor.empty() : {t}
      %r = linalg.softmax dimension({dim}) ins(%x : {t}) outs(%e : {t}) -> {t}
      return %r : {t}
    }}"""
    out = subprocess.run(
        [str(MLIR_OPT), "--transform-interpreter"], input=text + _DECOMPOSE, capture_output=True, text=True, check=True
    ).stdout
    decomposed = out[: out.index("  module attributes {transform")] + "}"
    assert "linalg.softmax" not in decomposed and "arith.maxnumf" in decomposed
    rng = np.random.default_rng(dim)
    x = (rng.standard_normal((6, 6)) * 6).astype(np.float32)
    # rows as normalized along dimension 1 (transposed for dimension 0):
    # one NaN makes its row NaN, as do all -inf (-inf - -inf) and one +inf
    x[1, 2], x[2, :], x[3, 4] = np.nan, -np.inf, np.inf
    x[4, 4] = -1e4  # exp of a large negative difference: 0
    x = x if dim == 1 else np.ascontiguousarray(x.T)
    if element == "f16":
        x = x.astype(np.float16)
    elif element == "bf16":
        x = to_bf16(x)
    (ours,) = run(text, x)
    (theirs,) = run(decomposed, x)
    assert ours.dtype == theirs.dtype == x.dtype
    np.testing.assert_array_equal(ours, theirs)
    finite = np.isfinite(ours)
    assert finite.sum() == 18  # the three rows of numbers
    wide = np.where(finite, x.astype(np.float64), 0.0)
    exact = np.exp(wide - wide.max(axis=dim, keepdims=True))
    exact /= exact.sum(axis=dim, keepdims=True)
    tolerance = {"f32": 1e-6, "f16": 2e-3, "bf16": 2e-2}[element]
    np.testing.assert_allclose(ours[finite], exact[finite], atol=tolerance)


def test_matmul_by_blas_is_close_to_loop_order_and_exact_for_integers():
    rng = np.random.default_rng(5)
    a = rng.standard_normal((16, 32)).astype(np.float32)
    b = rng.standard_normal((32, 8)).astype(np.float32)
    c = rng.standard_normal((16, 8)).astype(np.float32)
    text = """func.func @f(%a: tensor<16x32xT>, %b: tensor<32x8xT>, %c: tensor<16x8xT>) -> tensor<16x8xT> {
      %0 = linalg.matmul ins(%a, %b : tensor<16x32xT>, tensor<32x8xT>) outs(%c : tensor<16x8xT>) -> tensor<16x8xT>
      return %0 : tensor<16x8xT>
    }"""
    ctx = mesh_dialect.context()
    for dtype, t in ((np.float32, "f32"), (np.int8, "i8")):
        module = mesh_dialect.parse(text.replace("T>", t + ">"), context=ctx)
        args = [x.astype(dtype) if dtype == np.float32 else (x * 40).astype(dtype) for x in (a, b, c)]
        with ctx:
            (fast,) = Runner(module).run_global("f", args)
            linalg_ops.LOOP_ORDER_FLOATS = True
            try:
                (slow,) = Runner(module).run_global("f", args)
            finally:
                linalg_ops.LOOP_ORDER_FLOATS = False
        if dtype == np.float32:
            np.testing.assert_allclose(fast, slow, rtol=1e-5, atol=1e-5)
        else:
            # Wrapping integer sums do not depend on their order.
            ref = (args[2].astype(np.int64) + args[0].astype(np.int64) @ args[1].astype(np.int64)).astype(np.int8)
            np.testing.assert_array_equal(fast, ref)
            np.testing.assert_array_equal(slow, ref)


# -- empty pieces ------------------------------------------------------------------------


EMPTY_REDUCE = """
func.func @f(%x: tensor<6x0x4xf32>, %y: tensor<6x4x0xf32>) -> (tensor<6x0xf32>, tensor<6x4xf32>) {
  %c = arith.constant 1.5 : f32
  %e = tensor.empty() : tensor<6x0xf32>
  %f = linalg.fill ins(%c : f32) outs(%e : tensor<6x0xf32>) -> tensor<6x0xf32>
  %r = linalg.reduce ins(%x : tensor<6x0x4xf32>) outs(%f : tensor<6x0xf32>) dimensions = [2]
    (%a: f32, %b: f32) {
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    }
  %e2 = tensor.empty() : tensor<6x4xf32>
  %f2 = linalg.fill ins(%c : f32) outs(%e2 : tensor<6x4xf32>) -> tensor<6x4xf32>
  %r2 = linalg.reduce ins(%y : tensor<6x4x0xf32>) outs(%f2 : tensor<6x4xf32>) dimensions = [2]
    (%a: f32, %b: f32) {
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    }
  return %r, %r2 : tensor<6x0xf32>, tensor<6x4xf32>
}
"""


def test_reductions_over_empty_pieces():
    """A device whose piece of a parallel or reduced dimension is empty (a
    dimension split finer than its size) still runs the reduction: an empty
    result, or the init unchanged."""
    r, r2 = run(EMPTY_REDUCE, np.zeros((6, 0, 4), F32), np.zeros((6, 4, 0), F32))
    assert r.shape == (6, 0)
    np.testing.assert_array_equal(r2, np.full((6, 4), 1.5, F32))


def test_unwritten_empty_reads_as_varying_non_neutral_values():
    """`tensor.empty` reads as values no reduction treats as neutral, different
    at each op: a sum into an init the program forgot to fill comes out
    wrong instead of right by luck."""
    text = """
    func.func @f(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<4xi32>) {
      %a = tensor.empty() : tensor<4xf32>
      %b = tensor.empty() : tensor<4xf32>
      %i = tensor.empty() : tensor<4xi32>
      %init = tensor.empty() : tensor<f32>
      %m = linalg.reduce ins(%x : tensor<4xf32>) outs(%init : tensor<f32>) dimensions = [0]
        (%in: f32, %acc: f32) {
          %r = arith.addf %in, %acc : f32
          linalg.yield %r : f32
        }
      return %a, %b, %m, %i : tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<4xi32>
    }
    """
    x = np.array([1.0, 2.0, 3.0, 4.0], dtype=np.float32)
    a, b, m, i = (np.asarray(v) for v in run(text, x))
    assert not np.isnan(a).any() and not np.isnan(b).any()
    assert not np.array_equal(a, b)
    assert float(m) != 10.0
    info = np.iinfo(np.int32)
    assert not np.isin(i, [0, 1, -1, info.min, info.max]).any()
