"""bf16 in the simulator: held in f32, each value rounded to a bf16 as
MLIR's own parser rounds a literal, constants read back exactly (decimal
and hex text), inputs and partial terms that are bf16s, and results
rounded op by op."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mlir import ir

import mesh_dialect
from mesh_dialect.sim import layout
from mesh_dialect.sim.api import Simulation
from mesh_dialect.sim.floats import to_bf16
from mesh_dialect.sim.ops.core import tensor_constant


def _values(rng: np.random.Generator, n: int) -> np.ndarray:
    """f32 values over the whole range, exact ties between two bf16s (low
    half 0x8000, with either last kept bit), subnormals, infinities, NaN."""
    wide = (rng.standard_normal(n) * 10.0 ** rng.integers(-44, 38, n)).astype(np.float32)
    bits = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    ties = ((bits & np.uint32(0x7F7F0000)) | np.uint32(0x8000)).view(np.float32)
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 3.4e38, -3.39e38, 1e-45, 1.00390625], np.float32)
    return np.concatenate([wide, ties, special])


def _literal(v: np.float32) -> str:
    """An f32's exact value as an MLIR literal (NaN and infinities by their bf16 bits)."""
    if np.isnan(v):
        return "0x7FC0"
    if np.isinf(v):
        return "0x7F80" if v > 0 else "0xFF80"
    return repr(float(v))


@pytest.mark.parametrize("count", [40, 3000])
def test_rounding_and_reading_agree_with_mlirs_parser(count):
    # MLIR rounds a decimal literal of an f32's exact value to bf16 itself
    # (APFloat, ties to even): the constant the simulator reads from its
    # text (a decimal list when short, hex bits when long) equals `to_bf16`
    # of the f32, bit for bit.
    values = _values(np.random.default_rng(count), count)
    literals = ", ".join(_literal(v) for v in values)
    with mesh_dialect.context():
        attr = ir.Attribute.parse(f"dense<[{literals}]> : tensor<{len(values)}xbf16>")
        assert str(attr).startswith('dense<"0x') == (count > 100)
        got = tensor_constant(attr, attr.type)
    want = to_bf16(values)
    assert got.dtype == np.float32
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32))


def test_rounding_keeps_scalars_scalars_and_shapes():
    assert to_bf16(np.float32(3.14159)) == np.float32(3.140625)
    assert isinstance(to_bf16(np.float32(1.0)), np.float32)
    assert to_bf16(np.zeros((2, 0, 3), np.float32)).shape == (2, 0, 3)
    assert to_bf16(np.array(1.00390625, np.float32)).shape == ()


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**31), st.sampled_from([2, 3, 4, 8]))
def test_property_partial_sum_terms_of_bf16_are_bf16s_that_add_up_exactly(seed, n):
    # Each device's term of a partial bf16 argument is a bf16, and every
    # sum of the first terms in group order is one too: the all_reduce
    # gives the value exactly, rounding after each addition or not.
    rng = np.random.default_rng(seed)
    x = to_bf16((rng.standard_normal((3, 5)) * 10.0 ** rng.integers(-3, 4, (3, 5))).astype(np.float32))
    terms = layout.partial_terms(x, "sum", n, rng, bf16=True)
    assert np.array_equal(to_bf16(terms), terms)
    assert np.array_equal(layout.combine(list(terms), "sum", np.float32), x)
    prefix = np.cumsum(terms, axis=0, dtype=np.float32)
    assert np.array_equal(to_bf16(prefix), prefix)
    # and the random terms are not the fixed ones (the value on one device)
    assert (np.count_nonzero(terms, axis=0) > 1).any()


_PROGRAM = """
mesh.mesh @mesh(shape = 2)
func.func @scale(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %c = arith.constant dense<1.0078125> : tensor<4xbf16>
  %y = arith.mulf %x, %c : tensor<4xbf16>
  return %y : tensor<4xbf16>
}
func.func @sum(%x: tensor<4xbf16> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0]>})
    -> (tensor<4xbf16> {mesh.sharding = #mesh.sharding<@mesh, [[]]>}) {
  %y = mesh.all_reduce %x on @mesh mesh_axes = [0] : tensor<4xbf16> -> tensor<4xbf16>
  return %y : tensor<4xbf16>
}
"""


