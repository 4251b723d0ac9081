"""tosa in the simulator: every op against a numpy reference computed here,
with tosa's broadcasting, the zero-point and shift operands of this MLIR
version, exact integer wrap-around, loop-order float accumulation, and the
cases the simulator refuses."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from simhelpers import run, small_ints

import mesh_dialect
import mesh_dialect.sim.ops  # noqa: F401  (registers the handlers)
from mesh_dialect.sim.program import SimError

F32 = np.float32
I8 = np.int8
I32 = np.int32
RNG = np.random.default_rng(4321)


ints = small_ints(RNG)


def ttype(shape, elem: str) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + elem + ">"


ZP_I8 = '%zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>'
ZP_F32 = '%zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>'
SHIFT0 = '%shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>'


# -- an MLP layer ------------------------------------------------------------------


MLP = f"""
func.func @f(%x: tensor<1x4x8xf32>, %w: tensor<1x8x16xf32>) -> tensor<1x4x16xf32> {{
  {ZP_F32}
  %bias = "tosa.const"() <{{values = dense<[[[1.0, -2.0, 3.0, -4.0, 5.0, -6.0, 7.0, -8.0,
                                              0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.0, 9.0]]]> : tensor<1x1x16xf32>}}>
      : () -> tensor<1x1x16xf32>
  %mm = tosa.matmul %x, %w, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x16xf32>, tensor<1xf32>, tensor<1xf32>)
      -> tensor<1x4x16xf32>
  %biased = tosa.add %mm, %bias : (tensor<1x4x16xf32>, tensor<1x1x16xf32>) -> tensor<1x4x16xf32>
  %relu = tosa.clamp %biased {{min_val = 0.0 : f32, max_val = 3.4028235e38 : f32}}
      : (tensor<1x4x16xf32>) -> tensor<1x4x16xf32>
  return %relu : tensor<1x4x16xf32>
}}
"""


def test_mlp_layer_matmul_bias_relu():
    x, w = ints((1, 4, 8)), ints((1, 8, 16))
    bias = np.array([1, -2, 3, -4, 5, -6, 7, -8, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0, 9], F32)
    (out,) = run(MLP, x, w)
    np.testing.assert_array_equal(out, np.maximum(x @ w + bias, 0))
    assert out.dtype == F32 and out.shape == (1, 4, 16)


# -- matmul --------------------------------------------------------------------------


def test_float_matmul_accumulates_from_zero_in_loop_order():
    a, b = RNG.standard_normal((2, 3, 11)).astype(F32), RNG.standard_normal((2, 11, 4)).astype(F32)
    text = f"""
    func.func @f(%a: tensor<2x3x11xf32>, %b: tensor<2x11x4xf32>) -> tensor<2x3x4xf32> {{
      {ZP_F32}
      %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<2x3x11xf32>, tensor<2x11x4xf32>, tensor<1xf32>, tensor<1xf32>)
          -> tensor<2x3x4xf32>
      return %0 : tensor<2x3x4xf32>
    }}"""
    (out,) = run(text, a, b)
    expected = np.zeros((2, 3, 4), F32)
    for k in range(11):
        expected = expected + a[:, :, k, None] * b[:, None, k, :]
    np.testing.assert_array_equal(out, expected)


def test_int8_matmul_with_zero_points_accumulates_in_i32():
    a = np.array([[[-128, 127, 5], [0, -1, 100]]], I8)
    b = np.array([[[127, -128], [-128, 127], [3, 4]]], I8)
    text = """
    func.func @f(%a: tensor<1x2x3xi8>, %b: tensor<1x3x2xi8>) -> tensor<1x2x2xi32> {
      %azp = "tosa.const"() <{values = dense<-3> : tensor<1xi8>}> : () -> tensor<1xi8>
      %bzp = "tosa.const"() <{values = dense<7> : tensor<1xi8>}> : () -> tensor<1xi8>
      %0 = tosa.matmul %a, %b, %azp, %bzp : (tensor<1x2x3xi8>, tensor<1x3x2xi8>, tensor<1xi8>, tensor<1xi8>)
          -> tensor<1x2x2xi32>
      return %0 : tensor<1x2x2xi32>
    }"""
    (out,) = run(text, a, b)
    expected = (a.astype(np.int64) + 3) @ (b.astype(np.int64) - 7)
    np.testing.assert_array_equal(out, expected.astype(I32))
    assert out.dtype == I32


# -- elementwise ---------------------------------------------------------------------


BINARY = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "maximum": np.maximum,
    "minimum": np.minimum,
    "pow": np.power,
}


@pytest.mark.parametrize("name", sorted(BINARY))
def test_float_binary_ops_broadcast_size_one_dims(name):
    a = (RNG.random((2, 1, 4)) * 3 + 0.5).astype(F32)
    b = (RNG.random((1, 3, 4)) * 3 + 0.5).astype(F32)
    text = f"""
    func.func @f(%a: tensor<2x1x4xf32>, %b: tensor<1x3x4xf32>) -> tensor<2x3x4xf32> {{
      %0 = tosa.{name} %a, %b : (tensor<2x1x4xf32>, tensor<1x3x4xf32>) -> tensor<2x3x4xf32>
      return %0 : tensor<2x3x4xf32>
    }}"""
    (out,) = run(text, a, b)
    expected = BINARY[name](a, b)
    if name == "pow":
        np.testing.assert_allclose(out, np.power(a.astype(np.float64), b), rtol=1e-6)
    else:
        np.testing.assert_array_equal(out, expected)
    assert out.shape == (2, 3, 4) and out.dtype == F32


INT_BINARY = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "maximum": np.maximum,
    "minimum": np.minimum,
    "bitwise_and": np.bitwise_and,
    "bitwise_or": np.bitwise_or,
    "bitwise_xor": np.bitwise_xor,
    "intdiv": lambda a, b: np.trunc(a.astype(np.float64) / b).astype(I32),  # b has no -1 here
    "logical_left_shift": lambda a, b: (a.astype(np.int64) << b).astype(I32),
    "logical_right_shift": lambda a, b: (a.view(np.uint32) >> b.astype(np.uint32)).view(I32),
    "arithmetic_right_shift": lambda a, b: a >> b,
}


@pytest.mark.parametrize("name", sorted(INT_BINARY))
def test_int32_binary_ops_wrap(name):
    a = np.array([[2**31 - 1, -(2**31), -7, 7], [100, -100, 1, -1]], I32)
    b = np.array([[1, 1, 2, 3]], I32) if "shift" in name or name == "intdiv" else np.array([[1, -1, 2, -3]], I32)
    text = f"""
    func.func @f(%a: tensor<2x4xi32>, %b: tensor<1x4xi32>) -> tensor<2x4xi32> {{
      %0 = tosa.{name} %a, %b {{round = false}} : (tensor<2x4xi32>, tensor<1x4xi32>) -> tensor<2x4xi32>
      return %0 : tensor<2x4xi32>
    }}""".replace(" {round = false}", "" if name != "arithmetic_right_shift" else " {round = false}")
    (out,) = run(text, a, b)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(out, INT_BINARY[name](a, b))


def test_arithmetic_right_shift_rounds():
    a = np.array([7, -7, 6, 5, -1], I8)
    b = np.array([1, 1, 2, 0, 1], I8)
    text = """
    func.func @f(%a: tensor<5xi8>, %b: tensor<5xi8>) -> tensor<5xi8> {
      %0 = tosa.arithmetic_right_shift %a, %b {round = true} : (tensor<5xi8>, tensor<5xi8>) -> tensor<5xi8>
      return %0 : tensor<5xi8>
    }"""
    (out,) = run(text, a, b)
    expected = [math.floor(int(x) / 2 ** int(s) + 0.5) for x, s in zip(a, b)]  # round half up
    np.testing.assert_array_equal(out, expected)


def test_mul_with_shift_operand():
    a = np.array([[3, -3, 1000000, 7]], I32)
    b = np.array([[5, 5, 3000, -9]], I32)
    ai, bi = np.array([[120, -128]], I8), np.array([[120, 127]], I8)
    fa, fb = ints((2, 3)), ints((1, 3))
    text = f"""
    func.func @f(%a: tensor<1x4xi32>, %b: tensor<1x4xi32>, %ai: tensor<1x2xi8>, %bi: tensor<1x2xi8>,
                 %fa: tensor<2x3xf32>, %fb: tensor<1x3xf32>) -> (tensor<1x4xi32>, tensor<1x4xi32>, tensor<1x2xi32>,
                 tensor<2x3xf32>) {{
      %s2 = "tosa.const"() <{{values = dense<2> : tensor<1xi8>}}> : () -> tensor<1xi8>
      {SHIFT0}
      %0 = tosa.mul %a, %b, %s2 : (tensor<1x4xi32>, tensor<1x4xi32>, tensor<1xi8>) -> tensor<1x4xi32>
      %1 = tosa.mul %a, %b, %shift : (tensor<1x4xi32>, tensor<1x4xi32>, tensor<1xi8>) -> tensor<1x4xi32>
      %2 = tosa.mul %ai, %bi, %shift : (tensor<1x2xi8>, tensor<1x2xi8>, tensor<1xi8>) -> tensor<1x2xi32>
      %3 = tosa.mul %fa, %fb, %shift : (tensor<2x3xf32>, tensor<1x3xf32>, tensor<1xi8>) -> tensor<2x3xf32>
      return %0, %1, %2, %3 : tensor<1x4xi32>, tensor<1x4xi32>, tensor<1x2xi32>, tensor<2x3xf32>
    }}"""
    shifted, wrapped, widened, floats = run(text, a, b, ai, bi, fa, fb)
    products = [int(x) * int(y) for x, y in zip(a[0], b[0])]
    np.testing.assert_array_equal(shifted[0], [(p + 2) >> 2 for p in products])  # rounds half up
    np.testing.assert_array_equal(wrapped[0], [(p + 2**31) % 2**32 - 2**31 for p in products])
    np.testing.assert_array_equal(widened, [[14400, -16256]])
    np.testing.assert_array_equal(floats, fa * fb)


@settings(max_examples=25, deadline=None)
@given(
    shape=st.lists(st.integers(1, 3), min_size=1, max_size=3),
    ones_a=st.lists(st.booleans(), min_size=3, max_size=3),
    ones_b=st.lists(st.booleans(), min_size=3, max_size=3),
    seed=st.integers(0, 2**32 - 1),
)
def test_int8_add_broadcasts_and_wraps(shape, ones_a, ones_b, seed):
    """Size-1 dims of either operand broadcast; i8 sums wrap modulo 256."""
    sa = [1 if o else d for d, o in zip(shape, ones_a)]
    sb = [1 if o else d for d, o in zip(shape, ones_b)]
    out_shape = [max(x, y) for x, y in zip(sa, sb)]
    rng = np.random.default_rng(seed)
    a = rng.integers(-128, 128, sa).astype(I8)
    b = rng.integers(-128, 128, sb).astype(I8)
    ta, tb, to = ttype(sa, "i8"), ttype(sb, "i8"), ttype(out_shape, "i8")
    text = f"""
    func.func @f(%a: {ta}, %b: {tb}) -> {to} {{
      %0 = tosa.add %a, %b : ({ta}, {tb}) -> {to}
      return %0 : {to}
    }}"""
    (out,) = run(text, a, b)
    exact = a.astype(np.int64) + b.astype(np.int64)
    np.testing.assert_array_equal(out, ((exact + 128) % 256 - 128).astype(I8))
    assert out.shape == tuple(out_shape)


def test_runtime_shapes_that_do_not_fit_are_refused():
    text = """
    func.func @f(%a: tensor<?xf32>, %b: tensor<?xf32>) -> (tensor<?xf32>, tensor<2xf32>) {
      %0 = tosa.add %a, %b : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
      %start = tosa.const_shape {values = dense<[2]> : tensor<1xindex>} : () -> !tosa.shape<1>
      %size = tosa.const_shape {values = dense<[2]> : tensor<1xindex>} : () -> !tosa.shape<1>
      %1 = tosa.slice %a, %start, %size : (tensor<?xf32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<2xf32>
      return %0, %1 : tensor<?xf32>, tensor<2xf32>
    }"""
    with pytest.raises(SimError, match=r"'tosa.add' cannot broadcast shapes \[\(3,\), \(4,\)\]"):
        run(text, np.zeros(3, F32), np.zeros(4, F32))
    with pytest.raises(SimError, match=r"'tosa.slice' reads \[2, 4\) of dim 0, which has size 3"):
        run(text, np.zeros(3, F32), np.zeros(1, F32))
    _, sliced = run(text, np.arange(4, dtype=F32), np.zeros(1, F32))
    np.testing.assert_array_equal(sliced, [2, 3])


UNARY = {
    "abs": np.abs,
    "exp": np.exp,
    "log": np.log,
    "tanh": np.tanh,
    "sigmoid": lambda x: 1 / (1 + np.exp(-x)),
    "reciprocal": lambda x: 1 / x,
    "rsqrt": lambda x: 1 / np.sqrt(x),
    "ceil": np.ceil,
    "floor": np.floor,
    "sin": np.sin,
    "cos": np.cos,
    "erf": np.vectorize(math.erf),
}
EXACT = {"abs", "ceil", "floor"}


@pytest.mark.parametrize("name", sorted(UNARY))
def test_float_unary_ops(name):
    x = (RNG.random((3, 4)) * 3 + 0.25).astype(F32)
    if name in ("abs", "ceil", "floor", "sigmoid", "tanh", "sin", "cos", "erf"):
        x[0] = -x[0]
    text = f"""
    func.func @f(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {{
      %0 = tosa.{name} %x : (tensor<3x4xf32>) -> tensor<3x4xf32>
      return %0 : tensor<3x4xf32>
    }}"""
    (out,) = run(text, x)
    assert out.dtype == F32 and out.shape == (3, 4)
    expected = UNARY[name](x.astype(np.float64))
    if name in EXACT:
        np.testing.assert_array_equal(out, expected)
    else:
        np.testing.assert_allclose(out, expected, rtol=1e-6, atol=1e-7)  # a few f32 ulps


def test_negate_with_and_without_zero_points():
    x = np.array([-128, -1, 0, 5, 127], I8)
    f = np.array([1.5, -0.0, 2.0], F32)
    text = f"""
    func.func @f(%x: tensor<5xi8>, %f: tensor<3xf32>) -> (tensor<5xi8>, tensor<5xi8>, tensor<3xf32>) {{
      {ZP_I8}
      %zp5 = "tosa.const"() <{{values = dense<5> : tensor<1xi8>}}> : () -> tensor<1xi8>
      %fzp = "tosa.const"() <{{values = dense<0.0> : tensor<1xf32>}}> : () -> tensor<1xf32>
      %0 = tosa.negate %x, %zp, %zp : (tensor<5xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<5xi8>
      %1 = tosa.negate %x, %zp5, %zp : (tensor<5xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<5xi8>
      %2 = tosa.negate %f, %fzp, %fzp : (tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3xf32>
      return %0, %1, %2 : tensor<5xi8>, tensor<5xi8>, tensor<3xf32>
    }}"""
    plain, shifted, floats = run(text, x, f)
    np.testing.assert_array_equal(plain, [-128, 1, 0, -5, -127])  # -(-128) wraps
    np.testing.assert_array_equal(shifted, np.clip(5 - x.astype(int), -128, 127))  # saturates
    np.testing.assert_array_equal(floats, -f)
    assert np.signbit(floats[1]) == 0


def test_logical_and_comparison_ops_and_select():
    p = np.array([[True, False, True, False]])
    q = np.array([[True], [False]])
    a, b = ints((2, 4)), ints((1, 4))
    text = """
    func.func @f(%p: tensor<1x4xi1>, %q: tensor<2x1xi1>, %a: tensor<2x4xf32>, %b: tensor<1x4xf32>)
        -> (tensor<2x4xi1>, tensor<2x4xi1>, tensor<2x4xi1>, tensor<1x4xi1>, tensor<2x4xi1>, tensor<2x4xi1>,
            tensor<2x4xi1>, tensor<2x4xf32>) {
      %and = tosa.logical_and %p, %q : (tensor<1x4xi1>, tensor<2x1xi1>) -> tensor<2x4xi1>
      %or = tosa.logical_or %p, %q : (tensor<1x4xi1>, tensor<2x1xi1>) -> tensor<2x4xi1>
      %xor = tosa.logical_xor %p, %q : (tensor<1x4xi1>, tensor<2x1xi1>) -> tensor<2x4xi1>
      %not = tosa.logical_not %p : (tensor<1x4xi1>) -> tensor<1x4xi1>
      %gt = tosa.greater %a, %b : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xi1>
      %ge = tosa.greater_equal %a, %b : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xi1>
      %eq = tosa.equal %a, %b : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xi1>
      %sel = tosa.select %gt, %a, %b : (tensor<2x4xi1>, tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
      return %and, %or, %xor, %not, %gt, %ge, %eq, %sel : tensor<2x4xi1>, tensor<2x4xi1>, tensor<2x4xi1>,
          tensor<1x4xi1>, tensor<2x4xi1>, tensor<2x4xi1>, tensor<2x4xi1>, tensor<2x4xf32>
    }"""
    out = run(text, p, q, a, b)
    expected = [p & q, p | q, p ^ q, ~p, a > b, a >= b, a == b, np.where(a > b, a, b)]
    for got, want in zip(out, expected):
        np.testing.assert_array_equal(got, want)
    assert out[0].dtype == np.bool_


def test_bitwise_not_and_clz():
    x = np.array([0, 1, -1, 255, 2**20, -(2**31)], I32)
    text = """
    func.func @f(%x: tensor<6xi32>) -> (tensor<6xi32>, tensor<6xi32>) {
      %0 = tosa.bitwise_not %x : (tensor<6xi32>) -> tensor<6xi32>
      %1 = tosa.clz %x : (tensor<6xi32>) -> tensor<6xi32>
      return %0, %1 : tensor<6xi32>, tensor<6xi32>
    }"""
    inverted, clz = run(text, x)
    np.testing.assert_array_equal(inverted, ~x)
    np.testing.assert_array_equal(clz, [32 - int(v).bit_length() for v in x.view(np.uint32)])


# -- clamp and cast ------------------------------------------------------------------


def test_clamp_int_and_float_nan_modes():
    i = np.array([-100, -3, 0, 3, 100], I8)
    f = np.array([-5.0, np.nan, 0.5, 9.0], F32)
    text = """
    func.func @f(%i: tensor<5xi8>, %f: tensor<4xf32>) -> (tensor<5xi8>, tensor<4xf32>, tensor<4xf32>) {
      %0 = tosa.clamp %i {min_val = -2 : i8, max_val = 4 : i8} : (tensor<5xi8>) -> tensor<5xi8>
      %1 = tosa.clamp %f {min_val = -1.0 : f32, max_val = 1.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
      %2 = tosa.clamp %f {min_val = -1.0 : f32, max_val = 1.0 : f32, nan_mode = #tosa.nan_mode<IGNORE>}
          : (tensor<4xf32>) -> tensor<4xf32>
      return %0, %1, %2 : tensor<5xi8>, tensor<4xf32>, tensor<4xf32>
    }"""
    ci, propagate, ignore = run(text, i, f)
    np.testing.assert_array_equal(ci, [-2, -2, 0, 3, 4])
    np.testing.assert_array_equal(propagate, [-1.0, np.nan, 0.5, 1.0])
    np.testing.assert_array_equal(ignore, [-1.0, -1.0, 0.5, 1.0])


def test_maximum_nan_modes():
    a = np.array([1.0, np.nan, np.nan], F32)
    b = np.array([np.nan, 2.0, np.nan], F32)
    text = """
    func.func @f(%a: tensor<3xf32>, %b: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
      %0 = tosa.maximum %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
      %1 = tosa.minimum %a, %b {nan_mode = #tosa.nan_mode<IGNORE>} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
      return %0, %1 : tensor<3xf32>, tensor<3xf32>
    }"""
    mx, mn = run(text, a, b)
    np.testing.assert_array_equal(mx, [np.nan, np.nan, np.nan])
    np.testing.assert_array_equal(mn, [1.0, 2.0, np.nan])


def test_cast_rounding_truncation_and_booleans():
    f = np.array([2.5, 3.5, -2.5, -0.5, 1.49, 127.0], F32)
    i = np.array([300, -129, 5, 0], I32)
    b = np.array([True, False])
    text = """
    func.func @f(%f: tensor<6xf32>, %i: tensor<4xi32>, %b: tensor<2xi1>)
        -> (tensor<6xi8>, tensor<4xi8>, tensor<4xf32>, tensor<6xi1>, tensor<4xi1>, tensor<2xi32>, tensor<6xf16>) {
      %0 = tosa.cast %f : (tensor<6xf32>) -> tensor<6xi8>
      %1 = tosa.cast %i : (tensor<4xi32>) -> tensor<4xi8>
      %2 = tosa.cast %i : (tensor<4xi32>) -> tensor<4xf32>
      %3 = tosa.cast %f : (tensor<6xf32>) -> tensor<6xi1>
      %4 = tosa.cast %i : (tensor<4xi32>) -> tensor<4xi1>
      %5 = tosa.cast %b : (tensor<2xi1>) -> tensor<2xi32>
      %6 = tosa.cast %f : (tensor<6xf32>) -> tensor<6xf16>
      return %0, %1, %2, %3, %4, %5, %6 : tensor<6xi8>, tensor<4xi8>, tensor<4xf32>, tensor<6xi1>, tensor<4xi1>,
          tensor<2xi32>, tensor<6xf16>
    }"""
    to_i8, trunc, to_f, f_bool, i_bool, from_bool, to_f16 = run(text, f, i, b)
    np.testing.assert_array_equal(to_i8, [2, 4, -2, 0, 1, 127])  # half to even
    np.testing.assert_array_equal(trunc, [44, 127, 5, 0])  # wraps
    np.testing.assert_array_equal(to_f, i.astype(F32))
    np.testing.assert_array_equal(f_bool, f != 0)
    np.testing.assert_array_equal(i_bool, i != 0)
    np.testing.assert_array_equal(from_bool, [1, 0])
    np.testing.assert_array_equal(to_f16, f.astype(np.float16))
    assert to_f16.dtype == np.float16


@pytest.mark.parametrize("value", [128.0, -129.0, np.nan, np.inf])
def test_cast_of_float_outside_the_integer_range_is_refused(value):
    text = """
    func.func @f(%f: tensor<1xf32>) -> tensor<1xi8> {
      %0 = tosa.cast %f : (tensor<1xf32>) -> tensor<1xi8>
      return %0 : tensor<1xi8>
    }"""
    with pytest.raises(SimError, match=r":3:\d+: 'tosa.cast' casts a NaN or a value outside the range of int8"):
        run(text, np.array([value], F32))


# -- reductions ----------------------------------------------------------------------


def test_reductions_keep_the_axis():
    x = RNG.standard_normal((3, 7, 2)).astype(F32)
    n = np.array([[100, 100, 3], [-5, 2, 7]], I8)
    bools = np.array([[True, True], [True, False]])
    text = """
    func.func @f(%x: tensor<3x7x2xf32>, %n: tensor<2x3xi8>, %b: tensor<2x2xi1>)
        -> (tensor<3x1x2xf32>, tensor<1x7x2xf32>, tensor<3x7x1xf32>, tensor<3x1x2xf32>, tensor<2x1xi8>, tensor<2x1xi8>,
            tensor<2x1xi1>, tensor<2x1xi1>) {
      %0 = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<3x7x2xf32>) -> tensor<3x1x2xf32>
      %1 = tosa.reduce_max %x {axis = 0 : i32} : (tensor<3x7x2xf32>) -> tensor<1x7x2xf32>
      %2 = tosa.reduce_min %x {axis = 2 : i32} : (tensor<3x7x2xf32>) -> tensor<3x7x1xf32>
      %3 = tosa.reduce_product %x {axis = 1 : i32} : (tensor<3x7x2xf32>) -> tensor<3x1x2xf32>
      %4 = tosa.reduce_sum %n {axis = 1 : i32} : (tensor<2x3xi8>) -> tensor<2x1xi8>
      %5 = tosa.reduce_product %n {axis = 1 : i32} : (tensor<2x3xi8>) -> tensor<2x1xi8>
      %6 = tosa.reduce_all %b {axis = 1 : i32} : (tensor<2x2xi1>) -> tensor<2x1xi1>
      %7 = tosa.reduce_any %b {axis = 1 : i32} : (tensor<2x2xi1>) -> tensor<2x1xi1>
      return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<3x1x2xf32>, tensor<1x7x2xf32>, tensor<3x7x1xf32>,
          tensor<3x1x2xf32>, tensor<2x1xi8>, tensor<2x1xi8>, tensor<2x1xi1>, tensor<2x1xi1>
    }"""
    s, mx, mn, prod, isum, iprod, all_, any_ = run(text, x, n, bools)
    seq_sum, seq_prod = np.zeros((3, 1, 2), F32), np.ones((3, 1, 2), F32)
    for k in range(7):
        seq_sum = seq_sum + x[:, k : k + 1, :]
        seq_prod = seq_prod * x[:, k : k + 1, :]
    np.testing.assert_array_equal(s, seq_sum)
    np.testing.assert_array_equal(prod, seq_prod)
    np.testing.assert_array_equal(mx, x.max(axis=0, keepdims=True))
    np.testing.assert_array_equal(mn, x.min(axis=2, keepdims=True))
    np.testing.assert_array_equal(isum, [[203 - 256], [4]])  # 100+100+3 wraps in i8
    np.testing.assert_array_equal(iprod, [[(30000 + 128) % 256 - 128], [-70 + 0]])
    np.testing.assert_array_equal(all_, [[True], [False]])
    np.testing.assert_array_equal(any_, [[True], [True]])


def test_argmax_takes_the_first_maximum():
    x = np.array([[1.0, 5.0, 5.0, 2.0], [0.0, np.nan, 3.0, np.nan]], F32)
    text = """
    func.func @f(%x: tensor<2x4xf32>) -> (tensor<2xi32>, tensor<2xi32>) {
      %0 = tosa.argmax %x {axis = 1 : i32} : (tensor<2x4xf32>) -> tensor<2xi32>
      %1 = tosa.argmax %x {axis = 1 : i32, nan_mode = #tosa.nan_mode<IGNORE>} : (tensor<2x4xf32>) -> tensor<2xi32>
      return %0, %1 : tensor<2xi32>, tensor<2xi32>
    }"""
    propagate, ignore = run(text, x)
    np.testing.assert_array_equal(propagate, [1, 1])
    np.testing.assert_array_equal(ignore, [1, 2])


# -- data movement -----------------------------------------------------------------


def test_transpose_reshape_slice_tile_concat_pad_reverse_identity():
    x = ints((2, 3, 4))
    text = """
    func.func @f(%x: tensor<2x3x4xf32>) -> (tensor<4x2x3xf32>, tensor<6x4xf32>, tensor<1x2x3xf32>, tensor<2x6x4xf32>,
                                           tensor<2x3x8xf32>, tensor<3x3x5xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>) {
      %t = tosa.transpose %x {perms = array<i32: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
      %s = tosa.const_shape {values = dense<[6, -1]> : tensor<2xindex>} : () -> !tosa.shape<2>
      %r = tosa.reshape %x, %s : (tensor<2x3x4xf32>, !tosa.shape<2>) -> tensor<6x4xf32>
      %start = tosa.const_shape {values = dense<[1, 0, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
      %size = tosa.const_shape {values = dense<[1, 2, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
      %sl = tosa.slice %x, %start, %size : (tensor<2x3x4xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x2x3xf32>
      %mult = tosa.const_shape {values = dense<[1, 2, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
      %tl = tosa.tile %x, %mult : (tensor<2x3x4xf32>, !tosa.shape<3>) -> tensor<2x6x4xf32>
      %c = tosa.concat %x, %x {axis = 2 : i32} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x8xf32>
      %pads = tosa.const_shape {values = dense<[0, 1, 0, 0, 1, 0]> : tensor<6xindex>} : () -> !tosa.shape<6>
      %pv = "tosa.const"() <{values = dense<-9.0> : tensor<1xf32>}> : () -> tensor<1xf32>
      %p = tosa.pad %x, %pads, %pv : (tensor<2x3x4xf32>, !tosa.shape<6>, tensor<1xf32>) -> tensor<3x3x5xf32>
      %rv = tosa.reverse %x {axis = 1 : i32} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
      %id = tosa.identity %x : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
      return %t, %r, %sl, %tl, %c, %p, %rv, %id : tensor<4x2x3xf32>, tensor<6x4xf32>, tensor<1x2x3xf32>,
          tensor<2x6x4xf32>, tensor<2x3x8xf32>, tensor<3x3x5xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>
    }"""
    t, r, sl, tl, c, p, rv, ident = run(text, x)
    np.testing.assert_array_equal(t, x.transpose(2, 0, 1))
    np.testing.assert_array_equal(r, x.reshape(6, 4))
    np.testing.assert_array_equal(sl, x[1:2, 0:2, 1:4])
    np.testing.assert_array_equal(tl, np.tile(x, (1, 2, 1)))
    np.testing.assert_array_equal(c, np.concatenate([x, x], axis=2))
    np.testing.assert_array_equal(p, np.pad(x, [(0, 1), (0, 0), (1, 0)], constant_values=-9))
    np.testing.assert_array_equal(rv, x[:, ::-1, :])
    np.testing.assert_array_equal(ident, x)
    assert ident is not x and t.flags.c_contiguous


def test_const_gather_and_scatter():
    values = ints((2, 5, 3))
    idx = np.array([[4, 0], [1, 1]], I32)
    text = """
    func.func @f(%v: tensor<2x5x3xf32>, %idx: tensor<2x2xi32>) -> (tensor<2x2x3xf32>, tensor<2x3xi8>) {
      %g = tosa.gather %v, %idx : (tensor<2x5x3xf32>, tensor<2x2xi32>) -> tensor<2x2x3xf32>
      %c = "tosa.const"() <{values = dense<[[1, 2, 3], [-4, -5, -6]]> : tensor<2x3xi8>}> : () -> tensor<2x3xi8>
      return %g, %c : tensor<2x2x3xf32>, tensor<2x3xi8>
    }"""
    g, c = run(text, values, idx)
    np.testing.assert_array_equal(g, np.stack([values[n, idx[n]] for n in range(2)]))
    np.testing.assert_array_equal(c, [[1, 2, 3], [-4, -5, -6]])
    assert c.dtype == I8

    scatter = """
    func.func @f(%v: tensor<2x5x3xf32>, %idx: tensor<2x2xi32>, %src: tensor<2x2x3xf32>) -> tensor<2x5x3xf32> {
      %s = tosa.scatter %v, %idx, %src : (tensor<2x5x3xf32>, tensor<2x2xi32>, tensor<2x2x3xf32>) -> tensor<2x5x3xf32>
      return %s : tensor<2x5x3xf32>
    }"""
    src = ints((2, 2, 3))
    ok = np.array([[4, 0], [1, 3]], I32)
    (s,) = run(scatter, values, ok, src)
    expected = values.copy()
    for n in range(2):
        expected[n, ok[n]] = src[n]
    np.testing.assert_array_equal(s, expected)
    with pytest.raises(SimError, match="writes one position twice"):
        run(scatter, values, idx, src)


def test_intdiv_by_zero_or_overflowing_is_refused():
    text = """
    func.func @f(%a: tensor<2xi32>, %b: tensor<2xi32>) -> tensor<2xi32> {
      %0 = tosa.intdiv %a, %b : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
      return %0 : tensor<2xi32>
    }"""
    with pytest.raises(SimError, match="'tosa.intdiv' divides by zero"):
        run(text, np.array([1, 2], I32), np.array([1, 0], I32))
    with pytest.raises(SimError, match="'tosa.intdiv' overflows"):
        run(text, np.array([1, -(2**31)], I32), np.array([1, -1], I32))


def test_unsupported_tosa_ops_are_reported():
    text = """
    func.func @f(%x: tensor<1x4x4xf32>) -> tensor<1x4x3xf32> {
      %0, %1 = tosa.rfft2d %x : (tensor<1x4x4xf32>) -> (tensor<1x4x3xf32>, tensor<1x4x3xf32>)
      return %0 : tensor<1x4x3xf32>
    }"""
    with pytest.raises(SimError, match="'tosa.rfft2d' is not supported"):
        run(text, np.ones((1, 4, 4), np.float32))


def test_f16_convolution_and_average_pooling_sum_in_acc_type():
    # 2048 + 1 + 1 is 2048 in f16 and 2050 in f32 (exact in f16 too); TOSA
    # sums in acc_type and converts once, as upstream's lowering does
    text = """
func.func @f(%x: tensor<1x3x1x1xf16>) -> (tensor<1x1x1x1xf16>, tensor<1x1x1x1xf16>, tensor<1x1x1x1xf16>) {
  %w = "tosa.const"() <{values = dense<1.0> : tensor<1x3x1x1xf16>}> : () -> tensor<1x3x1x1xf16>
  %dw = "tosa.const"() <{values = dense<1.0> : tensor<3x1x1x1xf16>}> : () -> tensor<3x1x1x1xf16>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %c = tosa.conv2d %x, %w, %b, %z, %z {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>,
      stride = array<i64: 1, 1>} : (tensor<1x3x1x1xf16>, tensor<1x3x1x1xf16>, tensor<1xf16>, tensor<1xf16>,
      tensor<1xf16>) -> tensor<1x1x1x1xf16>
  %d = tosa.depthwise_conv2d %x, %dw, %b, %z, %z {acc_type = f32, dilation = array<i64: 1, 1>,
      pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x1x1xf16>, tensor<3x1x1x1xf16>,
      tensor<1xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x1x1x1xf16>
  %p = tosa.avg_pool2d %x, %z, %z {acc_type = f32, kernel = array<i64: 3, 1>, pad = array<i64: 0, 0, 0, 0>,
      stride = array<i64: 1, 1>} : (tensor<1x3x1x1xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x1x1x1xf16>
  return %c, %d, %p : tensor<1x1x1x1xf16>, tensor<1x1x1x1xf16>, tensor<1x1x1x1xf16>
}
"""
    x = np.array([2048, 1, 1], np.float16).reshape(1, 3, 1, 1)
    c, d, p = run(text, x)
    assert c.ravel().tolist() == [2050.0] and d.ravel().tolist() == [2050.0]
    assert p.ravel().tolist() == [float(np.float16(np.float32(2050) / np.float32(3)))]  # 683.5