def test_inputs_and_every_result_are_rounded():
    module = mesh_dialect.parse(_PROGRAM, context=mesh_dialect.context())
    sim = Simulation(module.operation)
    x = np.array([1.0, 3.14159, 1.00390625, 255.9], np.float32)
    (got,) = sim.run("scale", [x])
    # the input is read as bf16s, and the product is rounded again
    rounded = to_bf16(x)
    assert rounded.tolist() == [1.0, 3.140625, 1.0, 256.0]  # (1 + 2**-8 is a tie: to even)
    assert got.tolist() == [1.0078125, 3.171875, 1.0078125, 258.0]


def test_a_bf16_argument_takes_bf16_bits_as_jax_saves_them(tmp_path):
    """JAX's bf16 arrays are ml_dtypes' bfloat16, which numpy saves as two
    bytes a value and reads back alone as `|V2`: the argument takes their
    bits, exactly, where it refused them before."""
    x = to_bf16(np.array([1.0, -3.140625, 1e-3, 300.0], np.float32))
    raw = (x.view(np.uint32) >> np.uint32(16)).astype(np.uint16).view("V2")
    np.save(tmp_path / "x.npy", raw)
    saved = np.load(tmp_path / "x.npy")
    assert saved.dtype == np.dtype("V2")
    module = mesh_dialect.parse(_PROGRAM, context=mesh_dialect.context())
    (got,) = Simulation(module.operation).run("sum", [saved])
    assert got.tolist() == x.tolist()


def test_partial_bf16_argument_reduces_to_its_value():
    module = mesh_dialect.parse(_PROGRAM, context=mesh_dialect.context())
    sim = Simulation(module.operation)
    x = np.array([1.0, -3.140625, 1e-3, 300.0], np.float32)
    for seed in range(5):
        (got,) = sim.run("sum", [x], seed=seed)
        assert got.tolist() == to_bf16(x).tolist()


_BITCASTS = """
func.func @to_bits(%x: tensor<6xbf16>) -> (tensor<6xi16>, tensor<6xf16>) {
  %i = arith.bitcast %x : tensor<6xbf16> to tensor<6xi16>
  %h = tensor.bitcast %x : tensor<6xbf16> to tensor<6xf16>
  return %i, %h : tensor<6xi16>, tensor<6xf16>
}
func.func @from_bits(%i: tensor<3xi16>, %h: tensor<3xf16>) -> (tensor<3xbf16>, tensor<3xbf16>) {
  %x = tensor.bitcast %i : tensor<3xi16> to tensor<3xbf16>
  %y = arith.bitcast %h : tensor<3xf16> to tensor<3xbf16>
  return %x, %y : tensor<3xbf16>, tensor<3xbf16>
}
func.func @scalars() -> (i16, bf16) {
  %a = arith.constant -1.5 : bf16
  %b = arith.bitcast %a : bf16 to i16
  %c = arith.constant 16448 : i16
  %d = arith.bitcast %c : i16 to bf16
  return %b, %d : i16, bf16
}
"""


def test_a_bitcast_of_bf16_reads_and_writes_its_own_bits():
    """A bf16 is held in an f32: a bitcast reinterprets the bf16's 16 bits
    (the f32's upper half), both ways, on tensors and scalars."""
    module = mesh_dialect.parse(_BITCASTS, context=mesh_dialect.context())
    sim = Simulation(module.operation)
    x = np.array([1.0, -2.0, 0.5, np.inf, -0.0, np.nan], np.float32)
    bits, halves = sim.run("to_bits", [x])
    assert bits.dtype == np.int16
    assert bits.tolist() == [0x3F80, -0x4000, 0x3F00, 0x7F80, -0x8000, 0x7FC0]
    assert halves.view(np.int16).tolist() == bits.tolist()
    # 0x4040 is 3.0 in bf16; f16's 1.0 (0x3C00) read as a bf16 is 2**-7, f16's 2.0 (0x4000) is 2.0
    values, from_f16 = sim.run(
        "from_bits", [np.array([0x4040, -0x4000, 0x0001], np.int16), np.array([1.0, -0.0, 2.0], np.float16)]
    )
    assert values.tolist() == [3.0, -2.0, float(np.float32(2.0**-133))]
    assert from_f16.tolist() == [2.0**-7, -0.0, 2.0]  # 0x4000: 2.0 in both
    b, d = sim.run("scalars", [])
    assert (int(b), float(d)) == (-0x4040, 3.0)


def test_an_input_past_bf16s_range_is_refused():
    module = mesh_dialect.parse(_PROGRAM, context=mesh_dialect.context())
    with pytest.raises(Exception, match=r"input 0 of @scale holds 3\.4e\+38, which tensor<4xbf16> cannot hold"):
        Simulation(module.operation).run("scale", [np.array([1.0, 2.0, 3.0, 3.4e38])])


_BF16_MAX = (2 - 2**-7) * 2.0**127


def _exact_bf16(v: float, mode: int) -> float:
    """`v` rounded to bf16 by arith's `mode`, with exact fractions: the two
    bf16 magnitudes around |v| are multiples of the bf16 step at |v|'s
    exponent (8 significant bits; subnormals share the least exponent)."""
    if math.isnan(v) or math.isinf(v):
        return v
    mag = Fraction(abs(v))
    if mag == 0:
        return v
    exponent = max(math.frexp(abs(v))[1] - 1, -126)
    step = Fraction(2) ** (exponent - 7)
    low = (mag // step) * step
    high = low + step
    negative = v < 0
    if mode == 0:
        up = mag - low > high - mag or (mag - low == high - mag and (low / step) % 2 == 1)
    elif mode == 4:
        up = mag - low >= high - mag
    elif mode == 3:
        up = False
    else:
        up = mag != low and negative == (mode == 1)
    out = high if up else low
    result = math.inf if out > Fraction(_BF16_MAX) else float(out)
    return -result if negative else result


@settings(max_examples=300, deadline=None)
@given(
    st.floats(allow_nan=False, min_value=-3.4e38, max_value=3.4e38) | st.sampled_from([1 + 2**-8 + 2**-30, 1e-40]),
    st.sampled_from([0, 1, 2, 3, 4]),
    st.booleans(),
)
def test_property_every_rounding_mode_agrees_with_exact_arithmetic(v, mode, single):
    # From f64 (rounded once, not through the nearest f32) or from f32.
    x = np.float32(v) if single else np.float64(v)
    got = to_bf16(np.array([x]), mode)[0]
    assert got.dtype == np.float32
    want = _exact_bf16(float(x), mode)
    assert got == want or (got == 0 and want == 0), (float(x), mode, float(got), want)
    assert np.signbit(got) == np.signbit(x)


_CONVERSIONS = """
func.func @modes(%x: f32) -> (bf16, bf16, bf16, bf16, bf16) {
  %0 = arith.truncf %x : f32 to bf16
  %1 = arith.truncf %x downward : f32 to bf16
  %2 = arith.truncf %x upward : f32 to bf16
  %3 = arith.truncf %x toward_zero : f32 to bf16
  %4 = arith.truncf %x to_nearest_away : f32 to bf16
  return %0, %1, %2, %3, %4 : bf16, bf16, bf16, bf16, bf16
}
func.func @wide(%i: i32, %d: f64) -> (bf16, bf16) {
  %0 = arith.sitofp %i : i32 to bf16
  %1 = arith.truncf %d : f64 to bf16
  return %0, %1 : bf16, bf16
}
func.func @mixed(%a: tensor<1x1xf32>, %b: tensor<1x1xf32>) -> tensor<1x1xbf16> {
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<1x1xbf16>
  %c = linalg.fill ins(%z : bf16) outs(%e : tensor<1x1xbf16>) -> tensor<1x1xbf16>
  %r = linalg.matmul ins(%a, %b : tensor<1x1xf32>, tensor<1x1xf32>) outs(%c : tensor<1x1xbf16>) -> tensor<1x1xbf16>
  return %r : tensor<1x1xbf16>
}
func.func @buffer(%a: memref<1x3xbf16>, %b: memref<3x1xbf16>, %c: memref<1x1xbf16>) -> memref<1x1xbf16> {
  linalg.matmul ins(%a, %b : memref<1x3xbf16>, memref<3x1xbf16>) outs(%c : memref<1x1xbf16>)
  return %c : memref<1x1xbf16>
}
"""


def _run(text: str, function: str, *inputs):
    module = mesh_dialect.parse(text, context=mesh_dialect.context())
    return Simulation(module.operation).run(function, list(inputs))


def test_conversions_to_bf16_round_once_by_their_mode():
    # 1.006 lies between 1 and 1 + 2**-7, nearer the latter
    got = _run(_CONVERSIONS, "modes", np.float32(1.006))
    assert [float(g) for g in got] == [1.0078125, 1.0, 1.0078125, 1.0, 1.0078125]
    # 2**25 + 2**17 + 1 and 1 + 2**-8 + 2**-30 lie just past a tie between
    # two bf16s: through the nearest f32 they would land on it and go to even
    got = _run(_CONVERSIONS, "wide", np.int32(2**25 + 2**17 + 1), np.float64(1 + 2**-8 + 2**-30))
    assert [float(g) for g in got] == [2**25 + 2**18, 1.0078125]


def test_contractions_into_bf16_round_their_inputs_and_buffers():
    # the body converts 1.005 to bf16 (1.0078125) before multiplying
    (got,) = _run(_CONVERSIONS, "mixed", np.full((1, 1), 1.005, np.float32), np.full((1, 1), 1.005, np.float32))
    assert got.tolist() == [[1.015625]]
    # a buffer written in place holds a bf16 (1 + 3 * 2**-8, summed in f32, is a tie: to even)
    a = np.array([[1.0, 2**-8, 2**-7]], np.float32)
    (got,) = _run(_CONVERSIONS, "buffer", a, np.ones((3, 1), np.float32), np.zeros((1, 1), np.float32))
    assert got.tolist() == [[1.015625]]


_REDUCE = """
func.func @sum(%x: tensor<ROWSx3xbf16>) -> tensor<ROWSxbf16> {
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<ROWSxbf16>
  %i = linalg.fill ins(%z : bf16) outs(%e : tensor<ROWSxbf16>) -> tensor<ROWSxbf16>
  %r = linalg.reduce ins(%x : tensor<ROWSx3xbf16>) outs(%i : tensor<ROWSxbf16>) dimensions = [1]
    (%v: bf16, %acc: bf16) {
      %s = arith.addf %v, %acc : bf16
      linalg.yield %s : bf16
    }
  return %r : tensor<ROWSxbf16>
}
"""


@pytest.mark.parametrize("rows", [1, 4096])
def test_a_bf16_reduction_rounds_every_step_whatever_its_width(rows):
    # 1 + 2**-8 is a tie (to 1), and so is 1 + 2**-8 again: the loop nest
    # gives 1 for every row, however many rows run at once (a device's
    # piece or the whole); a sum in f32 rounded once would give 1 + 2**-7
    x = np.tile(np.array([1.0, 2**-8, 2**-8], np.float32), (rows, 1))
    (got,) = _run(_REDUCE.replace("ROWS", str(rows)), "sum", x)
    assert got.tolist() == [1.0] * rows


PARTIAL_RESULT = """
mesh.mesh @mesh(shape = 2)
func.func @f(%x: tensor<1xbf16> {mesh.sharding = #mesh.sharding<@mesh, [[]]>})
    -> (tensor<1xbf16> {mesh.sharding = #mesh.sharding<@mesh, [[]], partial = sum [0]>}) {
  %p = mesh.process_linear_index on @mesh : index
  %c0 = arith.constant 0 : index
  %first = arith.cmpi eq, %p, %c0 : index
  %small = arith.constant dense<0.01171875> : tensor<1xbf16>
  %y = arith.select %first, %x, %small : tensor<1xbf16>
  return %y : tensor<1xbf16>
}
"""
"""Device 0 returns its input, device 1 returns 3 * 2**-8: with 1.0 in,
the terms add up to a tie between two bf16s, which an all_reduce rounds to
even, 1 + 2**-6 (test_mpi.py runs it under mpiexec too)."""


def test_a_partial_bf16_result_is_put_together_as_a_bf16():
    (got,) = _run(PARTIAL_RESULT, "f", np.array([1.0], np.float32))
    assert got.tolist() == [1.015625]


def test_hlo_bitcast_convert_of_bf16_round_trips_through_its_bits():
    text = """
    func.func @f(%x: tensor<4xbf16>) -> (tensor<4xi16>, tensor<4xbf16>) {
      %a = "stablehlo.bitcast_convert"(%x) : (tensor<4xbf16>) -> tensor<4xi16>
      %b = "stablehlo.bitcast_convert"(%a) : (tensor<4xi16>) -> tensor<4xbf16>
      return %a, %b : tensor<4xi16>, tensor<4xbf16>
    }"""
    ctx = mesh_dialect.context()
    ctx.allow_unregistered_dialects = True
    module = mesh_dialect.parse(text, context=ctx)
    x = np.array([1.0, -2.0, 0.5, -3.0], np.float32)
    bits, back = Simulation(module.operation).run("f", [x])
    assert bits.tolist() == [0x3F80, -0x4000, 0x3F00, -0x3FC0]
    assert back.tolist() == x.tolist()
